"""Second order through values the gradient restores from its stack in a loop.

The differentiable form reads a pop through the chain of every value pushed; taken
for varied because some pushed value is, an exponent `k + 1` restored in a loop got
a zero tangent times log(x), nan at a negative x: hvp and hessian of a Taylor series
were nan there. A pop of a name the same function pushes restores a value that name
held (analyze/activity.py `_restores`), so it varies only as the name does.
"""

from __future__ import annotations

import math
import warnings

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import tangentlike as tl


def taylor_sin(x):
    s = 0.0
    for k in range(6):
        s = s + (-1) ** k * x ** (2 * k + 1) / math.factorial(2 * k + 1)
    return np.sum(s)


def taylor_sin_ag(x):
    s = 0.0
    for k in range(6):
        s = s + (-1) ** k * x ** (2 * k + 1) / math.factorial(2 * k + 1)
    return anp.sum(s)


def moments(x, n):
    s = 0.0
    for k in range(n):
        s += np.sum(x ** (k + 1)) / (k + 1)
    return s


def varied_exponent(x):
    """The restored exponent varies with x: its term must stay."""
    s = 0.0
    for k in range(3):
        e = x[0] * (k + 1)
        s = s + np.sum(x**e)
    return s


def varied_exponent_ag(x):
    s = 0.0
    for k in range(3):
        e = x[0] * (k + 1)
        s = s + anp.sum(x**e)
    return s


X = np.array([-0.5, 0.7, -1.3])
V = np.array([1.0, -2.0, 0.5])


def _fd_hvp(f, x, v, *rest, eps=1e-5):
    g = tl.grad(f)
    return (g(x + eps * v, *rest) - g(x - eps * v, *rest)) / (2 * eps)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_a_taylor_series_at_negative_points(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no log of a negative number
        got = tl.hvp(taylor_sin, method=method)(X, V)
    expected = autograd.hessian(taylor_sin_ag)(X) @ V
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got, -np.sin(X) * V, atol=1e-3)  # the series' own error


def test_hessian_of_a_taylor_series_is_finite_and_right():
    H = tl.hessian(taylor_sin)(X)
    np.testing.assert_allclose(H, autograd.hessian(taylor_sin_ag)(X), rtol=1e-9, atol=1e-12)


def test_grad_of_grad_through_an_exponent_restored_in_a_loop():
    def first(x):
        return moments(x, 4)

    got = tl.grad(tl.grad(first))(-0.5)
    # d2/dx2 sum_k x^(k+1)/(k+1) = sum_k k x^(k-1), k = 0..3, at x = -0.5
    assert float(got) == pytest.approx(1 + 2 * -0.5 + 3 * 0.25)


def test_hvp_with_an_integer_argument_counting_the_terms():
    got = tl.hvp(moments)(X, 4, V)
    np.testing.assert_allclose(got, _fd_hvp(moments, X, V, 4), rtol=1e-6, atol=1e-8)
    assert np.all(np.isfinite(got))


def test_a_restored_exponent_that_varies_keeps_its_term():
    x = np.array([0.6, 1.3, 0.9])
    got = tl.hvp(varied_exponent)(x, V)
    np.testing.assert_allclose(got, autograd.hessian(varied_exponent_ag)(x) @ V, rtol=1e-8)
    np.testing.assert_allclose(got, _fd_hvp(varied_exponent, x, V), rtol=1e-5, atol=1e-7)


def _through_helper(x):
    return moments(x, 4) * 2.0


def test_hvp_through_a_helper_whose_exponent_its_backward_half_restores():
    """The helper's pushes and pops are in its two halves (_fwd_/_bwd_): the pop reads
    the chain; the exponent term is 0 for an integer exponent (runtime.power_log)."""
    got = tl.hvp(_through_helper)(X, V)
    np.testing.assert_allclose(got, 2 * (1 + 2 * X + 3 * X**2) * V, rtol=1e-12)
    H = tl.hessian(_through_helper)(X)
    np.testing.assert_allclose(H, np.diag(2 * (1 + 2 * X + 3 * X**2)), rtol=1e-12)


def test_third_derivative_through_a_restored_exponent():
    got = tl.grad(tl.grad(tl.grad(moments)))(-0.5, 4)
    assert float(got) == pytest.approx(2 + 6 * -0.5)


@pytest.mark.parametrize(
    "y, integer",
    [(3, True), (np.int64(3), True), (np.array([1, 2]), True), (True, True), (2.0, False)],
)
def test_an_integer_exponent_has_no_log_factor(y, integer):
    from tangentlike import runtime

    assert runtime.integer_exponent(y) is integer
    x = np.array([-0.5, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = runtime.power_log(x, y)
    if integer:
        assert got == 0.0
    else:
        assert np.isnan(got[0]) and got[1] == pytest.approx(np.log(2.0))
