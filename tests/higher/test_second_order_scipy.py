"""Second order through the adjoint and tangent helpers of SciPy's factor-and-solve pairs
(cho_factor/cho_solve, lu_factor/lu_solve), solve_triangular, solve and inv,
multivariate_normal.logpdf/pdf, the convolutions and scipy.integrate's simpson and
cumulative_trapezoid (rules/runtime_sources.py and runtime_scipy.py): Hessian-vector
products, forward over reverse and reverse over reverse, and the gradient of a jvp
(reverse over forward), against central differences of tangentlike's gradient and,
where autograd has the function and its second derivative, against autograd.

Inputs are well conditioned: symmetric positive definite matrices are made as
B B^T + 3 I, other matrices have 3 I added; no pivot ties in the LU factors (f_lu_pivoted's
rows are exchanged, the others' are not)."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import autograd.scipy.linalg
import autograd.scipy.signal
import autograd.scipy.special
import autograd.scipy.stats
import numpy as np
import pytest
from reference import fd_gradient, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import scipy.integrate as si
import scipy.linalg as sl
import scipy.signal as ss
import scipy.special as sp
import scipy.stats as st

B = np.array([0.3, -1.0, 0.5])
M = np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7], [-0.2, 0.8, 1.1]])
X = np.array([[0.2, -0.4, 1.0], [1.1, 0.3, -0.6], [-0.5, 0.9, 0.4], [0.0, -1.2, 0.7]])
K = np.array([0.5, -0.25, 1.0])


def spd(a):
    return a @ a.T + 3.0 * np.eye(3)


def f_cho(a):
    c = sl.cho_factor(spd(a), lower=True)
    x = sl.cho_solve(c, B)
    return np.sum(x * B) + 2.0 * np.sum(np.log(np.diag(c[0])))


def f_cho_upper(a):
    c = sl.cho_factor(spd(a))
    return np.sum(sl.cho_solve(c, np.sin(a)) ** 2)


def f_lu(a):
    lu = sl.lu_factor(a + 3.0 * np.eye(3))
    return np.sum(sl.lu_solve(lu, B * a[0]) ** 2)


def f_lu_transposed(a):
    lu = sl.lu_factor(a + 3.0 * np.eye(3))
    return np.sum(sl.lu_solve(lu, np.cos(a), trans=1) ** 2)


def f_lu_pivoted(a):
    lu, piv = sl.lu_factor(a[::-1] + 3.0 * np.eye(3)[::-1])
    return np.sum(sl.lu_solve((lu, piv), np.sin(a)) ** 2) + np.sum(lu ** 2)


def f_lu_twice(a):
    lu, piv = sl.lu_factor(a + 3.0 * np.eye(3))
    return np.sum(sl.lu_solve((lu, piv), np.sin(a)) ** 2) + np.sum(sl.lu_solve((lu, piv), B))


def f_cho_twice(a):
    c, low = sl.cho_factor(spd(a))
    return np.sum(sl.cho_solve((c, low), np.sin(a)) ** 2) + np.sum(sl.cho_solve((c, low), B))


def f_gaussian_loglik(a):
    L = np.linalg.cholesky(spd(a))
    z = sl.solve_triangular(L, B, lower=True)
    return -0.5 * np.sum(z ** 2) - np.sum(np.log(np.diag(L)))


def f_triangular_transposed(a):
    t = np.triu(a) + 3.0 * np.eye(3)
    return np.sum(sl.solve_triangular(t, np.sin(a), trans=1) ** 2)


def f_triangular_unit(a):
    return np.sum(sl.solve_triangular(a, a[0] * B, lower=True, unit_diagonal=True) ** 3)


def f_solve(a):
    return np.sum(sl.solve(a + 3.0 * np.eye(3), B * a[1]) ** 2)


def f_inv(a):
    return np.sum(sl.inv(a + 3.0 * np.eye(3)) ** 2)


def f_solve_pos(a):
    return np.sum(sl.solve(spd(a), B, assume_a="pos") ** 2)


def f_mvn(a):
    return np.sum(st.multivariate_normal.logpdf(X, a[0], spd(a)))


def f_mvn_x(a):
    return np.sum(st.multivariate_normal.logpdf(a, B, spd(M)))


def f_mvn_diagonal(a):
    return np.sum(st.multivariate_normal.logpdf(X, a[1], np.exp(a[0])))


def f_mvn_pdf(a):
    return st.multivariate_normal.pdf(a[0], B, spd(a) / 3.0)


def f_convolve_same(a):
    return np.sum(ss.convolve(a[0] ** 2, a[1], mode="same") ** 2)


def f_fftconvolve_valid(a):
    return np.sum(np.sin(ss.fftconvolve(np.concatenate([a[0], a[1]]), a[2] * a[0], mode="valid")))


def f_convolve2d(a):
    return np.sum(ss.convolve2d(a ** 2, M[:2], mode="same") ** 2)


def f_correlate2d(a):
    return np.sum(ss.correlate2d(a, a[:2, :2] * a[2, 2], mode="same") ** 2)


def f_simpson(a):
    return np.sum(si.simpson(np.exp(a), dx=0.3, axis=0) ** 2)


def f_cumulative_trapezoid(a):
    return np.sum(si.cumulative_trapezoid(a ** 3, x=K, axis=-1, initial=0.0) ** 2)


def f_cumulative_trapezoid_dx(a):
    return np.sum(np.sin(si.cumulative_trapezoid(a ** 2, dx=0.5, axis=0)))


def f_poisson(a):
    rate = np.exp(a[0] + 0.5 * a[1])
    k = np.array([1.0, 3.0, 2.0])
    return np.sum(k * np.log(rate) - rate - sp.gammaln(k + 1.0)) + np.sum(sp.gammaln(a ** 2 + 0.5))


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

# autograd has these functions and their second derivatives (its scipy.linalg has no
# gradient of solve, inv, cholesky, cho_* or lu_*)
AUTOGRAD = {
    "f_gaussian_loglik",
    "f_triangular_transposed",
    "f_mvn",
    "f_mvn_x",
    "f_mvn_pdf",
    "f_poisson",
}
CASES = [
    "f_cho",
    "f_cho_upper",
    "f_lu",
    "f_lu_transposed",
    "f_lu_pivoted",
    "f_lu_twice",
    "f_cho_twice",
    "f_gaussian_loglik",
    "f_triangular_transposed",
    "f_triangular_unit",
    "f_solve",
    "f_inv",
    "f_mvn",
    "f_mvn_x",
    "f_mvn_diagonal",
    "f_mvn_pdf",
    "f_convolve_same",
    "f_fftconvolve_valid",
    "f_convolve2d",
    "f_correlate2d",
    "f_simpson",
    "f_cumulative_trapezoid",
    "f_cumulative_trapezoid_dx",
    "f_poisson",
]

R = np.random.RandomState(3)
A = 0.5 * R.randn(3, 3) + np.diag([1.0, 1.5, 2.0])
V = R.randn(3, 3)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("scipy2"), SOURCE, name="tl_second_scipy")


def _autograd_version(f):
    """f with NumPy and SciPy's modules rebound to autograd's."""
    names = {
        "np": anp,
        "sl": autograd.scipy.linalg,
        "st": autograd.scipy.stats,
        "sp": autograd.scipy.special,
        "ss": autograd.scipy.signal,
    }
    globals_ = {**f.__globals__, **names}
    globals_["spd"] = type(f)(f.__globals__["spd"].__code__, globals_)
    return type(f)(f.__code__, globals_, f.__name__)


def _autograd_hvp(f, x, v):
    af = _autograd_version(f)
    return autograd.grad(lambda y: anp.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", CASES)
def test_hvp(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method)(A, V)
    assert hv.shape == A.shape
    np.testing.assert_allclose(hv, fd_hvp(f, A, V), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        np.testing.assert_allclose(hv, _autograd_hvp(f, A, V), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("case", CASES)
def test_gradient_of_the_jvp(m, case):
    """Reverse over forward: tl.grad of x -> <J(x), v> reads the tangent helpers."""
    f = getattr(m, case)
    hv = tl.grad(m.phi_of(tl.jvp(f)))(A, V)
    np.testing.assert_allclose(hv, fd_hvp(f, A, V), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", ["f_gaussian_loglik", "f_mvn", "f_cho"])
def test_hessian(m, case):
    f = getattr(m, case)
    h = tl.hessian(f)(A)
    assert h.shape == A.shape + A.shape
    flat = h.reshape(9, 9)
    np.testing.assert_allclose(flat, flat.T, rtol=1e-9, atol=1e-10)
    columns = [fd_hvp(f, A, e.reshape(3, 3)) for e in np.eye(9)]
    np.testing.assert_allclose(flat, np.array(columns).reshape(9, 9), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        expected = autograd.hessian(_autograd_version(f))(A)
        np.testing.assert_allclose(h, expected, rtol=1e-8, atol=1e-10)


def test_grad_of_grad(m):
    """tl.grad of <grad f, v>: the Gaussian log-likelihood's H v."""
    df = tl.grad(m.f_gaussian_loglik)

    def directional(a, v):
        return np.sum(df(a) * v)

    hv = tl.grad(directional)(A, V)
    np.testing.assert_allclose(hv, fd_hvp(m.f_gaussian_loglik, A, V), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", ["f_lu_twice", "f_cho_twice"])
def test_a_factor_pair_used_twice(m, case):
    """The pair's flag or pivots get the adjoint zero, not None: two solves with one pair
    add their adjoints (a TypeError, None + None, at first order before)."""
    f = getattr(m, case)
    np.testing.assert_allclose(tl.grad(f)(A), fd_gradient(f, [A], 0), rtol=1e-6, atol=1e-8)


def test_the_pivots_exchange_rows(m):
    """f_lu_pivoted reads the pivots' row order; the other LU cases keep rows in place."""
    import scipy.linalg

    assert np.any(scipy.linalg.lu_factor(A[::-1] + 3.0 * np.eye(3)[::-1])[1] != np.arange(3))
    assert np.all(scipy.linalg.lu_factor(A + 3.0 * np.eye(3))[1] == np.arange(3))


def test_what_the_first_order_refuses_stays_refused(m):
    """solve's assume_a='pos' is refused when the gradient runs: at second order too."""
    with pytest.raises(ValueError, match="assume_a"):
        tl.grad(m.f_solve_pos)(A)
    for method in ("forward", "reverse"):
        with pytest.raises(ValueError, match="assume_a"):
            tl.hvp(m.f_solve_pos, method=method)(A, V)
