"""logsumexp of a length-200 vector written as Python loops over its elements.

The function loops (a running max with a branch, then a running sum); so does
the hand-written gradient's forward part, with the same calls. Its backward
part is one vector expression, since the gradient is the softmax exp(x - m) / s.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def logsumexp(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)


def logsumexp_by_hand(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    g = np.exp(x - m)
    g /= total
    return (g,)


def logsumexp_jax(x):
    import jax.numpy as jnp

    m = x[0]
    for i in range(1, len(x)):
        m = jnp.maximum(m, x[i])  # a branch on a traced value cannot be jitted
    total = 0.0
    for i in range(len(x)):
        total = total + jnp.exp(x[i] - m)
    return m + jnp.log(total)


def logsumexp_jax_jit(x):
    import jax
    import jax.numpy as jnp

    m = jax.lax.fori_loop(1, len(x), lambda i, m: jnp.maximum(m, x[i]), x[0])
    total = jax.lax.fori_loop(0, len(x), lambda i, s: s + jnp.exp(x[i] - m), 0.0)
    return m + jnp.log(total)


def logsumexp_torch(x):
    import torch

    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + torch.exp(x[i] - m)
    return m + torch.log(total)


def inputs(size: str) -> tuple:
    rng = np.random.default_rng(5)
    return (rng.standard_normal(200 if size == "full" else 7) * 3.0,)


WORKLOAD = Workload(
    name="logsumexp_loop",
    title="logsumexp as Python loops, n=200",
    f=logsumexp,
    wrt=(0,),
    by_hand=logsumexp_by_hand,
    inputs=inputs,
    torch_f=logsumexp_torch,
    jax_f=logsumexp_jax,
    jax_jit_f=logsumexp_jax_jit,
)
