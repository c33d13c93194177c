"""`spread(G, t) * y` -> `G * y` where y certainly has t's shape (transform/shaped_products.py,
optimize/spreads.py): in the generated source, and against central differences and
autograd; an operand that broadcasts into t keeps its spread."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd

import tangentlike as tl


def _backward(df) -> str:
    source = next(iter(df.specialised.values()), df.source)
    return source.split("# backward sweep")[1]


def _check(f, args, wrt, expect_spread):
    df = tl.grad(f, wrt=wrt, checks=False)  # the specialised build (debug mode: the generic)
    grads = df(*args)
    for g, i in zip(grads, wrt, strict=True):
        check_against_fd(f, g, args, i)
        np.testing.assert_allclose(g, autograd_grad(f, args, i), rtol=1e-9, atol=1e-12)
    assert ("spread(" in _backward(df)) == expect_spread, _backward(df)
    return df


def weighted(w, h, ys):
    total = 0.0
    for t in range(len(ys)):
        h = np.tanh(h @ w)
        total = total + np.sum(h * ys[t])
    return total + 0.5 * np.sum(w * w)


def test_a_sum_of_products_of_one_shape_needs_no_spread():
    rng = np.random.default_rng(7)
    args = (
        rng.standard_normal((3, 3)) / 2,
        rng.standard_normal((2, 3)),
        rng.standard_normal((4, 2, 3)),
    )
    df = _check(weighted, args, (0, 1), expect_spread=False)
    forward = next(iter(df.specialised.values())).split("# backward sweep")[0]
    assert "w * w" not in forward  # computed only for its shape before


def mismatched(a, b):
    return np.sum(a * b) + np.sum(np.sin(b))


def test_arguments_the_function_cannot_take_raise_its_own_error():
    """Two arrays of one dimension pattern ("N") may have other sizes. The rewrite left
    `a * b` dead (grad needs no value), so the gradient failed at its shape check and
    called that a tangentlike bug; the wrapper now reports what the function itself
    raises on those arguments: NumPy's broadcast error, at the user's line."""
    df = tl.grad(mismatched, checks=False)
    df(np.ones(3), np.ones(3))  # the specialised build of a pattern "N", "N" call
    with pytest.raises(ValueError, match="could not be broadcast") as err:
        df(np.ones(3), np.ones(4))
    assert "tangentlike bug" not in str(err.value)
    assert "raises this on these arguments" in "\n".join(getattr(err.value, "__notes__", []))
    frames = [frame.name for frame in traceback.extract_tb(err.value.__traceback__)]
    assert "mismatched" in frames  # the user's function raised it


def broadcast(x, c):
    return np.sum(x * c) + np.sum(np.sin(x) / c)


def test_an_operand_that_broadcasts_keeps_the_spread():
    rng = np.random.default_rng(8)
    _check(broadcast, (rng.standard_normal((3, 4)), 1.5 + rng.random((3, 1))), (0, 1), True)


def test_the_generic_build_agrees():
    rng = np.random.default_rng(9)
    args = (
        rng.standard_normal((3, 3)) / 2,
        rng.standard_normal((2, 3)),
        rng.standard_normal((4, 2, 3)),
    )
    grads = tl.grad(weighted, wrt=(0, 1))(*args)
    for g, i in zip(grads, (0, 1), strict=True):
        np.testing.assert_allclose(g, autograd_grad(weighted, args, i), rtol=1e-9, atol=1e-12)


def softplus_mean(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, -y * z))


def test_an_expression_of_the_results_shape_needs_no_spread():
    # the adjoint of logaddexp multiplies by np.exp(x - result): an expression whose
    # names have the result's shape (or none)
    rng = np.random.default_rng(11)
    args = (rng.standard_normal(4), rng.standard_normal((6, 4)), np.sign(rng.standard_normal(6)))
    _check(softplus_mean, args, (0,), expect_spread=False)


def outer_scaled(x, c):
    return np.sum(np.logaddexp(x, c))


def test_an_expression_that_broadcasts_keeps_the_spread():
    rng = np.random.default_rng(12)
    _check(outer_scaled, (rng.standard_normal(3), rng.standard_normal((4, 1))), (0, 1), True)
