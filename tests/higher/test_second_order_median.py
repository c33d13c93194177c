"""Second order through np.median's adjoint helper (rules/runtime_statistics.py): the
rule table's reverse and forward forms of median_vjp and median_vjp_vjp against central
differences, and Hessian-vector products (forward over reverse, reverse over reverse)
and Hessians against autograd (the median written with np.sort, which autograd
differentiates) and central differences of the gradient."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import check_against_fd, directional_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
from tangentlike import runtime

W4 = np.array([0.2, -0.5, 1.3, 0.9])
W34 = np.arange(12.0).reshape(3, 4) / 9.0 - 0.5
A34 = np.array([[0.3, -1.2, 2.0, 0.7], [1.1, 0.2, -0.4, 0.5], [-0.9, 1.6, 0.8, -0.1]])


def median_vjp_flat(g):
    return np.sum(runtime.median_vjp(g, W4, None, False) * W4)


def median_vjp_axis(g):
    return np.sum(runtime.median_vjp(g, A34, 1, False) * W34)


def median_vjp_keepdims(g):
    return np.sum(runtime.median_vjp(g, A34, 0, True) * W34)


def median_vjp_vjp_axis(h):
    return np.sum(runtime.median_vjp_vjp(h, W4[:3], A34, 1, False) * W4[:3])


def median_vjp_vjp_keepdims(h):
    return np.sum(runtime.median_vjp_vjp(h, W4[None, :], A34, 0, True) * W4)


def f_median(x):
    return np.median(x * x) ** 2 + np.sum(x)


def f_median_axis(a):
    return np.sum(np.sin(np.median(a * a, axis=0)) * np.median(a, axis=1))


def f_median_keepdims(a):
    return np.sum(a * np.median(np.exp(a), axis=1, keepdims=True))
"""

R = np.random.RandomState(7)
RULE_CASES = [
    ("median_vjp_flat", 0.8),
    ("median_vjp_axis", R.randn(3)),
    ("median_vjp_keepdims", R.randn(1, 4)),
    ("median_vjp_vjp_axis", R.randn(3, 4)),
    ("median_vjp_vjp_keepdims", R.randn(3, 4)),
]


def _middle(row):
    """The median of a 1-D array (autograd's sort is 1-D only)."""
    ordered, n = anp.sort(row), row.shape[0]
    if n % 2:
        return ordered[n // 2]
    return 0.5 * (ordered[n // 2 - 1] + ordered[n // 2])


def _rows(a):
    return anp.array([_middle(a[i]) for i in range(a.shape[0])])


def a_median(x):
    return _middle(x * x) ** 2 + anp.sum(x)


def a_median_axis(a):
    return anp.sum(anp.sin(_rows((a * a).T)) * _rows(a))


def a_median_keepdims(a):
    return anp.sum(a * _rows(anp.exp(a))[:, None])


HVP_CASES = {
    "f_median": (a_median, R.randn(5)),
    "f_median_even": (a_median, R.randn(4)),
    "f_median_axis": (a_median_axis, R.randn(4, 4)),
    "f_median_keepdims": (a_median_keepdims, R.randn(3, 4)),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("median2"), SOURCE, name="tl_second_median")


@pytest.mark.parametrize("name,x", RULE_CASES, ids=[n for n, _ in RULE_CASES])
def test_reverse_form_against_differences(m, name, x):
    f = getattr(m, name)
    check_against_fd(f, tl.grad(f)(x), [x], 0)


@pytest.mark.parametrize("name,x", RULE_CASES, ids=[n for n, _ in RULE_CASES])
def test_forward_form_against_differences(m, name, x):
    f = getattr(m, name)
    t = R.standard_normal(np.shape(x)) if np.ndim(x) else 0.6
    _, tangent = tl.jvp(f)(x, t)
    assert np.isclose(float(tangent), directional_fd(f, [x], 0, t), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(HVP_CASES))
def test_hvp(m, case, method):
    a, x = HVP_CASES[case]
    f = getattr(m, case.replace("_even", ""))
    v = np.random.RandomState(1).standard_normal(x.shape)
    hv = tl.hvp(f, method=method)(x, v)
    g, eps = tl.grad(f), 1e-6
    assert np.allclose(hv, (g(x + eps * v) - g(x - eps * v)) / (2 * eps), rtol=1e-5, atol=1e-6)
    expected = autograd.grad(lambda y: anp.sum(autograd.grad(a)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-9, atol=1e-10)


def test_hessian(m):
    a, x = HVP_CASES["f_median_axis"]
    h = tl.hessian(m.f_median_axis)(x)
    assert h.shape == (4, 4, 4, 4)
    assert np.allclose(h, autograd.hessian(a)(x), rtol=1e-9, atol=1e-10)
