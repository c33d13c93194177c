"""A tanh RNN over T = 100 steps (batch 8, hidden 32, inputs 16), a readout at every step.

The hand-written gradient keeps every hidden state in one preallocated array,
runs the backward recurrence step by step, and forms the weight gradients
after the loop with one matrix product each over all steps, as an expert does.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def loss(W, U, b, h, xs, ys):
    total = 0.0
    for t in range(len(xs)):
        h = np.tanh(h @ W + xs[t] @ U + b)
        total = total + np.sum(h * ys[t])
    return total


def loss_by_hand(W, U, b, h, xs, ys):
    T = len(xs)
    hs = np.empty((T + 1, *h.shape))
    hs[0] = h
    for t in range(T):
        a = hs[t] @ W
        a += xs[t] @ U
        a += b
        np.tanh(a, out=hs[t + 1])
    gA = np.empty((T, *h.shape))  # gradient on each step's pre-activation
    gh = np.zeros_like(h)
    for t in range(T - 1, -1, -1):
        gh += ys[t]
        g = gA[t]
        np.multiply(hs[t + 1], hs[t + 1], out=g)
        np.subtract(1.0, g, out=g)
        g *= gh
        gh = g @ W.T
    flat = gA.reshape(-1, gA.shape[-1])
    gW = hs[:-1].reshape(-1, h.shape[-1]).T @ flat
    gU = xs.reshape(-1, xs.shape[-1]).T @ flat
    return gW, gU, flat.sum(axis=0)


def loss_jax_jit(W, U, b, h, xs, ys):
    import jax
    import jax.numpy as jnp

    def step(h, xy):
        x, y = xy
        h = jnp.tanh(h @ W + x @ U + b)
        return h, jnp.sum(h * y)

    _, totals = jax.lax.scan(step, h, (xs, ys))
    return jnp.sum(totals)


def loss_torch(W, U, b, h, xs, ys):
    import torch

    total = 0.0
    for t in range(len(xs)):
        h = torch.tanh(h @ W + xs[t] @ U + b)
        total = total + torch.sum(h * ys[t])
    return total


def inputs(size: str) -> tuple:
    T, batch, hidden, n_in = (100, 8, 32, 16) if size == "full" else (6, 2, 3, 2)
    rng = np.random.default_rng(2)
    W = rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)
    U = rng.standard_normal((n_in, hidden)) / np.sqrt(n_in)
    b = 0.1 * rng.standard_normal(hidden)
    h = rng.standard_normal((batch, hidden))
    xs = rng.standard_normal((T, batch, n_in))
    ys = rng.standard_normal((T, batch, hidden)) / T
    return W, U, b, h, xs, ys


WORKLOAD = Workload(
    name="rnn",
    title="tanh RNN, T=100, batch 8, hidden 32",
    f=loss,
    wrt=(0, 1, 2),
    by_hand=loss_by_hand,
    inputs=inputs,
    torch_f=loss_torch,
    jax_jit_f=loss_jax_jit,
)
