"""`spread(G, t) * y` -> `G * y` where y certainly has t's shape (transform/shaped_products.py,
optimize/spreads.py): in the generated source, and against central differences and
autograd; an operand that broadcasts into t keeps its spread."""

from __future__ import annotations

import numpy as np
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
    df = _check(weighted, args, (0, 1), expect_spread=True)  # h * ys[t]: see below
    forward = next(iter(df.specialised.values())).split("# backward sweep")[0]
    assert "w * w" not in forward  # computed only for its shape before


def mismatched(a, b):
    return np.sum(a * b) + np.sum(np.sin(b))


def test_a_product_of_two_arrays_still_runs_and_raises_as_the_function_does():
    """Two arrays of one dimension pattern ("N") may have other sizes: `a * b` must run
    in the gradient, so that a call whose shapes do not broadcast raises NumPy's error
    at the user's line, as the function does (the rewrite left it dead: the gradient
    raised a CheckError calling itself a tangentlike bug)."""
    df = tl.grad(mismatched, checks=False)
    df(np.ones(3), np.ones(3))  # the specialised build of a pattern "N", "N" call
    try:
        df(np.ones(3), np.ones(4))
    except ValueError as err:
        assert "could not be broadcast" in str(err) and "tangentlike bug" not in str(err)
    else:
        raise AssertionError("no error")


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
