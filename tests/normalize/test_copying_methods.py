"""`x.flatten()` is a copy of x, never a view (np.ravel alone may be one): an update of
the result in place leaves x as it was, in the value and in the gradient."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def updated(x):
    y = x.flatten()
    y *= 2.0
    return np.sum(x.ravel() * x.ravel() * y)


def fortran(x):
    y = x.flatten("F")
    y[0] = 0.0
    return np.sum(np.sin(x) * y.reshape(x.shape, order="F"))


def in_loop(x):
    total = 0.0
    for k in range(3):
        y = x.flatten()
        y += k
        total = total + np.sum(y * x.ravel())
    return total
"""

TWINS = {  # out of place, for autograd
    "updated": lambda x: (2.0 * x**3).sum(),
    "fortran": lambda x: (np.sin(x) * x).sum() - np.sin(x[0, 0]) * x[0, 0],
    "in_loop": lambda x: sum(((x + k) * x).sum() for k in range(3)),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_flatten_is_a_copy_in_value_and_gradient(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE, f"flat_{name}"), name)
    x = np.array([[0.5, -1.2], [0.3, 2.0]])
    expected = TWINS[name](x)
    assert f(x.copy()) == pytest.approx(expected)
    for checks in (False, True):  # the build specialised to x; debug mode's generic one
        value, g = tl.value_and_grad(f, checks=checks)(x.copy())
        assert value == pytest.approx(expected, rel=1e-12), checks
        np.testing.assert_allclose(g, autograd_grad(TWINS[name], (x,), 0), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(f, (x.copy(),), 0), rtol=1e-6, atol=1e-8)
    t = np.array([[1.0, 0.5], [-0.3, 0.2]])
    _, tangent = tl.jvp(f)(x.copy(), t)
    assert tangent == pytest.approx(np.sum(g * t), rel=1e-10)
