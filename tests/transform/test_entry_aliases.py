"""A differentiated parameter the function rebinds, which the backward sweep does not
read, is not restored only for its gradient's structure: `gradient_like` reads a second
name bound on entry (transform/assemble.py). Gradients agree with central differences
and autograd, for arrays, numbers and a list argument; a parameter the backward sweep
reads keeps its restores and gets no alias."""

from __future__ import annotations

import numpy as np
from reference import autograd_grad, check_against_fd

import tangentlike as tl


def euler(k, q, v, steps):
    for _ in range(steps):
        force = -k * q
        q, v = q + 0.1 * v, v + 0.1 * force
    return np.sum(q * q) + 0.5 * np.sum(v * v)


def decay(x, a, steps):
    for _ in range(steps):
        x = np.sin(x) * a
    return np.sum(x)


def test_a_rebound_parameter_is_not_restored_for_its_structure():
    rng = np.random.default_rng(6)
    args = (1.0 + rng.random(3), rng.standard_normal(3), rng.standard_normal(3), 4)
    df = tl.grad(euler, wrt=(0, 1, 2), checks=False)
    g = df(*args)
    (source,) = df.specialised.values()
    assert "_v_at_entry1 = v" in source and "_push(v)" not in source
    assert "_v_at_entry1, 'v')" in source  # v's gradient has v's structure on entry
    for checks in (False, None):
        g = tl.grad(euler, wrt=(0, 1, 2), checks=checks)(*args)
        for i in (0, 1, 2):
            check_against_fd(euler, g[i], args, i)
            np.testing.assert_allclose(g[i], autograd_grad(euler, args, i), rtol=1e-10)
    numbers = (1.5, 0.3, -0.2, 3)
    g = tl.grad(euler, wrt=(0, 1, 2))(*numbers)
    for i in (0, 1, 2):
        assert type(g[i]) is float
        np.testing.assert_allclose(g[i], autograd_grad(euler, numbers, i), rtol=1e-10)


def test_a_parameter_the_backward_sweep_reads_keeps_its_restores():
    rng = np.random.default_rng(7)
    args = (rng.standard_normal(3), 0.9, 3)
    df = tl.grad(decay, wrt=(0, 1), checks=False)
    g = df(*args)
    (source,) = df.specialised.values()
    assert "_x_at_entry" not in source and "_push(x)" in source  # sin's adjoint reads x
    for i in (0, 1):
        check_against_fd(decay, g[i], args, i)
        np.testing.assert_allclose(g[i], autograd_grad(decay, args, i), rtol=1e-10)
