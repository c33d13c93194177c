"""Third order through np.tensordot, np.kron, np.inner, np.cross and np.einsum: the
second derivative's reverse forms call tensordot_vjp_vjp, kron_vjp_vjp, inner_vjp_vjp,
cross_vjp_vjp and einsum_vjp_vjp, which were refused ("has no second-order rule yet")
when differentiated again; they are multilinear NumPy, read through their source now
(rules/runtime_sources.py; einsum_vjp_vjp spelled out per number of operands).
Against central differences of tangentlike's second derivative and autograd's third:
tl.grad three times of a function of a scalar, and the Hessian-vector product of a
gradient's projection (the third-derivative tensor contracted twice) on arrays."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

A = np.array([0.3, -1.2, 0.8])
B = np.array([[0.5, 1.0, 0.2], [-0.2, 0.7, 0.1]])
C = np.array([[0.4, -0.3], [1.1, 0.6], [-0.5, 0.9]])


def f_tensordot(t):
    M = B * t
    return np.sum(np.tensordot(M, np.sin(C * t), 1) ** 2)


def f_kron(t):
    return np.sum(np.kron(B * t, np.cos(A * t)) ** 2)


def f_inner(t):
    a = A * t
    return np.inner(a, np.sin(a) + B * t) @ np.ones(2)


def f_cross(t):
    r = A * t + 1.0
    return np.sum(np.cross(r, np.sin(r)) ** 2)


def f_einsum(t):
    M = B * t
    return np.sum(np.einsum("ij,jk,k->i", M, np.sin(C * t), A[:2]) ** 2)


def f_einsum_one(t):
    M = np.outer(A, A) * t + np.eye(3)
    return np.sum(np.einsum("ij->j", np.sin(M) * M) ** 3)


def f_einsum_four(t):
    M = B * t
    return np.einsum("ij,jk,kl,l->", M, np.sin(C * t), B, np.cos(A * t)) ** 2


def g_tensordot(x):
    M = np.reshape(x, (2, 3))
    return np.sum(np.tensordot(M, np.sin(M.T), 1) ** 2)


def g_kron(x):
    return np.sum(np.kron(x, np.cos(x[:2])) ** 2)


def g_inner(x):
    return np.inner(x, np.sin(x)) ** 2


def g_cross(x):
    r = np.reshape(x, (2, 3))
    return np.sum(np.cross(r, np.sin(r) + A) ** 2)


def g_einsum(x):
    M = np.reshape(x, (2, 3))
    return np.sum(np.einsum("ij,jk,kl->il", M, C, np.sin(M)) ** 2)


def projection_of(gradient, w):
    def phi(x):
        return np.sum(gradient(x) * w)

    return phi
"""

SCALARS = [
    "f_tensordot",
    "f_kron",
    "f_inner",
    "f_cross",
    "f_einsum",
    "f_einsum_one",
    "f_einsum_four",
]
ARRAYS = ["g_tensordot", "g_kron", "g_inner", "g_cross", "g_einsum"]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("third_products"), SOURCE, name="tl_third_products")


@pytest.mark.parametrize("case", SCALARS)
def test_third_derivative(m, case):
    f, t, eps = getattr(m, case), 0.7, 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))(t)
    assert np.isclose(third, (second(t + eps) - second(t - eps)) / (2 * eps), rtol=1e-6)
    expected = autograd.grad(autograd.grad(autograd.grad(autograd_version(f))))(t)
    assert np.isclose(third, expected, rtol=1e-9)


@pytest.mark.parametrize("case", ARRAYS)
def test_hvp_of_a_gradients_projection(m, case):
    """phi(x) = <grad f(x), w>: its Hessian-vector product is the third derivative of f
    along w and v (phi calls a gradient: its differentiable form, read again)."""
    f = getattr(m, case)
    rng = np.random.default_rng(5)
    x, v, w = rng.standard_normal(6), rng.standard_normal(6), rng.standard_normal(6)
    phi = m.projection_of(tl.grad(f), w)
    got = tl.hvp(phi)(x, v)
    g2 = tl.grad(phi)
    eps = 1e-5
    np.testing.assert_allclose(got, (g2(x + eps * v) - g2(x - eps * v)) / (2 * eps), rtol=1e-6)
    reference = m.projection_of(autograd.grad(autograd_version(f)), w)
    expected = autograd.hessian_vector_product(reference)(x, v)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("case", ["f_kron", "f_inner"])
def test_fourth_derivative(m, case):
    """The through-source derivatives call the helpers' own rules again. (np.tensordot's,
    np.cross's and np.einsum's fourth derivatives are refused, located: their axes and
    subscripts, passed on by the third-order code, are taken for differentiated values
    there.)"""
    f, t, eps = getattr(m, case), 0.7, 1e-5
    third = tl.grad(tl.grad(tl.grad(f)))
    fourth = tl.grad(tl.grad(tl.grad(tl.grad(f))))(t)
    assert np.isclose(fourth, (third(t + eps) - third(t - eps)) / (2 * eps), rtol=1e-6)
    expected = autograd.grad(autograd.grad(autograd.grad(autograd.grad(autograd_version(f)))))(t)
    assert np.isclose(fourth, expected, rtol=1e-9)
