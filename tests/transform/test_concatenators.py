"""`np.r_[...]` and `np.c_[...]`: each item gets its piece of the result's adjoint.

Items are arrays of any rank, scalars, lists and constant slices (ranges); the result
is weighted by a random w, and both arguments' gradients are checked against central
differences and autograd (whose numpy wrapper has r_ and c_).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

S = ()
# (expression in x and y, shape of x, shape of y)
CASES = [
    ("np.r_[x, y]", (3,), (2,)),
    ("np.r_[x, 0:3, y]", (3,), (2,)),
    ("np.r_[0:4:2, x, -1:1]", (3,), (2,)),
    ("np.r_[x]", (3,), (2,)),
    ("np.r_[x, 1.5, y * 2.0]", (3,), S),
    ("np.r_[x, y]", S, S),
    ("np.r_[x, x, y]", (3,), S),
    ("np.r_[x, y]", (2, 3), (1, 3)),
    ("np.r_[[x, y], x]", S, S),
    ("np.r_[x, np.array([1.0, 2.0])]", (3,), (2,)),
    ("np.r_[np.sin(x), np.exp(y)] ** 2", (3,), (2,)),
    ("np.c_[x, y]", (3,), (3,)),
    ("np.c_[x, y]", (3, 2), (3,)),
    ("np.c_[x, 0:3]", (3,), (2,)),
    ("np.c_[x, y]", (2, 3, 2), (2, 3, 1)),
    ("np.c_[x, [1.0, 2.0, 3.0], y]", (3,), (3, 2)),
    ("np.c_[x]", (3,), (2,)),
    ("np.c_[x, y]", S, S),
]


def _ids(case):
    expr, sx, sy = case
    return f"{expr}[{'x'.join(map(str, sx)) or 's'},{'x'.join(map(str, sy)) or 's'}]"


@pytest.mark.parametrize(("expr", "sx", "sy"), CASES, ids=[_ids(c) for c in CASES])
def test_items_get_their_pieces(tmp_path, expr, sx, sy):
    module = load_module(
        tmp_path,
        f"import numpy as np\n\n\ndef f(x, y, w):\n    r = {expr}\n    return np.sum(r * w)\n",
    )
    rng = np.random.RandomState(0)
    x = rng.standard_normal(sx) if sx else 0.3
    y = rng.standard_normal(sy) if sy else -0.8
    w = rng.standard_normal(np.shape(eval(expr, {"np": np, "x": x, "y": y})))
    grads = tl.grad(module.f, wrt=(0, 1))(x, y, w)
    for i, g in enumerate(grads):
        assert np.shape(g) == np.shape((x, y)[i])
        np.testing.assert_allclose(g, fd_gradient(module.f, [x, y, w], i), rtol=1e-6, atol=1e-8)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # autograd: "r_ is slow for array inputs"
            expected = autograd_grad(module.f, [x, y, w], i)
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)


def test_the_forward_sweep_keeps_the_subscript(tmp_path):
    module = load_module(
        tmp_path, "import numpy as np\n\n\ndef f(x):\n    return np.sum(np.r_[x, 0:3] ** 2)\n"
    )
    source = tl.grad(module.f).source
    assert "np.r_[x, 0:3]" in source
    assert "unconcatenate_index(" in source


def test_a_loop_of_concatenations(tmp_path):
    module = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef f(x):\n    t = x[:1] * 1.0\n    for i in range(3):\n"
        "        t = np.r_[t, np.sin(t[-1:]) * x[i]]\n    return np.sum(t ** 2)\n",
    )
    x = np.array([0.3, -0.7, 1.1])
    g = tl.grad(module.f)(x)
    np.testing.assert_allclose(g, fd_gradient(module.f, [x], 0), rtol=1e-6, atol=1e-8)


WRITTEN = """
import numpy as np


def first_scaled(x):
    y = np.r_[x, 1.0]
    y[0] = y[0] * 3.0
    return np.sum(y * y)


def column_zeroed(x):
    y = np.c_[x, x]
    y[:, 0] = 0.0
    return np.sum(y * x[:, None])


def through_an_alias(x):
    y = np.r_[x[0:1], x[1:]]
    z = y
    z[1:] *= x[0]
    return np.sum(y * y)
"""


@pytest.mark.parametrize("name", ["first_scaled", "column_zeroed", "through_an_alias"])
def test_a_concatenation_is_a_new_array_to_write_into(tmp_path, name):
    """np.r_/np.c_ make a new array (never the global np.r_, never a list): writes into
    it are in-place updates of a local array, checked against central differences and
    the jvp along each axis; the argument is left alone."""
    f = getattr(load_module(tmp_path, WRITTEN), name)
    x = np.array([0.5, -1.0, 2.0])
    before = x.copy()
    g = tl.grad(f)(x)
    np.testing.assert_allclose(g, fd_gradient(f, [x], 0), rtol=1e-6, atol=1e-8)
    for k, t in enumerate(np.eye(3)):
        np.testing.assert_allclose(tl.jvp(f)(x, t)[1], g[k], rtol=1e-10)
    np.testing.assert_array_equal(x, before)
