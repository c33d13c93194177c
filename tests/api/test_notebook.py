"""Ordinary notebook use, in a real IPython shell: cells redefine a constant, a helper,
a class and the function itself; every gradient computes the function as it runs now."""

from __future__ import annotations

import numpy as np
import pytest

interactiveshell = pytest.importorskip("IPython.core.interactiveshell")

CELLS = [
    """
import numpy as np
import tangentlike as tl

COEF = 2.0

def helper(x):
    return np.sin(x) * COEF

class Model:
    def forward(self, x):
        return np.tanh(x) * 2.0

model = Model()

def f(x):
    return helper(x) * x + model.forward(x)

df = tl.grad(f)
results = [df(0.3)]
""",
    "COEF = 5.0\nresults.append(df(0.3))",
    "def helper(x):\n    return np.cos(x) * COEF\nresults.append(df(0.3))",
    """
class Model:
    def forward(self, x):
        return np.exp(x)

model = Model()
results.append(df(0.3))
""",
    "def f(x):\n    return helper(x) * x * x\nresults.append((df(0.3), tl.grad(f)(0.3)))",
]


def expected(x=0.3):
    def tanh2(x):
        return 2.0 * (1 - np.tanh(x) ** 2)

    return [
        (np.cos(x) * x + np.sin(x)) * 2.0 + tanh2(x),
        (np.cos(x) * x + np.sin(x)) * 5.0 + tanh2(x),
        (-np.sin(x) * x + np.cos(x)) * 5.0 + tanh2(x),
        (-np.sin(x) * x + np.cos(x)) * 5.0 + np.exp(x),
        (
            (-np.sin(x) * x + np.cos(x)) * 5.0 + np.exp(x),
            (-np.sin(x) * x + 2 * np.cos(x)) * 5.0 * x,
        ),
    ]


def test_cells_redefining_what_a_gradient_uses(tmp_path, monkeypatch):
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path))
    shell = interactiveshell.InteractiveShell()
    for cell in CELLS:
        result = shell.run_cell(cell)
        assert result.success, result.error_in_exec or result.error_before_exec
    got = shell.user_ns["results"]
    want = expected()
    assert np.allclose(got[:4], want[:4])
    assert np.allclose(got[4], want[4])
