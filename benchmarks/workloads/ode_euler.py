"""Explicit Euler on a chain of 6 masses and 7 springs between two walls: 1,000 steps.

The function computes the spring stretches with diff/concatenate at every step.
The hand-written gradient sees that the force is linear, -K q with
K = D^T diag(k) D (D the (n+1) x n difference matrix), runs forward and
backward recurrences with K, and forms the stiffness gradient after the loop
from all steps at once.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def final_energy(k, q, v, dt, steps):
    for _ in range(steps):
        stretch = np.diff(np.concatenate(([0.0], q, [0.0])))
        tension = k * stretch
        force = tension[1:] - tension[:-1]
        q, v = q + dt * v, v + dt * force
    return np.sum(q * q) + 0.1 * np.sum(v * v)


def final_energy_by_hand(k, q, v, dt, steps):
    n = len(q)
    D = np.zeros((n + 1, n))  # stretch = D @ q
    D[np.arange(n), np.arange(n)] = 1.0
    D[np.arange(1, n + 1), np.arange(n)] = -1.0
    K = D.T @ (k[:, None] * D)  # force = -K @ q; K is symmetric
    Q = np.empty((steps, n))
    for t in range(steps):
        Q[t] = q
        q, v = q + dt * v, v - dt * (K @ q)
    gq, gv = 2.0 * q, 0.2 * v
    GV = np.empty((steps, n))  # gradient on v after each step
    for t in range(steps - 1, -1, -1):
        GV[t] = gv
        gq, gv = gq - dt * (K @ gv), gv + dt * gq
    gk = np.sum((Q @ D.T) * (GV @ D.T), axis=0)
    gk *= -dt
    return gk, gq, gv


def final_energy_jax(k, q, v, dt, steps):
    import jax.numpy as jnp

    zero = jnp.zeros(1)  # jnp.concatenate takes arrays, not lists
    for _ in range(steps):
        stretch = jnp.diff(jnp.concatenate((zero, q, zero)))
        tension = k * stretch
        force = tension[1:] - tension[:-1]
        q, v = q + dt * v, v + dt * force
    return jnp.sum(q * q) + 0.1 * jnp.sum(v * v)


def final_energy_jax_jit(k, q, v, dt, steps):
    import jax
    import jax.numpy as jnp

    def step(_, state):
        q, v = state
        stretch = jnp.diff(jnp.concatenate((jnp.zeros(1), q, jnp.zeros(1))))
        tension = k * stretch
        return q + dt * v, v + dt * (tension[1:] - tension[:-1])

    q, v = jax.lax.fori_loop(0, steps, step, (q, v))
    return jnp.sum(q * q) + 0.1 * jnp.sum(v * v)


def final_energy_torch(k, q, v, dt, steps):
    import torch

    zero = torch.zeros(1, dtype=q.dtype)
    for _ in range(steps):
        stretch = torch.diff(torch.cat((zero, q, zero)))
        tension = k * stretch
        force = tension[1:] - tension[:-1]
        q, v = q + dt * v, v + dt * force
    return torch.sum(q * q) + 0.1 * torch.sum(v * v)


def inputs(size: str) -> tuple:
    rng = np.random.default_rng(6)
    n = 6
    k = 1.0 + rng.random(n + 1)
    return k, rng.standard_normal(n), rng.standard_normal(n), 0.01, 1000 if size == "full" else 20


WORKLOAD = Workload(
    name="ode_euler",
    title="explicit Euler, spring chain of 6, 1000 steps",
    f=final_energy,
    wrt=(0, 1, 2),
    by_hand=final_energy_by_hand,
    inputs=inputs,
    torch_f=final_energy_torch,
    jax_f=final_energy_jax,
    jax_jit_f=final_energy_jax_jit,
)
