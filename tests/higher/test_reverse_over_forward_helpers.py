"""Reverse over forward through forward mode's own helpers: tl.grad of a function calling
a generated jvp differentiates that jvp's code, which calls fresh_tangent (a tangent the
jvp writes into in place: here an argument the function writes into) and
concatenated_tangent (np.r_, np.c_); both were refused ("has no second-order rule yet").
Their rules (rules/runtime_jvp.py), and concatenated_vjp's (the Hessian-vector product of
such a function: a third order), against autograd on the same maths written out of place
(autograd has neither in-place writes nor np.r_ of its arrays) and against central
differences."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_on_copies, fresh_copies, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def r_joined(x):
    return np.sum(np.r_[x, 0.5, x * x] ** 3) + np.sum(np.r_[np.sin(x), 0:2] * x[0])


def r_joined_plain(x):
    joined = np.concatenate([x, np.array([0.5]), x * x])
    return np.sum(joined**3) + np.sum(np.concatenate([np.sin(x), np.arange(2.0)]) * x[0])


def c_joined(x):
    return np.sum(np.c_[x, np.cos(x)] ** 3)


def c_joined_plain(x):
    return np.sum(np.stack([x, np.cos(x)], axis=1) ** 3)


def written(x):
    x[0] = x[1] * x[2]
    return np.sum(x**3)


def written_plain(x):
    return (x[1] * x[2]) ** 3 + np.sum(x[1:] ** 3)


def projected(jf, v, w):
    def phi(x):
        return np.sum(jf(x, v)[1] * w)

    return phi


def directional(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

PAIRS = [("r_joined", "r_joined_plain"), ("c_joined", "c_joined_plain")]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rof_helpers"), SOURCE, name="tl_rof_helpers")


def _points():
    rng = np.random.default_rng(8)
    return rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal(3)


@pytest.mark.parametrize("name,plain", PAIRS)
def test_grad_of_jvp_through_concatenators(m, name, plain):
    """phi(x) = <J(x) v, 1> = grad f(x) . v for scalar f: its gradient is H(x) v."""
    x, v, _ = _points()
    phi = m.projected(tl.jvp(getattr(m, name)), v, 1.0)
    got = tl.grad(phi)(x)
    expected = autograd.hessian_vector_product(autograd_version(getattr(m, plain)))(x, v)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    np.testing.assert_allclose(got, fd_on_copies(phi, [x], 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name,plain", PAIRS)
def test_hvp_of_a_jvp_through_concatenators(m, name, plain):
    """The Hessian-vector product of phi(x) = <grad f(x), v>: the third derivative of f
    along v and u; the reverse sweep of phi's gradient calls concatenated_vjp."""
    x, v, u = _points()
    phi = m.projected(tl.jvp(getattr(m, name)), v, 1.0)
    got = tl.hvp(phi)(x, u)
    gradient, eps = tl.grad(phi), 1e-5
    np.testing.assert_allclose(
        got, (gradient(x + eps * u) - gradient(x - eps * u)) / (2 * eps), rtol=1e-6, atol=1e-8
    )
    plain = autograd_version(getattr(m, plain))

    def reference(y):
        return np.dot(autograd.grad(plain)(y), v)

    expected = autograd.hessian_vector_product(reference)(x, u)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


def test_grad_of_jvp_of_a_function_writing_into_its_argument(m):
    """written's jvp copies the caller's tangent (fresh_tangent) before writing into it;
    phi writes into the x it is given too, so every reference call gets fresh copies."""
    x, v, _ = _points()
    phi = m.projected(tl.jvp(m.written), v, 1.0)
    got = tl.grad(phi)(*fresh_copies([x]))
    expected = autograd.hessian_vector_product(autograd_version(m.written_plain))(x, v)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    np.testing.assert_allclose(got, fd_on_copies(phi, [x], 0), rtol=1e-6, atol=1e-8)


def test_grad_of_jvp_in_its_direction_through_a_written_argument(m):
    """Differentiated in v, phi(x, v) = grad f(x) . v gives grad f(x): the adjoint flows
    through the tangent's copy (fresh_tangent) to the direction."""
    x, v, _ = _points()
    phi = m.directional(tl.jvp(m.written))
    got = tl.grad(phi, wrt=1)(*fresh_copies([x, v]))
    expected = autograd.grad(autograd_version(m.written_plain))(x)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    np.testing.assert_allclose(got, fd_on_copies(phi, [x, v], 1), rtol=1e-6, atol=1e-8)
