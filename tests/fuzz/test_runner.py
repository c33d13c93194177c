"""A batch run counts every program once, writes reproductions, and never fails itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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


def test_the_command_line_prints_counts_and_writes_a_summary(tmp_path: Path):
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "tests.fuzz", "--n", "3", "--seed", "0", "--shrink", "0"]
    run_ = subprocess.run(
        [*command, "--mask", "all", "--out", str(tmp_path)],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run_.returncode == 0, run_.stderr
    assert "programs 3, ok" in run_.stdout
    assert (tmp_path / "summary.json").exists()
    bad = subprocess.run(
        [*command, "--mask", "nope"], cwd=root, env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "unknown mask" in bad.stderr
