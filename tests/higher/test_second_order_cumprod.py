"""np.cumprod at second order. Where its input holds no zero, the gradient's helper
(runtime.cumprod_vjp: a reverse cumulative sum of g * result, divided by a) is read
through its source (rules/runtime_helpers.py THROUGH_SOURCE); where it holds an exact
zero the helper hands over to cumprod_vjp_at_zeros, exact at first order, whose
second-order rule refuses at run time: its formula takes the lane after the first zero
as the constant 0, whose derivative is not (a Hessian through it would be wrong).

Checked against autograd (which has no cumprod: the reference builds the products one
by one) and central differences of the gradient."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import fd_hvp, line_of, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_flat(x):
    return np.sum(np.sin(np.cumprod(x)))


def f_axis0(x):
    return np.sum(np.cumprod(x, axis=0) ** 2)


def f_axis1(x):
    return np.sum(np.tanh(x.cumprod(axis=1)) * x)


def f_twice(x):
    return np.sum(np.cumprod(np.cumprod(x, axis=-1), axis=0))
"""


def _cumprod(x, axis):
    """np.cumprod by explicit products (autograd differentiates these)."""
    if axis is None:
        x, axis = anp.reshape(x, (-1,)), 0
    x = anp.moveaxis(x, axis, 0)
    out = [x[0]]
    for i in range(1, x.shape[0]):
        out.append(out[-1] * x[i])
    return anp.moveaxis(anp.stack(out), 0, axis)


REFERENCES = {
    "f_flat": lambda x: anp.sum(anp.sin(_cumprod(x, None))),
    "f_axis0": lambda x: anp.sum(_cumprod(x, 0) ** 2),
    "f_axis1": lambda x: anp.sum(anp.tanh(_cumprod(x, 1)) * x),
    "f_twice": lambda x: anp.sum(_cumprod(_cumprod(x, -1), 0)),
}
R = np.random.RandomState(4)
X = R.uniform(0.5, 1.5, size=(3, 4)) * np.sign(R.randn(3, 4))
V = R.randn(3, 4)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("cumprod2"), SOURCE, name="tl_second_cumprod")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(REFERENCES))
def test_hvp(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method)(X, V)
    ref = REFERENCES[case]
    expected = autograd.grad(lambda y: anp.sum(autograd.grad(ref)(y) * V))(X)
    np.testing.assert_allclose(hv, expected, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(hv, fd_hvp(f, X, V), rtol=1e-5, atol=1e-6)


def test_hessian(m):
    h = tl.hessian(m.f_axis1)(X)
    expected = autograd.hessian(REFERENCES["f_axis1"])(X)
    np.testing.assert_allclose(h, expected, rtol=1e-9, atol=1e-10)


def test_first_order_at_a_zero_is_unchanged(m):
    x = X.copy()
    x[1, 2] = 0.0
    expected = autograd.grad(REFERENCES["f_axis1"])(x)
    np.testing.assert_allclose(tl.grad(m.f_axis1)(x), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_second_order_at_a_zero_is_refused(m, method):
    """Near the zero all is smooth; at it, never a value."""
    x = X.copy()
    x[1, 2] = 1e-3
    tl.hvp(m.f_axis1, method=method)(x, V)
    x[1, 2] = 0.0
    with pytest.raises(tl.CheckError, match="exact zero") as err:
        tl.hvp(m.f_axis1, method=method)(x, V)
    assert "np.cumprod" in str(err.value)
    _assert_at_cumprod_line(m, err.value)


def _assert_at_cumprod_line(m, err):
    """The refusal points at the user's line that calls cumprod (not at the line of
    tangentlike's runtime helper whose derivative raised it)."""
    assert err.location is not None
    assert err.location.filename == m.__file__
    assert err.location.line == line_of(m, "x.cumprod(axis=1)")


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_hessian_at_a_zero_is_refused_at_the_users_line(m, mode):
    x = X.copy()
    x[0, 1] = 0.0
    with pytest.raises(tl.CheckError, match="exact zero") as err:
        tl.jacobian(tl.grad(m.f_axis1), mode=mode)(x)
    _assert_at_cumprod_line(m, err.value)
