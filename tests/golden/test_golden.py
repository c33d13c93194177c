"""Golden files of generated source: changes to generated code must be deliberate.

`<case>.expected.py` holds the module generated for the case with the runtime helpers
it copies left out (a comment names them); `runtime_helpers.expected.py` holds every
helper the cases copy, once, so editing a helper changes one golden file, not all of
them. A missing expected file is a failure: rewrite them with
`pytest tests/golden --update-golden` and review the diff like a compiler diff.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reference import lint_problems

import tangentlike as tl
from tangentlike import runtime

HERE = Path(__file__).parent
CASES = {
    "mlp_loss": ("loss", ("W1", "W2")),
    "loop_overwrite": ("rnn", ("w", "h")),
    "if_else": ("piecewise", (0, 1)),
    "checkpointed_loop": ("rnn", ("W", "h")),
    "params_rnn": ("loss", ("params",)),
}
HELPERS = HERE / "runtime_helpers.expected.py"
MARK = "# --- tangentlike runtime helpers ---"


def _generated(case: str) -> str:
    sys.path.insert(0, str(HERE))
    try:
        module = importlib.import_module(case)
    finally:
        sys.path.remove(str(HERE))
    func, wrt = CASES[case]
    return tl.grad(getattr(module, func), wrt=wrt, checks=False).source  # plain mode, always


def _runtime_names() -> frozenset[str]:
    """The names of the functions and classes of tangentlike.runtime's modules."""
    names = set()
    for info in pkgutil.iter_modules(runtime.__path__):
        module = importlib.import_module(f"{runtime.__name__}.{info.name}")
        names |= {
            name
            for name, obj in vars(module).items()
            if (inspect.isfunction(obj) or inspect.isclass(obj))
            and obj.__module__ == module.__name__
        }
    return frozenset(names)


def split_helpers(text: str) -> tuple[str, dict[str, str]]:
    """The module text with its copied helpers replaced by a comment naming them, and
    the helpers' texts by name. The helpers are the definitions right after MARK (the
    emitter writes them there, before the generated functions) named like a runtime
    function or class (`sum_to` or, renamed to avoid a clash, `sum_to_2`)."""
    if MARK not in text:
        return text, {}
    before, after = text.split(MARK, 1)
    lines = after.splitlines(keepends=True)
    known = _runtime_names()
    helpers: dict[str, str] = {}
    end = 0
    for node in ast.parse(after).body:
        is_helper = isinstance(node, (ast.FunctionDef, ast.ClassDef)) and (
            re.sub(r"_\d+$", "", node.name) in known
        )
        if not is_helper:
            break
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        helpers[node.name] = "".join(lines[start : node.end_lineno]).rstrip("\n") + "\n"
        end = node.end_lineno
    rest = "".join(lines[end:]).lstrip("\n")
    named = f"# copied here: {', '.join(helpers)} (see runtime_helpers.expected.py)"
    return f"{before}{MARK}\n{named}\n\n\n{rest}", helpers


def _all_helpers() -> dict[str, str]:
    """Every helper the cases copy, by name; one name is one text in every case."""
    found: dict[str, str] = {}
    for case in sorted(CASES):
        for name, text in split_helpers(_generated(case))[1].items():
            assert found.setdefault(name, text) == text, f"{case}: two texts of {name}"
    return dict(sorted(found.items()))


def _compare(path: Path, text: str, request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--update-golden"):
        path.write_text(text)
    if not path.exists():
        pytest.fail(
            f"{path.name} is missing: write it with `pytest tests/golden --update-golden` "
            "and review it"
        )
    assert text == path.read_text()


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_source_matches_golden(case, request):
    text, _ = split_helpers(_generated(case))
    _compare(HERE / f"{case}.expected.py", text, request)


def test_runtime_helpers_match_golden(request):
    helpers = _all_helpers()
    header = "# The runtime helpers the golden cases' generated modules copy, by name.\n"
    text = header + "import numpy as np\n\n\n" + "\n\n".join(helpers.values())
    _compare(HELPERS, text, request)


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_module_is_lint_clean(case, tmp_path):
    """An undefined or unused name in generated code is a transformer bug (the whole
    module, its helpers included)."""
    path = tmp_path / f"{case}.py"
    path.write_text(_generated(case))
    assert lint_problems(path) == ""


def test_missing_expected_file_fails(tmp_path, request, monkeypatch):
    monkeypatch.setattr(request.config, "getoption", lambda *args, **kwargs: False)
    with pytest.raises(pytest.fail.Exception, match="missing"):
        _compare(tmp_path / "absent.expected.py", "x = 1\n", request)
    assert not (tmp_path / "absent.expected.py").exists()


def test_helpers_are_split_off_whole():
    text = _generated("params_rnn")
    kept, helpers = split_helpers(text)
    assert "sum_to" in helpers and "def dloss(" in kept
    assert not any(f"\ndef {name}(" in kept for name in helpers)
    # nothing is lost: the kept text and the helpers hold the module's lines
    kept_lines = [line for line in kept.splitlines() if not line.startswith("# copied here")]
    parts = kept_lines + [line for h in helpers.values() for line in h.splitlines()]
    assert sorted(filter(None, parts)) == sorted(filter(None, text.splitlines()))


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
