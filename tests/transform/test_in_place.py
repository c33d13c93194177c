"""In-place adjoint updates never touch arrays the caller or another adjoint can see."""

from __future__ import annotations

import numpy as np
from reference import fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def shared(x, w):
    h = x @ w
    a = np.tanh(h)
    b = np.exp(h)            # h's adjoint gets two contributions
    return np.sum(a * b)


def renamed(x, w):
    h = x @ w
    g = h                    # the adjoint of g is the adjoint of h
    r = np.maximum(g, 0.0)
    return np.sum(r * r) + np.sum(np.sin(h))


def seed_is_not_written(x):
    return np.tanh(x) * 2.0
"""


def test_gradients_with_shared_and_renamed_adjoints(tmp_path):
    module = load_module(tmp_path, SOURCE)
    rng = np.random.RandomState(0)
    x, w = rng.randn(4, 3), rng.randn(3, 2)
    for f in (module.shared, module.renamed):
        gx, gw = tl.grad(f, wrt=(0, 1))(x, w)
        np.testing.assert_allclose(gx, fd_gradient(f, [x, w], 0), rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(gw, fd_gradient(f, [x, w], 1), rtol=1e-6, atol=1e-8)


def test_the_callers_seed_and_inputs_are_left_alone(tmp_path):
    module = load_module(tmp_path, SOURCE)
    x = np.linspace(-1, 1, 5)
    seed = np.arange(5.0)
    x_before, seed_before = x.copy(), seed.copy()
    g = tl.vjp(module.seed_is_not_written)(x, seed)
    np.testing.assert_allclose(g, seed * 2.0 * (1 - np.tanh(x) ** 2))
    np.testing.assert_array_equal(seed, seed_before)
    np.testing.assert_array_equal(x, x_before)
