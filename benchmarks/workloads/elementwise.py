"""A large elementwise expression over two vectors of 10^6 elements, summed.

Memory traffic decides the time. The hand-written gradient computes each
transcendental once and builds both gradients in place in as few passes
and buffers as it can.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def loss(x, y):
    return np.sum(np.tanh(x) * np.exp(-y * y) + np.sin(x * y) / (1.0 + x * x))


def loss_by_hand(x, y):
    t = np.tanh(x)
    e = np.square(y)
    np.negative(e, out=e)
    np.exp(e, out=e)  # exp(-y^2)
    p = x * y
    c = np.cos(p)
    np.sin(p, out=p)  # p is now sin(x y)
    inv = np.square(x)
    inv += 1.0
    np.reciprocal(inv, out=inv)  # 1 / (1 + x^2)
    c *= inv  # cos(x y) / (1 + x^2)
    # d/dy: tanh(x) e (-2 y) + x cos(x y) / (1 + x^2)
    gy = t * e
    gy *= y
    gy *= -2.0
    gy += x * c
    # d/dx: (1 - tanh^2) e + y cos(x y) / (1 + x^2) - 2 x sin(x y) / (1 + x^2)^2
    np.square(t, out=t)
    np.subtract(1.0, t, out=t)
    t *= e
    c *= y
    t += c
    p *= inv
    p *= inv
    p *= x
    p *= 2.0
    t -= p
    return t, gy


def loss_torch(x, y):
    import torch

    return torch.sum(torch.tanh(x) * torch.exp(-y * y) + torch.sin(x * y) / (1.0 + x * x))


def inputs(size: str) -> tuple:
    rng = np.random.default_rng(7)
    n = 1_000_000 if size == "full" else 9
    return rng.standard_normal(n), rng.standard_normal(n)


WORKLOAD = Workload(
    name="elementwise",
    title="elementwise expression, 10^6 elements",
    f=loss,
    wrt=(0, 1),
    by_hand=loss_by_hand,
    inputs=inputs,
    torch_f=loss_torch,
)
