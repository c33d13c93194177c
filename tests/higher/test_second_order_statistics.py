"""Second order through the adjoint and tangent helpers of np.linalg.matrix_power,
multi_dot and lstsq, np.cov, np.corrcoef, np.quantile/np.percentile, np.polyval,
np.vander and math.lgamma/math.gamma (digamma) (rules/runtime_sources.py and
runtime_statistics.py): Hessian-vector products, forward over reverse and reverse over
reverse, and the gradient of a jvp (reverse over forward), against central differences
of tangentlike's gradient and, where autograd has the function and its second
derivative, against autograd; digamma's slope against SciPy's polygamma(1, x).
What the first order refuses (a rank-deficient lstsq, a quantile method other than
'linear') stays refused at second order."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
import scipy.special
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import math

import numpy as np

B = np.array([0.3, -1.0, 0.5])
M = np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7], [-0.2, 0.8, 1.1]])


def f_matrix_power(a):
    return np.sum(np.linalg.matrix_power(a, 3) ** 2)


def f_matrix_power_inverse(a):
    return np.sum(np.linalg.matrix_power(a + 3.0 * np.eye(3), -2))


def f_multi_dot(a):
    arrays = [a, M]
    arrays.append(a.T)
    return np.sum(np.linalg.multi_dot(arrays) ** 2)


def f_multi_dot_vectors(a):
    return np.linalg.multi_dot([a[0], a, M, a[1]])


def f_lstsq(a):
    x = np.linalg.lstsq(np.vstack([a, M]), np.concatenate([B, B * a[0]]), rcond=None)[0]
    return np.sum(x ** 2)


def f_lstsq_all(a):
    x, res, rank, s = np.linalg.lstsq(np.vstack([a, M]), np.cos(np.vstack([a, a])), rcond=None)
    return np.sum(x ** 2) + np.sum(res) + np.sum(s ** 2)


def f_lstsq_deficient(a):
    return np.sum(np.linalg.lstsq(np.outer(a[0], a[1]), B, rcond=None)[0] ** 2)


def f_cov(a):
    return np.sum(np.cov(a) ** 2)


def f_cov_columns(a):
    return np.sum(np.sin(np.cov(np.vstack([a, a ** 2]), rowvar=False, bias=True)))


def f_corrcoef(a):
    return np.sum(np.corrcoef(np.vstack([a, a ** 2 + 1.0])) ** 3)


def f_quantile(a):
    return np.sum(np.quantile(a ** 2, [0.3, 0.8], axis=0) ** 2)


def f_percentile(a):
    return np.sum(np.percentile(np.sin(a), 40.0) * a)


def f_quantile_nearest(a):
    return np.sum(np.quantile(a ** 2, 0.3, method="nearest") * a)


def f_polyval(a):
    return np.sum(np.polyval(a[0], a[1]) ** 2)


def f_polyval_matrix(a):
    return np.sum(np.polyval(a[:, 0], a[1:]) ** 2) + np.polyval(a[0], 0.7)


def f_vander(a):
    return np.sum(np.vander(a[0]) @ a[1:].T ** 2)


def f_vander_increasing(a):
    return np.sum(np.sin(np.vander(a[2], 4, increasing=True)))


def f_lgamma(a):
    return math.lgamma(a[0, 0] ** 2 + 0.5) + math.gamma(a[1, 1] + 3.0) * a[2, 2]


def f_lgamma_reflected(a):
    return math.lgamma(a[0, 0] - 2.7) * a[0, 1] + math.lgamma(a[1, 1] * 0.1 + 0.2)


def lgamma(x):
    return math.lgamma(x)


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

# autograd has these functions and their second derivatives (it has no gradient of
# matrix_power, lstsq, cov, corrcoef, quantile, percentile, polyval, vander)
AUTOGRAD = {"f_multi_dot", "f_multi_dot_vectors"}
CASES = [
    "f_matrix_power",
    "f_matrix_power_inverse",
    "f_multi_dot",
    "f_multi_dot_vectors",
    "f_lstsq",
    "f_lstsq_all",
    "f_cov",
    "f_cov_columns",
    "f_corrcoef",
    "f_quantile",
    "f_percentile",
    "f_polyval",
    "f_polyval_matrix",
    "f_vander",
    "f_vander_increasing",
    "f_lgamma",
    "f_lgamma_reflected",
]

R = np.random.RandomState(3)
A = 0.5 * R.randn(3, 3) + np.diag([1.0, 1.5, 2.0])
V = R.randn(3, 3)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("stats2"), SOURCE, name="tl_second_statistics")


def _autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


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


@pytest.mark.parametrize("case", ["f_cov", "f_matrix_power", "f_lstsq", "f_multi_dot"])
def test_hessian(m, case):
    f = getattr(m, case)
    h = tl.hessian(f)(A)
    flat = h.reshape(9, 9)
    columns = [fd_hvp(f, A, e.reshape(3, 3)) for e in np.eye(9)]
    np.testing.assert_allclose(flat, np.array(columns).reshape(9, 9), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        expected = autograd.hessian(autograd_version(f))(A)
        np.testing.assert_allclose(h, expected, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize(
    "x", [-3.3, -0.7, -0.2, 0.1, 0.49, 0.5, 0.51, 1.0, 2.5, 5.999, 6.0, 6.001, 7.3, 30.0, 1e3]
)
def test_digamma_slope_is_trigamma(m, x):
    """math.lgamma's second derivative, through digamma's source, is polygamma(1, x): the
    reflection (x < 1/2), the recurrence (below 6) and the series' derivative."""
    second = tl.grad(tl.grad(m.lgamma))(x)
    assert second == pytest.approx(scipy.special.polygamma(1, x), rel=1e-9)


def test_grad_of_grad(m):
    df = tl.grad(m.f_cov)

    def directional(a, v):
        return np.sum(df(a) * v)

    hv = tl.grad(directional)(A, V)
    np.testing.assert_allclose(hv, fd_hvp(m.f_cov, A, V), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "case,match",
    [("f_lstsq_deficient", "rank-deficient"), ("f_quantile_nearest", "method='nearest'")],
)
def test_what_the_first_order_refuses_stays_refused(m, case, match):
    f = getattr(m, case)
    with pytest.raises(ValueError, match=match):
        tl.grad(f)(A)
    for method in ("forward", "reverse"):
        with pytest.raises(ValueError, match=match):
            tl.hvp(f, method=method)(A, V)
