"""Golden files of forward-mode (jvp) source: changes must be deliberate.

Like tests/golden: `golden/<case>.expected.py` holds the generated module with its
runtime helpers left out (they are in `golden/forward_helpers.expected.py`, once).
Rewrite with `pytest tests/forward/test_golden_forward.py --update-golden`.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from reference import lint_problems

import tangentlike as tl
from tangentlike.api_forward import jvp_vector

HERE = Path(__file__).parent / "golden"
SHARED = Path(__file__).parent.parent / "golden"  # reverse mode's cases, here in forward mode
sys.path.insert(0, str(SHARED.parent))
from golden.test_golden import split_helpers  # noqa: E402

CASES = {
    # case: (directory, module, function, wrt, vector mode)
    "mlp_loss": (SHARED, "mlp_loss", "loss", ("W1", "W2"), False),
    "loop_overwrite": (SHARED, "loop_overwrite", "rnn", ("w", "h"), False),
    "if_else": (SHARED, "if_else", "piecewise", (0, 1), False),
    "params_rnn": (SHARED, "params_rnn", "loss", ("params",), False),
    "field": (HERE, "field", "field", (0, 1), False),
    "field_vector": (HERE, "field", "field", (0, 1), True),
    "mlp_loss_vector": (SHARED, "mlp_loss", "loss", ("W1",), True),
}
HELPERS = HERE / "forward_helpers.expected.py"


def generated(case: str) -> str:
    where, module_name, func, wrt, vector = CASES[case]
    sys.path.insert(0, str(where))
    try:
        module = importlib.import_module(module_name)
    finally:
        sys.path.remove(str(where))
    make = jvp_vector if vector else tl.jvp
    return make(getattr(module, func), wrt=wrt).source


def _compare(path: Path, text: str, request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--update-golden"):
        path.write_text(text)
    if not path.exists():
        pytest.fail(f"{path.name} is missing: write it with --update-golden and review it")
    assert text == path.read_text()


@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_source_matches_golden(case, request):
    text, _ = split_helpers(generated(case))
    _compare(HERE / f"{case}.expected.py", text, request)


def test_forward_helpers_match_golden(request):
    found: dict[str, str] = {}
    for case in sorted(CASES):
        for name, text in split_helpers(generated(case))[1].items():
            assert found.setdefault(name, text) == text, f"{case}: two texts of {name}"
    header = "# The runtime helpers the forward golden cases copy, by name.\n"
    body = "\n\n".join(text for _, text in sorted(found.items()))
    _compare(HELPERS, header + "import numpy as np\n\n\n" + body, request)


@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_module_is_lint_clean(case, tmp_path):
    path = tmp_path / f"{case}.py"
    path.write_text(generated(case))
    assert lint_problems(path) == ""
