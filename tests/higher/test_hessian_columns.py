"""tl.hessian by columns (method "reverse": one HVP per basis vector) of a function that
changes its argument in place: every product is taken at the point the caller passed
(the ones before the last on copies), and the caller's array is changed once, as by f.
Against autograd on a twin written out of place, and against the forward method."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import tangentlike as tl


def f_doubles_its_argument(x):
    x *= 2.0
    return np.sum(x**3) + x[0] * x[1]


def twin(x):
    x = x * 2.0
    return anp.sum(x**3) + x[0] * x[1]


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hessian_of_a_function_changing_its_argument(method):
    x = np.array([0.5, 1.0, -2.0])
    given, changed = x.copy(), x.copy()
    H = tl.hessian(f_doubles_its_argument, method=method)(given)
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-12, atol=1e-12)
    f_doubles_its_argument(changed)
    assert np.array_equal(given, changed)


def test_hessian_of_two_arguments_one_changed_in_place():
    def f(x, y):
        x *= 2.0
        return np.sum(x**2 * y) + np.sum(y**3)

    def g(x, y):
        return anp.sum((x * 2.0) ** 2 * y) + anp.sum(y**3)

    x, y = np.array([0.5, -1.0]), np.array([1.5, 0.25])
    given = x.copy()
    blocks = tl.hessian(f, wrt=(0, 1), method="reverse")(given, y)
    expected = [[autograd.jacobian(autograd.grad(g, i), j)(x, y) for j in (0, 1)] for i in (0, 1)]
    for i in (0, 1):
        for j in (0, 1):
            assert np.allclose(blocks[i][j], expected[i][j], rtol=1e-12, atol=1e-12)
    assert np.array_equal(given, 2.0 * x)
