"""`tangentlike grad --jit`: a module numba compiles, standalone (the kernels copied in, no
tangentlike import), with the gradient under the entry's name; refusals are one-line
errors naming the line (numba absent: skipped)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

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
"""

CHILD = """
import importlib.abc, importlib.util, json, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "tangentlike" or name.startswith("tangentlike."):
            raise ImportError("tangentlike is blocked in this test")

sys.meta_path.insert(0, Block())
sys.modules["tangentlike"] = None
import numpy as np

spec = importlib.util.spec_from_file_location("dlse", "dlse.py")
written = importlib.util.module_from_spec(spec)
spec.loader.exec_module(written)
x = np.array([0.5, 2.0, -1.0, 0.25])
g = written.dlogsumexp(x)
softmax = np.exp(x) / np.sum(np.exp(x))
print(json.dumps({"err": float(np.max(np.abs(g - softmax))), "type": type(g).__name__}))
"""


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
