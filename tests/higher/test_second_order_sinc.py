"""np.sinc at second order: its slope is runtime.sinc_slope, whose derivative is
runtime.sinc_curvature (rules/runtime_numpy_helpers.py). Before, the slope was
np.where(x == 0, 0.0, (cos(pi x) - sinc(x)) / x): differentiated again, 0 at x = 0
(the true second derivative is -pi^2/3) and cancelling near it (-25 for -8.36 at
x = 1e-9): a wrong Hessian with no error. Both helpers are checked against the Taylor
series of sinc summed in 60-digit decimals, and Hessian-vector products at and near 0
against the exact second derivative and central differences of the gradient."""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np
import pytest
from reference import fd_hvp, load_module

import tangentlike as tl
from tangentlike import runtime

SOURCE = """
import numpy as np


def f(x):
    r = np.sinc(x)
    return np.sum(r * r) + np.sum(np.sin(r))


def sinc_alone(x):
    return np.sinc(x)
"""

PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")
POINTS = [0.0, 1e-9, -1e-5, 0.05, -0.0999, 0.1, 0.5, 1.0, -2.3, 10.3]


def _series(x: float, order: int) -> float:
    """The order-th derivative of sinc at x from its Taylor series, 60 digits."""
    with localcontext() as ctx:
        ctx.prec = 60
        x, total, factorial = Decimal(x), Decimal(0), Decimal(1)
        for k in range(120):
            if k:
                factorial *= (2 * k) * (2 * k + 1)
            power = 2 * k - order
            if power < 0:
                continue
            falling = 1
            for j in range(order):
                falling *= 2 * k - j
            term = PI ** (2 * k) * falling * (x**power if power else 1) / factorial
            total += -term if k % 2 else term
        return float(total)


@pytest.mark.parametrize("x", POINTS)
def test_slope_and_curvature_against_the_series(x):
    np.testing.assert_allclose(runtime.sinc_slope(x), _series(x, 1), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(runtime.sinc_curvature(x), _series(x, 2), rtol=1e-14, atol=1e-15)


def test_float32_stays_float32():
    x = np.array([0.0, 0.05, 0.7], dtype=np.float32)
    assert runtime.sinc_slope(x).dtype == np.float32
    assert runtime.sinc_curvature(x).dtype == np.float32


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("sinc2"), SOURCE, name="tl_second_sinc")


@pytest.fixture(scope="module")
def f(m):
    return m.f


def _exact_hvp(x, v):
    """f = sum(r^2 + sin r), r = sinc(x): f'' = (2 r + cos r) r'' + (2 - sin r) r'^2,
    diagonal."""
    r, s1 = np.sinc(x), np.array([_series(t, 1) for t in x])
    s2 = np.array([_series(t, 2) for t in x])
    return ((2.0 * r + np.cos(r)) * s2 + (2.0 - np.sin(r)) * s1**2) * v


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_at_and_near_zero(f, method):
    x = np.array(POINTS)
    v = np.random.RandomState(2).standard_normal(x.shape)
    hv = tl.hvp(f, method=method)(x, v)
    np.testing.assert_allclose(hv, _exact_hvp(x, v), rtol=1e-12, atol=1e-12)
    far = np.abs(x) > 1e-3  # central differences of the gradient, where they resolve it
    np.testing.assert_allclose(hv[far], fd_hvp(f, x, v)[far], rtol=1e-5, atol=1e-6)


def test_hessian_is_diagonal_with_the_curvature(f):
    x = np.array([0.0, 0.3, -1.7])
    h = tl.hessian(f)(x)
    np.testing.assert_allclose(h, np.diag(_exact_hvp(x, np.ones(3))), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("x", POINTS)
def test_third_derivative_through_the_curvature(m, x):
    """sinc_curvature read through its source (rules/runtime_sources.py): the series near
    0 and the closed form beyond, each differentiated, against the Taylor series."""
    third = tl.grad(tl.grad(tl.grad(m.sinc_alone)))
    assert third(x) == pytest.approx(_series(x, 3), rel=1e-9, abs=1e-9)
