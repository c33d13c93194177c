"""`f(..., out=y[1:])`: a ufunc or NumPy function writing into a slice of an array
(normalize/anf_expressions.py lowers it to `y[1:] = f(...)`, the expression's value the
view y[1:]). NumPy computes as if the inputs were copied first where they overlap the
output, which the lowering keeps. Values, gradients, tangents and Hessian-vector
products against autograd (out of place) and central differences."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import fd_gradient, fd_hvp

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

W = np.arange(1.0, 5.0)


def overlapping(x):
    y = x * 1.0
    np.add(y[:-1], y[1:], out=y[1:])
    return np.sum(y * W) + np.sum(np.sin(y))


def overlapping_ag(x):
    y = anp.concatenate([x[:1], x[:-1] + x[1:]])
    return anp.sum(y * W) + anp.sum(anp.sin(y))


def into_a_column(x):
    M = np.outer(x, x[:2])
    np.exp(M[:, 0], out=M[:, 1])
    r = np.multiply(M[:, 0], x, out=M[..., 0])
    r *= 2.0  # r is the view M[..., 0]: M changes too
    return np.sum(M**2) + np.sum(r)


def into_a_column_ag(x):
    M = anp.outer(x, x[:2])
    c0 = 2.0 * (M[:, 0] * x)
    c1 = anp.exp(M[:, 0])
    return anp.sum(c0**2) + anp.sum(c1**2) + anp.sum(c0)


X = np.array([0.6, -1.3, 0.45, 1.1])
V = np.array([0.3, -0.2, 0.5, 0.1])


@pytest.mark.parametrize(
    "f, f_ag", [(overlapping, overlapping_ag), (into_a_column, into_a_column_ag)]
)
def test_writes_into_a_slice_by_out(f, f_ag):
    assert f(X) == pytest.approx(f_ag(X))
    value, g = tl.value_and_grad(f)(X)
    assert value == pytest.approx(f(X))
    np.testing.assert_allclose(g, autograd.grad(f_ag)(X), rtol=1e-12)
    np.testing.assert_allclose(g, fd_gradient(f, (X,), 0), rtol=1e-6, atol=1e-8)
    _, t = tl.jvp(f)(X, V)
    assert t == pytest.approx(autograd.grad(f_ag)(X) @ V, rel=1e-12)
    hv = tl.hvp(f)(X, V)
    np.testing.assert_allclose(hv, autograd.hessian(f_ag)(X) @ V, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hv, fd_hvp(f, X, V), rtol=1e-5, atol=1e-7)


def into_rows_by_a_variable(x, rows):
    y = np.zeros(4)
    np.sin(x[:2], out=y[rows])  # an integer array's y[rows] is a copy: y stays zeros
    return np.sum(y) + np.sum(x)


def test_out_into_an_index_of_variables_stays_refused_at_its_line():
    """y[rows] is a copy where rows is an integer array (NumPy writes into the copy), a
    view where it is a slice: no lowering is right for both."""
    with pytest.raises(UnsupportedSyntaxError, match=r"writing into anything but a variable") as e:
        tl.grad(into_rows_by_a_variable)(X, np.array([0, 1]))
    assert "out=y[rows]" in e.value.location.text
