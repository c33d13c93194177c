"""Reduction and broadcasting adjoints in their fast forms: `spread` (the adjoint of a sum
or mean), the NumPy sums a build specialised to its arguments writes for `unbroadcast`,
the vector cases of undiff and unconcatenate, and `b - g` for a contribution `-g`; each
has the value of the general form, and the gradients stay right."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl
from tangentlike import runtime

SOURCE = """
import numpy as np


def rows(x, b, c):
    return np.sum(np.tanh(x + b) * c)


def cols(x, m):
    return np.mean(np.sin(x - m) * x)


def chain(k, q):
    for _ in range(3):
        s = np.diff(np.concatenate(([0.0], q, [0.0])))
        t = k * s
        q = q - 0.1 * (t[1:] - t[:-1])
    return np.sum(q * q) - np.sum(k)


def negated(x, y):
    total = 0.0
    for i in range(len(x)):
        total = total - x[i] * y
    return total - np.sum(np.sin(x) * y)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("reductions"), SOURCE)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (1,), (2000,), ()])
@pytest.mark.parametrize("g", [0.5, np.float64(-2.0), np.float32(3.0), np.array(1.5)])
def test_spread_is_broadcast_to(shape, g):
    x = np.ones(shape)
    got, want = runtime.spread(g, x), np.broadcast_to(g, shape)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want) and not got.flags.writeable
    with pytest.raises(ValueError):
        got[...] = 0.0  # read-only, as np.broadcast_to's view: never updated in place


def test_spread_of_a_kept_axis_and_of_a_number():
    g = np.arange(3.0).reshape(3, 1)
    assert np.array_equal(runtime.spread(g, np.ones((3, 4))), np.broadcast_to(g, (3, 4)))
    assert np.array_equal(runtime.spread(2.0, 1.0), np.broadcast_to(2.0, ()))


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_vector_undiff_and_unconcatenate_agree_with_the_general_forms(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n + 1)
    g = rng.standard_normal(n)
    padded = g
    padded = -np.diff(np.pad(padded, (1, 1)))
    assert np.array_equal(runtime.undiff(g, a, 1, -1), padded)
    assert np.array_equal(runtime.undiff(g, a, 1, 0), padded)
    parts = ([0.0], rng.standard_normal(n), np.ones(2))
    whole = rng.standard_normal(n + 3)
    cuts = np.split(whole, np.cumsum([len(p) for p in parts])[:-1])
    for got, want in zip(runtime.unconcatenate(whole, parts, 0), cuts, strict=True):
        assert np.array_equal(got, want)
        assert np.shares_memory(got, whole) or got.size == 0  # views, as np.split gives


def _specialised_body(df, label) -> str:
    return df.specialised[label].split("def d")[-1]


def test_specialised_sums_replace_unbroadcast_and_stay_right(m):
    rng = np.random.default_rng(0)
    df = tl.grad(m.rows, wrt=(0, 1, 2), checks=False)  # debug mode runs the generic build
    args = [rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal((4, 1))]
    grads = df(*args)
    for i in range(3):
        check_against_fd(m.rows, grads[i], args, i, rtol=1e-5)
        assert np.shape(grads[i]) == np.shape(args[i])
    body = _specialised_body(df, ("x[NN]", "b[N]", "c[N1]"))
    assert "unbroadcast(" not in body
    assert ".sum(axis=0)" in body and "np.sum(" in body and "keepdims=True" in body
    df2 = tl.grad(m.cols, wrt=(0, 1), checks=False)
    args = [rng.standard_normal((3, 4)), rng.standard_normal((3, 1))]
    grads = df2(*args)
    for i in range(2):
        check_against_fd(m.cols, grads[i], args, i, rtol=1e-5)
    assert "keepdims=True" in _specialised_body(df2, ("x[NN]", "m[N1]"))


@pytest.mark.parametrize("n, springs", [(0, 1), (1, 2), (1, 1), (2, 3), (2, 1), (5, 6)])
def test_vector_chain_through_diff_and_concatenate(m, n, springs):
    """Slices, differences and concatenations of vectors whose lengths the specialised
    build bounds (analyze/vectors.py), empty and one-element vectors among them."""
    rng = np.random.default_rng(n)
    args = [1.0 + rng.random(springs), rng.standard_normal(n)]
    df = tl.grad(m.chain, wrt=(0, 1), checks=False)
    grads = df(*args)
    for i in range(2):
        check_against_fd(m.chain, grads[i], args, i, rtol=1e-5)
        assert np.shape(grads[i]) == np.shape(args[i])


def test_a_long_vector_chain_needs_no_unbroadcast(m):
    rng = np.random.default_rng(1)
    df = tl.grad(m.chain, wrt=(0, 1), checks=False)
    df(1.0 + rng.random(7), rng.standard_normal(6))
    body = _specialised_body(df, ("k[N]", "q[N]"))
    assert "unbroadcast(" not in body  # every vector is known to be at least 2 long


def test_a_negated_contribution_is_subtracted(m):
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(6), 0.7]
    df = tl.grad(m.negated, wrt=(0, 1))
    grads = df(*args)
    for i in range(2):
        check_against_fd(m.negated, grads[i], args, i, rtol=1e-5)
    body = df.source.split("def dnegated")[1]
    assert "+ -" not in body and "+= -" not in body and " - " in body
