"""`a, *rest = t` and `*init, z = t`: normalize/desugar.py lowers a starred target to
an index per plain target and a slice (as a list) for the starred one, which the
transform differentiates like any subscript. `coef, *_ = np.linalg.lstsq(...)` is the
common case."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module
from stages import code, prepare

import tangentlike as tl


def test_a_starred_target_becomes_a_slice(tmp_path):
    source = "def f(x, y):\n    a, *b, c = x\n    return a + c\n"
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        _tuple1 = x
        a = _tuple1[0]
        b = list(_tuple1[1:-1])
        c = _tuple1[-1]
        return a + c
        """
    )


SOURCE = """
import numpy as np


def first_and_rest(x, y):
    first, *rest = [x * y, x ** 2, np.sin(x)]
    return np.sum(first) + np.sum(rest[1] * rest[0])


def init_and_last(x, y):
    *init, last = (x, x * y, np.cos(y))
    return np.sum(init[1] * last) + np.sum(init[0])


def middle(x, y):
    a, *mid, z = [x, y * x, x * x, y]
    return np.sum(a * z) + np.sum(mid[0] * mid[1])


def star_in_a_loop(x, y):
    total = 0.0
    for a, *rest in [(x, y, x * y), (y, x, x)]:
        total = total + np.sum(a * rest[1])
    return total


def rows_of_an_array(x, y):
    a, *rest = x * y
    *init, last = x
    return np.sum(a * rest[0]) + np.sum(rest[-1] ** 2) + np.sum(init[1] * last)


def least_squares(x, y):
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    return np.sum(coef ** 2)
"""

NAMES = [
    "first_and_rest",
    "init_and_last",
    "middle",
    "star_in_a_loop",
    "rows_of_an_array",
    "least_squares",
]


@pytest.mark.parametrize("name", NAMES)
def test_starred_targets_are_differentiated(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE), name)
    rng = np.random.RandomState(3)
    args = [rng.standard_normal((4, 3)), rng.standard_normal((4, 3))]
    if name == "least_squares":
        args[1] = args[1][:, 0]
    grads = tl.grad(f, wrt=(0, 1))(*args)
    for i, g in enumerate(grads):
        check_against_fd(f, g, args, i)
        if name != "least_squares":  # autograd has no lstsq gradient
            np.testing.assert_allclose(g, autograd_grad(f, args, i), rtol=1e-7, atol=1e-10)
    t = [rng.standard_normal(a.shape) for a in args]
    _, jt = tl.jvp(f, wrt=(0, 1))(*args, tuple(t))
    eps = 1e-6
    up = f(*[a + eps * d for a, d in zip(args, t, strict=True)])
    down = f(*[a - eps * d for a, d in zip(args, t, strict=True)])
    assert np.isclose(jt, (up - down) / (2 * eps), rtol=1e-6, atol=1e-8)
