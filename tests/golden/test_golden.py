"""Golden files of generated source: changes to generated code must be deliberate.

Rewrite the expected files with `pytest tests/golden --update-golden` and
review the diff like a compiler diff.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from reference import lint_problems

import tangentlike as tl

HERE = Path(__file__).parent
CASES = {
    "mlp_loss": ("loss", ("W1", "W2")),
    "loop_overwrite": ("rnn", ("w", "h")),
    "if_else": ("piecewise", (0, 1)),
    "checkpointed_loop": ("rnn", ("W", "h")),
    "params_rnn": ("loss", ("params",)),
}


def _generated(case: str) -> str:
    sys.path.insert(0, str(HERE))
    try:
        module = importlib.import_module(case)
    finally:
        sys.path.remove(str(HERE))
    func, wrt = CASES[case]
    return tl.grad(getattr(module, func), wrt=wrt, checks=False).source  # plain mode, always


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_source_matches_golden(case, request):
    text = _generated(case)
    expected = HERE / f"{case}.expected.py"
    if request.config.getoption("--update-golden") or not expected.exists():
        expected.write_text(text)
    assert text == expected.read_text()


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_output_is_lint_clean(case):
    """An undefined or unused name in generated code is a transformer bug."""
    path = HERE / f"{case}.expected.py"
    assert lint_problems(path) == ""


def test_same_text_in_another_process():
    """Deterministic output: no hashing order, no random names."""
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); import mlp_loss, tangentlike as tl;"
        "print(tl.grad(mlp_loss.loss, wrt=('W1', 'W2'), checks=False).source, end='')"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert outputs.pop() == _generated("mlp_loss")
