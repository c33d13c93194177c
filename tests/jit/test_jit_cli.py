"""`tangentlike grad --jit`: a module numba compiles, standalone (the kernels copied in, no
tangentlike import), with the gradient under the entry's name; refusals are one-line
errors naming the line (numba absent: skipped)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from reference import BLOCK_TANGENTLIKE

from tangentlike.cli import main

pytest.importorskip("numba")

MODEL = """
import numpy as np


def logsumexp(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)


def uses_cumprod(x):
    return np.sum(np.cumprod(x))


def rows(y, a):
    M = np.zeros((4, 4)) + y
    total = 0.0
    for i in range(3):
        total = total + np.sum(np.sin(M[i + 1] * a))
    return total
"""


CHILD = (
    BLOCK_TANGENTLIKE
    + """
spec = importlib.util.spec_from_file_location("dlse", "dlse.py")
written = importlib.util.module_from_spec(spec)
spec.loader.exec_module(written)
x = np.array([0.5, 2.0, -1.0, 0.25])
g = written.dlogsumexp(x)
softmax = np.exp(x) / np.sum(np.exp(x))
print(json.dumps({"err": float(np.max(np.abs(g - softmax))), "type": type(g).__name__}))
"""
)


@pytest.fixture
def model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(MODEL)
    return tmp_path


def test_grad_jit_writes_a_standalone_compiled_module(model, capsys):
    assert main(["grad", "m.py:logsumexp", "--jit", "-o", "dlse.py"]) == 0
    text = (model / "dlse.py").read_text()
    assert "@numba.njit(cache=True)" in text
    assert "jit=on" in text and "--jit" in text  # the header says how it was made
    assert "def dlogsumexp(x, blogsumexp=1.0):" in text
    imports = [line for line in text.splitlines() if line.startswith(("import", "from"))]
    assert not any("tangentlike" in line for line in imports)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD)],
        cwd=model,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["type"] == "ndarray" and result["err"] < 1e-12
    assert list((model / "__pycache__").glob("dlse.*.nbi"))  # numba cached beside it


def test_grad_jit_refusal_is_one_located_line(model, capsys):
    status = main(["grad", "m.py:uses_cumprod", "--jit", "-o", "d.py"])
    err = capsys.readouterr().err
    assert status == 2
    assert "m.py:17" in err and "cumprod" in err
    assert not (model / "d.py").exists()


def test_grad_jit_refuses_checks(model, capsys):
    assert main(["grad", "m.py:logsumexp", "--jit", "--checks", "-o", "d.py"]) == 2
    assert "--jit" in capsys.readouterr().err
    assert main(["grad", "m.py:logsumexp", "--jit", "--mode", "hvp", "-o", "d.py"]) == 2
    assert "--jit" in capsys.readouterr().err


FORWARD_CHILD = (
    BLOCK_TANGENTLIKE
    + """
def load(name):
    spec = importlib.util.spec_from_file_location(name, name + ".py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

out = {}
x = np.array([0.5, 2.0, -1.0, 0.25])
t = np.array([1.0, 0.5, -0.3, 2.0])
out["lse"] = [float(v) for v in load("jlse").jvp_logsumexp(x, t)]
y = np.array([0.3, -0.7, 1.1, 0.5])
value, tangent = load("jrows").jvp_rows(y, 0.8, t)
out["rows"] = [float(value), float(tangent)]
try:
    load("jrows").jvp_rows(y, 0.8, t[:3])
except ValueError as err:
    out["refused"] = str(err)
print(json.dumps(out))
"""
)


def test_forward_jit_writes_a_standalone_compiled_jvp(model):
    """`--mode forward --jit`: the jvp compiled by numba, the caller's tangent checked in
    Python before the call, numba's versions of zero_tangent and tangent_as written in
    (they are called inside the compiled loop); imported where tangentlike is not, its
    tangents match central differences."""
    assert main(["grad", "m.py:logsumexp", "--mode", "forward", "--jit", "-o", "jlse.py"]) == 0
    assert main(["grad", "m.py:rows", "--mode", "forward", "--jit", "-o", "jrows.py"]) == 0
    text = (model / "jrows.py").read_text()
    assert "@numba.njit(cache=True)" in text and "mode=forward jit=on" in text
    assert "@overload(tangent_as)" in text and "@overload(zero_tangent)" in text
    assert "y, a, dy = _start_jvp_rows(y, a, dy)" in text
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(FORWARD_CHILD)],
        cwd=model,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    spec = importlib.util.spec_from_file_location("jit_cli_forward_model", model / "m.py")
    m = importlib.util.module_from_spec(spec)  # not in sys.modules: other tests' `m`
    spec.loader.exec_module(m)
    x, t = np.array([0.5, 2.0, -1.0, 0.25]), np.array([1.0, 0.5, -0.3, 2.0])
    y, h = np.array([0.3, -0.7, 1.1, 0.5]), 1e-6
    assert out["lse"][0] == pytest.approx(m.logsumexp(x), rel=1e-12)
    expected = (m.logsumexp(x + h * t) - m.logsumexp(x - h * t)) / (2 * h)
    assert out["lse"][1] == pytest.approx(expected, rel=1e-7)
    assert out["rows"][0] == pytest.approx(m.rows(y, 0.8), rel=1e-12)
    expected = (m.rows(y + h * t, 0.8) - m.rows(y - h * t, 0.8)) / (2 * h)
    assert out["rows"][1] == pytest.approx(expected, rel=1e-7)
    assert "the tangent of y has shape (3,)" in out["refused"]
