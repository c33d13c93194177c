"""`wrt=(0,)` (a tuple of one) asks for a tuple of one derivative, in every mode and at
every order: the generated gradient itself returns the tuple (it was unwrapped there and
wrapped in Python), so that differentiating it again sees what the caller sees. Before,
hvp returned a bare value, its reverse method and hessian crashed."""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl


def f(a, b):
    return np.sum(a * a * b + np.sin(a))


A = np.array([0.3, -1.2, 0.8])
B = 2.5


def exact_hessian(a, b):
    return np.diag(2.0 * b - np.sin(a))


def test_gradients_of_a_tuple_of_one():
    (g,) = tl.grad(f, wrt=(0,))(A, B)
    np.testing.assert_allclose(g, 2 * A * B + np.cos(A))
    value, (g2,) = tl.value_and_grad(f, wrt=(0,))(A, B)
    assert value == pytest.approx(f(A, B)) and np.allclose(g2, g)
    (g3,) = tl.vjp(f, wrt=(0,))(A, B, 2.0)
    np.testing.assert_allclose(g3, 2.0 * g)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_a_tuple_of_one_is_a_tuple_of_one(method):
    v = np.array([1.0, -0.5, 2.0])
    got = tl.hvp(f, wrt=(0,), method=method)(A, B, (v,))
    assert isinstance(got, tuple) and len(got) == 1
    np.testing.assert_allclose(got[0], exact_hessian(A, B) @ v, rtol=1e-12)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hessian_of_a_tuple_of_one_is_one_block(method):
    H = tl.hessian(f, wrt=(0,), method=method)(A, B)
    assert isinstance(H, tuple) and len(H) == 1 and len(H[0]) == 1
    np.testing.assert_allclose(H[0][0], exact_hessian(A, B), rtol=1e-12, atol=1e-14)


def test_jvp_of_a_gradient_of_a_tuple_of_one_keeps_its_structure():
    dg = tl.grad(f, wrt=(0,))
    t = np.array([0.2, 0.1, -0.4])
    value, tangent = tl.jvp(dg, wrt=0)(A, B, t)
    assert isinstance(value, tuple) and isinstance(tangent, tuple) and len(tangent) == 1
    np.testing.assert_allclose(tangent[0], exact_hessian(A, B) @ t, rtol=1e-12)
