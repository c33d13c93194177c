"""A batch run counts every program once, writes reproductions, and never fails itself."""

from __future__ import annotations

import json
from pathlib import Path

from .runner import run


def refuse_nothing_crash_always(f, wrt):
    raise KeyError("broken on purpose")


def test_a_batch_writes_counts_and_reproductions(tmp_path: Path):
    summary = run(8, seed=0, out=tmp_path, shrink_each=1, shrink_seconds=5,
                  differentiate=refuse_nothing_crash_always)  # fmt: skip
    counts = summary.counts
    assert counts["programs"] == 8
    assert counts["crash"] + counts["skipped"] == 8 and counts["crash"] >= 6
    assert len(list(tmp_path.glob("crash-s0-p*.py"))) == counts["crash"]
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["counts"]["crash"] == counts["crash"]
    assert "crash: KeyError" in next(iter(data["failure_kinds"]))
    assert summary.construct_table().startswith("construct")


def test_a_batch_with_tangentlike_runs_to_the_end():
    summary = run(12, seed=1, shrink_each=0)
    assert summary.counts["programs"] == 12
    assert not [r for r in summary.skips if r.startswith("tester error")], summary.skips
