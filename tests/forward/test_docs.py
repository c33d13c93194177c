"""docs/forward.md shows exactly the source the tool generates now."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def test_forward_docs_are_current():
    path = Path(__file__).resolve().parents[2] / "scripts" / "forward_docs.py"
    spec = importlib.util.spec_from_file_location("tl_forward_docs", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.OUTPUT.read_text() == script.render(), "run: python scripts/forward_docs.py"
    assert "def jvp_squash(x, A, dx):" in script.OUTPUT.read_text()
