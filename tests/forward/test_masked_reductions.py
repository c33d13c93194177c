"""np.sum and np.mean with `where=` (and sum's constant `initial`) in the k-wide forward
form the Jacobian uses: the mask broadcasts against the input's axes, directions first."""

from __future__ import annotations

import numpy as np
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def masked(x):
    a = np.sum(x ** 2, axis=1, where=x > 0)
    b = np.mean(x ** 3, axis=1, where=x > -0.5)
    return a + b + np.sum(x, axis=1, initial=2.0) + np.mean(x, where=x < 1.0)
"""


def test_masked_reductions_in_jacobians(tmp_path):
    f = load_module(tmp_path, SOURCE).masked
    x = np.random.RandomState(0).standard_normal((3, 4))
    forward = tl.jacobian(f, mode="forward")(x)
    reverse = tl.jacobian(f, mode="reverse")(x)
    eps = 1e-6
    columns = []
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = eps
        e = e.reshape(x.shape)
        columns.append((f(x + e) - f(x - e)) / (2 * eps))
    differences = np.stack(columns, axis=-1).reshape(forward.shape)
    np.testing.assert_allclose(forward, reverse, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(forward, differences, rtol=1e-6, atol=1e-7)
