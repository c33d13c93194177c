"""A scalar iterated map on Python floats: 1,000 steps of x = x * a + sin(x) * 0.1.

Every value is a scalar, so the time is all interpreter and call overhead. The
hand-written gradient runs the same loop (np.sin, as the function does) keeping
each x in a list, takes the derivative factors a + 0.1 cos(x) in one vector
call, and runs the backward recurrence on Python floats.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def iterate(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x


def iterate_by_hand(x, a, steps):
    xs = [0.0] * steps
    for t in range(steps):
        xs[t] = x
        x = x * a + np.sin(x) * 0.1
    factors = (a + 0.1 * np.cos(np.array(xs))).tolist()  # d x_{t+1} / d x_t
    gx, ga = 1.0, 0.0
    for t in range(steps - 1, -1, -1):
        ga += gx * xs[t]
        gx *= factors[t]
    return float(gx), float(ga)


def iterate_torch(x, a, steps):
    import torch

    for _ in range(steps):
        x = x * a + torch.sin(x) * 0.1
    return x


def iterate_jax_jit(x, a, steps):
    import jax

    return jax.lax.fori_loop(0, steps, lambda _, x: x * a + jax.numpy.sin(x) * 0.1, x)


def inputs(size: str) -> tuple:
    return 0.5, 0.9, 1000 if size == "full" else 25


WORKLOAD = Workload(
    name="scalar_map",
    title="scalar map x*a + sin(x)*0.1, 1000 steps, floats",
    f=iterate,
    wrt=(0, 1),
    by_hand=iterate_by_hand,
    inputs=inputs,
    torch_f=iterate_torch,
    jax_jit_f=iterate_jax_jit,
)
