"""docs/higher.md is generated (scripts/higher_docs.py) and current; golden files of
generated HVP source: changes to generated second-order code must be deliberate
(`pytest tests/higher --update-golden` rewrites them; review the diff)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from corpus.second_order import CASES
from reference import lint_problems

import tangentlike as tl

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"


def _script():
    path = ROOT / "scripts" / "higher_docs.py"
    spec = importlib.util.spec_from_file_location("tl_higher_docs", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["tl_higher_docs"] = module
    spec.loader.exec_module(module)
    return module


def test_higher_md_is_current():
    script = _script()
    assert script.OUTPUT.read_text() == script.render(), "run: python scripts/higher_docs.py"


GOLDEN_CASES = {
    "hvp_forward_logistic": ("logistic", "forward"),
    "hvp_reverse_logistic": ("logistic", "reverse"),
    "hvp_forward_loop": ("loop", "forward"),
    "hvp_reverse_calls_helper": ("calls_helper", "reverse"),
}


@pytest.mark.parametrize("case", sorted(GOLDEN_CASES))
def test_hvp_source_matches_golden(case, request):
    name, method = GOLDEN_CASES[case]
    text = tl.hvp(CASES[name][0], method=method, checks=False).source
    expected = GOLDEN / f"{case}.expected.py"
    if request.config.getoption("--update-golden") or not expected.exists():
        expected.write_text(text)
    assert text == expected.read_text()


@pytest.mark.parametrize("case", sorted(GOLDEN_CASES))
def test_hvp_golden_is_lint_clean(case):
    """An undefined or unused name in generated code is a transformer bug."""
    assert lint_problems(GOLDEN / f"{case}.expected.py") == ""
