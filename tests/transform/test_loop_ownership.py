"""Adjoints owned around loops (transform/reverse.py, transform/defined.py): a float
parameter's adjoint, zeroed before the loop and only ever updated, accumulates in place
in the loop (`bW += ...`); one that may share its array, or whose zeros may not be
float, accumulates out of place. Every case against central differences and autograd."""

from __future__ import annotations

import numpy as np
from reference import autograd_grad, check_against_fd

import tangentlike as tl


def _backward(df) -> str:
    return df.source.split("# backward sweep")[1]


def rnn(W, U, h, xs):
    total = 0.0
    for t in range(len(xs)):
        h = np.tanh(h @ W + xs[t] @ U)
        total = total + np.sum(h * h)
    return total


def _check(f, df, args, wrt):
    grads = df(*args)
    for g, i in zip(grads, wrt, strict=True):
        check_against_fd(f, g, args, i)
        np.testing.assert_allclose(g, autograd_grad(f, args, i), rtol=1e-9, atol=1e-12)


def _rnn_args(dtype=np.float64):
    rng = np.random.default_rng(3)
    W = (rng.standard_normal((4, 4)) / 2).astype(dtype)
    U = (rng.standard_normal((3, 4)) / 2).astype(dtype)
    return W, U, rng.standard_normal((2, 4)), rng.standard_normal((5, 2, 3))


def test_parameter_adjoints_accumulate_in_place_in_a_loop():
    df = tl.grad(rnn, wrt=(0, 1))
    _check(rnn, df, _rnn_args(), (0, 1))
    backward = _backward(df)
    assert "bW += " in backward and "bU += " in backward
    assert "bh = bh + " in backward or "bh += " not in backward  # h is rebound: not owned


def test_float32_parameters_keep_their_dtype():
    W, U, h, xs = _rnn_args(np.float32)
    gW, gU = tl.grad(rnn, wrt=(0, 1))(W, U, h, xs)
    assert gW.dtype == np.float32 and gU.dtype == np.float32
    g64 = tl.grad(rnn, wrt=(0, 1))(W.astype(float), U.astype(float), h, xs)
    np.testing.assert_allclose(gW, g64[0], rtol=1e-4, atol=1e-5)


def rebound(W, xs):
    W = W * 2.0
    total = 0.0
    for t in range(len(xs)):
        total = total + np.sum(np.sin(xs[t] @ W))
    return total


def test_a_rebound_parameter_accumulates_out_of_place():
    df = tl.grad(rebound, wrt=(0,))
    rng = np.random.default_rng(4)
    args = (rng.standard_normal((3, 3)), rng.standard_normal((4, 2, 3)))
    _check(rebound, df, args, (0,))
    assert "bW += " not in _backward(df).split("for t in")[1]


def shared(W, xs):
    total = 0.0
    for t in range(len(xs)):
        V = W
        total = total + np.sum(np.cos(xs[t] @ V)) + np.sum(V * V)
    return total


def scalars(a, x, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return np.sum(x)


def test_aliases_and_numbers_are_right():
    rng = np.random.default_rng(5)
    args = (rng.standard_normal((3, 3)), rng.standard_normal((4, 2, 3)))
    _check(shared, tl.grad(shared, wrt=(0,)), args, (0,))
    _check(scalars, tl.grad(scalars, wrt=(0, 1)), (0.9, 0.3, 20), (0, 1))
    _check(scalars, tl.grad(scalars, wrt=(0, 1)), (np.full(3, 0.9), np.full(3, 0.3), 7), (0, 1))


def test_checkpointed_loops_accumulate_out_of_place():
    def ckpt(W, h, xs):
        for t in tl.checkpointed(range(len(xs)), snapshots=2):
            h = np.tanh(W @ h + xs[t])
        return np.sum(h * h)

    df = tl.grad(ckpt, wrt=(0, 1))
    rng = np.random.default_rng(6)
    args = (rng.standard_normal((3, 3)) / 2, rng.standard_normal(3), rng.standard_normal((6, 3)))
    assert "bW = bW + " in _backward(df)
    grads = df(*args)
    for g, i in zip(grads, (0, 1), strict=True):
        check_against_fd(ckpt, g, args, i)
