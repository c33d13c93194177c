"""Second order through the adjoint helpers of np.convolve, np.correlate, np.interp and
np.trapezoid (scipy.integrate.trapezoid too) (rules/runtime_products.py, maths in
runtime/higher_products.py): each was refused ("has no second-order rule yet") when a
gradient calling it was differentiated again. Hessian-vector products forward over
reverse and reverse over reverse, against central differences of tangentlike's own
gradient (autograd differentiates none of them twice)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
from scipy import integrate

K = np.array([0.5, -1.0, 2.0])
XP = np.array([-1.0, -0.2, 0.5, 1.5])
FP = np.array([0.3, 1.2, -0.4, 0.9])


def f_convolve(x):
    return np.sum(np.convolve(x ** 2, np.sin(x[:3])) ** 2)


def f_convolve_same(x):
    return np.sum(np.convolve(np.sin(x[:2]), x ** 3, "same") ** 2 * np.arange(5.0))


def f_convolve_valid(x):
    return np.sum(np.exp(np.convolve(x * x, K, "valid")))


def f_correlate(x):
    return np.sum(np.correlate(x ** 2, x[1:3] * x[0], "full") ** 2 * np.arange(6.0))


def f_correlate_same(x):
    return np.sum(np.correlate(np.cos(x[:3]), x ** 2, "same") ** 3)


def f_correlate_valid(x):
    return np.sum(np.sin(np.correlate(x, x[2:] ** 2)))


def f_interp_x(x):
    return np.sum(np.interp(x, XP, FP) ** 2 * x)


def f_interp_fp(x):
    return np.sum(np.interp(np.array([-2.0, -0.5, 0.1, 0.5, 0.9, 3.0]), XP, x[:4] ** 2) ** 2)


def f_interp_both(x):
    return np.sum(np.sin(np.interp(x * 0.7, XP, np.cos(x[1:]))) * x)


def f_scalar_interp(t):
    return np.sum(np.sin(np.interp(K * t, XP, FP * t ** 2)) ** 2)


def f_scalar_convolve(t):
    return np.sum(np.convolve(K * t ** 2, np.sin(K * t), "same") ** 2)


def f_scalar_correlate(t):
    return np.sum(np.correlate(np.cos(XP * t), K * t, "valid") ** 3)


def f_scalar_trapezoid(t):
    return np.trapezoid(np.sin(K * t) ** 2, np.cumsum(np.exp(K * t))) ** 2


def f_trapezoid_dx(x):
    return np.trapezoid(x ** 3, dx=0.3) ** 2


def f_trapezoid_x(x):
    return np.trapezoid(np.sin(x), np.cumsum(x * x)) ** 2


def f_trapezoid_rows(x):
    y = np.reshape(x[:4], (2, 2)) * x[4]
    return np.sum(np.trapezoid(y ** 2, XP[:2] * x[0], axis=1) ** 2)


def f_trapezoid_scipy(x):
    return integrate.trapezoid(x ** 2, np.cumsum(np.exp(x))) ** 2
"""

R = np.random.RandomState(12)
NAMES = [
    line[4:].split("(")[0]
    for line in SOURCE.splitlines()
    if line.startswith("def f_") and "scalar" not in line
]
CASES = {name: R.randn(5) for name in NAMES}
CASES["f_interp_x"] = np.array([-1.5, -0.6, 0.2, 0.9, 1.2, 2.0])  # outside, inside
CASES["f_interp_both"] = np.array([-1.6, -0.6, 0.2, 0.9, 1.8])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("signals2"), SOURCE, name="tl_second_signals")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", ["f_convolve_same", "f_interp_both", "f_trapezoid_x"])
def test_hessian_through_helper(m, case):
    f, x = getattr(m, case), CASES[case]
    H = tl.hessian(f)(x)
    columns = [fd_hvp(f, x, e) for e in np.eye(x.size)]
    assert np.allclose(H, np.array(columns).T, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize(
    "case", ["f_scalar_interp", "f_scalar_convolve", "f_scalar_correlate", "f_scalar_trapezoid"]
)
def test_third_order_through_helper(m, case):
    """The second-order rules spell their reverse forms with the products and their
    first-order helpers (interp_slope_vjp has a rule of its own): a third derivative goes
    through them again."""
    f, t, eps = getattr(m, case), 0.8, 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))(t)
    assert np.isclose(third, (second(t + eps) - second(t - eps)) / (2 * eps), rtol=1e-5)
