"""`tangentlike grad FILE:FUNC --mode hvp` writes a standalone HVP module: it imports
where tangentlike is not installed, and its hvp_FUNC(*args, v) is H v."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tangentlike as tl

ROOT = Path(__file__).resolve().parents[2]

MODEL = """
import numpy as np


def loss(w, X, y):
    z = X @ w
    total = 0.0
    for k in range(2):
        total = total + np.sum(np.logaddexp(0.0, z * (k + 1)) - y * z)
    return total + 0.5 * np.dot(w, w)


def pair(a, b):
    return np.sum(np.sin(a) * b) + np.sum(b ** 3)
"""

RUN = """
import json, sys
sys.modules["tangentlike"] = None  # not installed
sys.path.insert(0, sys.argv[1])
import numpy as np
import {module} as m
args = [np.array(a) for a in json.loads(sys.argv[2])]
v = {v}
print(json.dumps(np.asarray({call}).tolist()))
"""


def _write(tmp_path: Path, spec: str, out: str, *extra: str) -> Path:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "tangentlike", "grad", spec, "--mode", "hvp", "-o", out, *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / out


def _run(tmp_path: Path, module: str, args: list, v: str, call: str):
    code = RUN.format(module=module, v=v, call=call)
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), json.dumps(args)],
        capture_output=True,
        text=True,
        env={k: val for k, val in os.environ.items() if k != "PYTHONPATH"},
    )
    assert result.returncode == 0, result.stderr
    return np.array(json.loads(result.stdout))


@pytest.fixture
def model(tmp_path):
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL))
    sys.path.insert(0, str(tmp_path))
    try:
        import model as module

        yield module
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("model", None)


def test_written_hvp_module_runs_without_tangentlike(tmp_path, model):
    path = _write(tmp_path, "model.py:loss", "hloss.py")
    text = path.read_text()
    assert "def hvp_loss(w, X, y, v):" in text and "mode=hvp" in text
    rng = np.random.RandomState(0)
    w, X, y = rng.randn(3), rng.randn(5, 3), (rng.rand(5) > 0.5) * 1.0
    v = rng.randn(3)
    got = _run(
        tmp_path,
        "hloss",
        [w.tolist(), X.tolist(), y.tolist()],
        repr(v.tolist()),
        "m.hvp_loss(*args, np.array(v))",
    )
    assert np.allclose(got, tl.hvp(model.loss)(w, X, y, v))


def test_written_hvp_module_for_two_parameters(tmp_path, model):
    _write(tmp_path, "model.py:pair", "hpair.py", "--wrt", "a,b")
    rng = np.random.RandomState(1)
    a, b, va, vb = rng.randn(3), rng.randn(3), rng.randn(3), rng.randn(3)
    got = _run(
        tmp_path,
        "hpair",
        [a.tolist(), b.tolist()],
        f"({va.tolist()!r}, {vb.tolist()!r})",
        "m.hvp_pair(*args, (np.array(v[0]), np.array(v[1])))",
    )
    expected = tl.hvp(model.pair, wrt=(0, 1))(a, b, (va, vb))
    assert np.allclose(got[0], expected[0]) and np.allclose(got[1], expected[1])


def test_checkpoint_with_hvp_is_refused(tmp_path, model):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tangentlike",
            "grad",
            "model.py:loss",
            "--mode",
            "hvp",
            "--checkpoint",
            "every=2",
            "-o",
            "h.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode != 0 and "--checkpoint" in result.stderr
