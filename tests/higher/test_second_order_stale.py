"""Nothing stale one level up: a forward-mode derivative of a gradient (`tl.jvp(g)`,
`tl.jacobian(g, mode="forward")`, the forward `tl.hessian`) is built from the code the
gradient runs now. A gradient whose callee changed since its last call is rebuilt before
its generated code is differentiated again, not after (hold-out 12: the Hessian of the
helper before the change, with no error)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

MODULE = """
import numpy as np


def helper(x):
    return x ** 2


def f(x):
    return np.sum(helper(x))
"""


def cube(x):
    return x**3


def exp(x):
    return np.exp(x)


def sin(x):
    return np.sin(x)


X = np.array([0.3, 0.7])
V = np.array([1.0, -0.5])
# the Hessian of f, diagonal, for each helper
DIAGONALS = [
    (cube, lambda x: 6 * x),
    (exp, np.exp),
    (sin, lambda x: -np.sin(x)),
    (cube, lambda x: 6 * x),
]


@pytest.mark.parametrize("way", ["jvp", "jacobian"])
def test_forward_derivative_of_a_gradient_gone_stale_before_it_is_built(tmp_path, way):
    m = load_module(tmp_path, MODULE)
    g = tl.grad(m.f)
    np.testing.assert_allclose(g(X), 2 * X)
    m.helper = cube  # g has not run since: what it would run now is the cube's gradient
    got = tl.jvp(g)(X, V)[1] if way == "jvp" else tl.jacobian(g, mode="forward")(X) @ V
    np.testing.assert_allclose(got, 6 * X * V)


@pytest.mark.parametrize("method", ["auto", "forward", "reverse"])
def test_held_hessian_follows_every_change_of_a_callee(tmp_path, method):
    m = load_module(tmp_path, MODULE)
    H = tl.hessian(m.f, method=method)
    np.testing.assert_allclose(H(X), 2 * np.eye(2))
    for helper, diagonal in DIAGONALS:
        m.helper = helper
        np.testing.assert_allclose(H(X), np.diag(diagonal(X)))


def test_held_forward_jacobian_of_a_gradient_follows_every_change(tmp_path):
    m = load_module(tmp_path, MODULE)
    J = tl.jacobian(tl.grad(m.f), mode="forward")
    np.testing.assert_allclose(J(X), 2 * np.eye(2))
    for helper, diagonal in DIAGONALS:
        m.helper = helper
        np.testing.assert_allclose(J(X), np.diag(diagonal(X)))
