"""Reverse over forward through forward mode's helpers of casts, np.einsum, np.cumprod and
loops over zips (cast_tangent, einsum_of, cumprod_jvp, iterable_tangent), and through
math.prod's, math.dist's and np.arange's (inner, unprod, undist, arange_vjp): each was
refused ("has no second-order rule yet"; cumprod_jvp, read through its source, for its
write into a copy) when a generated jvp calling it was differentiated. tl.grad of
x -> <J(x) v, 1> is H v: checked against central differences of tangentlike's gradient
and, where autograd has the function and its second derivative, against autograd's
Hessian-vector product. Forward over forward (a jvp of a jvp, v' H v) goes through the
tangent forms of the same rules."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import math

import numpy as np

W = np.array([[0.5, -1.0, 0.25, 2.0], [1.5, 0.3, -0.7, 0.1]])


def f_cast(x):
    return np.sum(np.sin(x.astype(np.float64)) * x ** 2)


def f_cast_float32(x):
    return np.sum(np.cos(x.astype(np.float32)).astype(np.float64) * x)


def f_cast_int(x):
    return np.sum(x ** 3 * (2.0 * x).astype(int))


def f_einsum_outer(x):
    return np.sum(np.einsum("i,j->ij", x, np.sin(x)) ** 2)


def f_einsum_three(x):
    return np.einsum("i,i,i->", x, x ** 2, np.cos(x))


def f_einsum_matrix(x):
    return np.sum(np.tanh(np.einsum("ij,j->i", W * x[0], x ** 2)))


def f_cumprod(x):
    return np.sum(np.cumprod(x) ** 2)


def f_cumprod_axis(x):
    return np.sum(np.sin(np.cumprod(np.reshape(x, (2, 2)) * x[0], axis=1)))


def f_zip(x):
    s = 0.0
    for a, b in zip(x, x ** 2):
        s = s + a * np.sin(b)
    return s


def f_prod(x):
    return math.prod([x[0], x[1] ** 2, np.sin(x[2])]) * x[3]


def f_dist(x):
    return math.dist([x[0], x[1]], [x[2] ** 2, 1.0]) ** 3


def f_arange(x):
    return np.sum(np.sin(np.arange(x[0], 3.0, x[1] * 0.5)))


def h_arange(t):
    return np.sum(np.sin(np.arange(t, 3.0, 0.5) * t))


def h_cast(t):
    return np.sum(np.sin(np.array([t, 2.0 * t]).astype(np.float64)) * t ** 2)


def h_zip(t):
    s = 0.0
    for a, b in zip([t, t ** 2], [np.sin(t), t]):
        s = s + a * np.sin(b)
    return s


def h_einsum(t):
    x = np.array([t, t ** 2, 1.0])
    return np.einsum("i,i->", x, np.sin(x))


def seeded_of(vj):
    def k(t):
        return vj(t, t)

    return k


def seeded_jvp_of(vj):
    def k(t):
        return vj(t, 1.0, t)

    return k


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

AUTOGRAD = {
    "f_cast",
    "f_einsum_outer",
    "f_einsum_three",
    "f_einsum_matrix",
    "f_zip",
    "f_prod",
}
NAMES = [
    line[4:].split("(")[0]
    for line in SOURCE.splitlines()
    if line.startswith("def f_") and "float32" not in line
]
X = np.array([0.7, 1.3, -0.4, 0.9])
V = np.array([0.3, -0.5, 0.8, 0.2])
CASES = {name: X for name in NAMES}
CASES["f_cast_int"] = np.array([0.7, 1.3, -0.4, 0.9])  # 2x away from integers
CASES["f_arange"] = np.array([0.3, 0.85, -0.4, 0.9])  # away from a jump in the count


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rof_tangents"), SOURCE, name="tl_rof_tangents")


@pytest.mark.parametrize("case", NAMES)
def test_gradient_of_the_jvp(m, case):
    f, x = getattr(m, case), CASES[case]
    hv = tl.grad(m.phi_of(tl.jvp(f)))(x, V)
    assert np.shape(hv) == np.shape(x)
    np.testing.assert_allclose(hv, fd_hvp(f, x, V), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        expected = autograd.hessian_vector_product(autograd_version(f))(x, V)
        np.testing.assert_allclose(hv, expected, rtol=1e-10, atol=1e-12)


def test_cast_to_float32(m):
    """Through a float32 cast (computed in float32: central differences of the gradient
    lose too many digits there), against the Hessian of sum(cos(x) x), diagonal."""
    hv = tl.grad(m.phi_of(tl.jvp(m.f_cast_float32)))(X, V)
    expected = (-2.0 * np.sin(X) - X * np.cos(X)) * V
    np.testing.assert_allclose(hv, expected, rtol=1e-6)


def test_cumprod_at_a_zero(m):
    """cumprod_jvp multiplies the other factors, never divides: exact where a factor is 0,
    and so is its derivative read through its source (np.cumprod's first-order rule,
    exact at zeros)."""
    x = np.array([0.7, 1.3, 0.0, 0.9])
    hv = tl.grad(m.phi_of(tl.jvp(m.f_cumprod)))(x, V)
    np.testing.assert_allclose(hv, fd_hvp(m.f_cumprod, x, V), rtol=1e-7, atol=1e-9)
    assert np.all(np.isfinite(hv)) and hv[2] != 0


@pytest.mark.parametrize("case", ["f_prod", "f_dist", "f_cast", "f_einsum_three", "f_zip"])
def test_jvp_of_the_jvp(m, case):
    """Forward over forward: the tangent forms of the helpers' rules (v' H v)."""
    f, x = getattr(m, case), CASES[case]
    _, vhv = tl.jvp(m.phi_of(tl.jvp(f)))(x, V, V)
    np.testing.assert_allclose(vhv, fd_hvp(f, x, V) @ V, rtol=1e-6)


@pytest.mark.parametrize("case", ["f_cast", "f_cast_int", "f_zip", "f_einsum_outer", "f_prod"])
def test_jvp_of_the_jvp_in_both(m, case):
    """Forward over forward in x and in the direction v: U' H V + grad f . W (the tangent
    forms with a moving tangent argument: cast_tangent's, iterable_tangent's t)."""
    f, x = getattr(m, case), CASES[case]
    U, W = np.array([0.5, 0.1, -0.3, 0.7]), np.array([-0.2, 0.6, 0.4, -0.9])
    _, out = tl.jvp(m.phi_of(tl.jvp(f)), wrt=(0, 1))(x, V, (U, W))
    expected = fd_hvp(f, x, V) @ U + tl.grad(f)(x) @ W
    np.testing.assert_allclose(out, expected, rtol=1e-6)


@pytest.mark.parametrize("case", ["h_arange", "h_cast", "h_zip", "h_einsum"])
def test_third_order(m, case):
    """The second-order rules' own helpers (arange_vjp_vjp, uncast_tangent,
    uniterable_tangent) have rules too: d/dt of the second derivative, reverse over
    reverse over forward (and over reverse where einsum's second order allows), against
    central differences of tangentlike's second derivative."""
    f, t, eps = getattr(m, case), 0.3, 1e-5
    second = tl.grad(tl.grad(f))
    expected = (second(t + eps) - second(t - eps)) / (2 * eps)
    np.testing.assert_allclose(tl.grad(tl.grad(m.phi_of(tl.jvp(f))))(t, 1.0), expected, rtol=1e-7)
    if case != "h_einsum":  # einsum_vjp_vjp has no rule (third order over reverse)
        np.testing.assert_allclose(tl.grad(tl.grad(tl.grad(f)))(t), expected, rtol=1e-7)


@pytest.mark.parametrize("case", ["h_arange", "h_cast", "h_zip"])
def test_gradient_of_a_seeded_second_derivative(m, case):
    """t -> f''(t) t, a vjp of the gradient (or of the jvp) seeded with t itself: the seed
    moves, so the transposes of the second-order helpers (arange_vjp's, cast_tangent's,
    iterable_tangent's) are differentiated in their adjoint argument too."""
    f, t, eps = getattr(m, case), 0.3, 1e-5
    for k in (
        m.seeded_of(tl.vjp(tl.grad(f))),
        m.seeded_jvp_of(tl.vjp(m.phi_of(tl.jvp(f)))),
    ):
        expected = (k(t + eps) - k(t - eps)) / (2 * eps)
        np.testing.assert_allclose(tl.grad(k)(t), expected, rtol=1e-7)
