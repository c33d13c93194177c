"""The tangent of a broadcasting sum with a constant operand is shaped like the result:
`M = np.zeros((4, 4)) + y` has tangent dy broadcast to (4, 4), so that a part read by
index (`M[1]`, a row equal to y) has the row's tangent. It was y's own tangent before,
and `M[1]`'s tangent was dy[1]: jvp returned a SILENTLY WRONG tangent (0.0 for 0.6)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import directional_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def row_of_sum(y):
    M = np.zeros((4, 4)) + y
    r = M[1]
    return np.sum(r * r)


def row_of_difference(y):
    M = y - np.ones((3, 4))
    return np.sum(np.sin(M[2]) * M[0])


def negated_column(y, w):
    M = -(w * 0.0 + y[:, None])
    return np.sum(M[:, 1] ** 2) * w[0, 0]
"""

Y = np.array([0.3, -0.7, 1.1, 0.5])
CASES = [
    ("row_of_sum", (Y,), 0),
    ("row_of_difference", (Y,), 0),
    ("negated_column", (Y, np.ones((4, 3)) * 0.5), 0),
]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("broadcast_sum"), SOURCE)


@pytest.mark.parametrize(("name", "args", "i"), CASES, ids=[c[0] for c in CASES])
def test_jvp_of_a_part_of_a_broadcast_sum(m, name, args, i):
    f = getattr(m, name)
    t = np.random.default_rng(1).standard_normal(np.shape(args[i]))
    value, tangent = tl.jvp(f, wrt=i)(*args, t)
    assert value == pytest.approx(f(*args))
    expected = directional_fd(f, list(args), i, t)
    assert tangent == pytest.approx(expected, rel=1e-6, abs=1e-8)
    assert tangent == pytest.approx(float(np.sum(tl.grad(f, wrt=i)(*args) * t)), rel=1e-10)


@pytest.mark.parametrize(("name", "args", "i"), CASES, ids=[c[0] for c in CASES])
def test_vector_mode_of_a_part_of_a_broadcast_sum(m, name, args, i):
    """Vector mode (many directions at once, directions first) shapes the tangent like
    the result too (runtime.forward.tangent_as_k): it raised an IndexError before."""
    f = getattr(m, name)
    forward = tl.jacobian(f, wrt=i, mode="forward")(*args)
    np.testing.assert_allclose(forward, tl.grad(f, wrt=i)(*args), rtol=1e-10, atol=1e-12)
    for t in np.random.default_rng(2).standard_normal((3, *np.shape(args[i]))):
        expected = directional_fd(f, list(args), i, t)
        assert float(np.sum(forward * t)) == pytest.approx(expected, rel=1e-6, abs=1e-8)


def test_hessian_through_a_part_of_a_broadcast_sum(m):
    """The Hessian (vector forward over reverse) of a function reading parts of a
    broadcast sum, against autograd."""
    autograd = pytest.importorskip("autograd")

    def g(y):
        M = np.zeros((4, 4)) + y
        return np.sum(M[1] * np.sin(M[2]))

    def g_autograd(y):
        anp = autograd.numpy
        M = anp.zeros((4, 4)) + y
        return anp.sum(M[1] * anp.sin(M[2]))

    np.testing.assert_allclose(tl.hessian(g)(Y), autograd.hessian(g_autograd)(Y), rtol=1e-10)
