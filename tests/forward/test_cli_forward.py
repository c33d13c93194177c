"""`tangentlike grad FILE:FUNC --mode forward` writes a standalone jvp module; `show`
prints it; `check --mode forward` checks forward mode against central differences."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tangentlike.cli import main

MODEL = """\
import numpy as np


def helper(v, w):
    return np.tanh(v * w)


def field(x, A):
    h = A @ x
    for _ in range(3):
        h = helper(h, 0.9) + h * 0.1
    return h, {"norm": np.sum(h * h)}


def loss(x, A):
    return np.sum(field(x, A)[0])
"""


@pytest.fixture
def model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(MODEL)
    return tmp_path


def test_forward_module_is_standalone_and_right(model, capsys):
    assert main(["grad", "m.py:field", "--wrt", "x", "--mode", "forward", "-o", "jf.py"]) == 0
    assert "forward of m.py:field" in capsys.readouterr().out
    text = (model / "jf.py").read_text()
    assert "mode=forward" in text and "def jvp_field(" in text
    code = textwrap.dedent(
        """
        import builtins, json, sys
        real_import = builtins.__import__
        def guarded(name, *args, **kwargs):
            if name.startswith("tangentlike"):
                raise ImportError("tangentlike is not installed here")
            return real_import(name, *args, **kwargs)
        builtins.__import__ = guarded
        import numpy as np
        import jf, m
        rng = np.random.RandomState(0)
        x, A, t = rng.randn(3), rng.randn(4, 3), rng.randn(3)
        (value, extra), (tangent, dextra) = jf.jvp_field(x, A, t)
        up, down = m.field(x + 1e-6 * t, A), m.field(x - 1e-6 * t, A)
        fd = (up[0] - down[0]) / 2e-6
        fd_norm = (up[1]["norm"] - down[1]["norm"]) / 2e-6
        loaded = [k for k in sys.modules if k.startswith("tangentlike")]
        print(json.dumps({"err": float(np.max(np.abs(tangent - fd))),
                          "err_norm": abs(dextra["norm"] - fd_norm), "loaded": loaded}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=model, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["loaded"] == [] and result["err"] < 1e-7 and result["err_norm"] < 1e-6


def test_show_prints_the_forward_source(model, capsys):
    assert main(["show", "m.py:field", "--mode", "forward", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "def _jvp_helper(v, w, *, dv):" in out and "dh = " in out


def test_check_in_forward_mode(model, capsys):
    status = main(
        ["check", "m.py:loss", "--wrt", "x,A", "--inputs", "x=3,A=4x3", "--mode", "forward"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "jvp (forward mode)" in out and "OK" in out


def test_forward_mode_takes_no_checkpoint(model, capsys):
    status = main(
        ["grad", "m.py:field", "--mode", "forward", "--checkpoint", "snapshots=2", "-o", "j.py"]
    )
    assert status == 2 and "--mode forward" in capsys.readouterr().err
