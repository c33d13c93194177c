"""User names that clash with what generated code needs: numpy under other names, a global
`np` that is not NumPy, parameters named like runtime helpers or generated temporaries."""

from __future__ import annotations

import numpy as np
import pytest
from corpus import name_clashes
from reference import fd_gradient

import tangentlike as tl


@pytest.mark.parametrize(
    "f", [name_clashes.f, name_clashes.g, name_clashes.h, name_clashes.uses_stack_names]
)
def test_clashing_names_keep_their_meaning(f):
    rng = np.random.RandomState(0)
    x, w = rng.randn(3), rng.randn(3)
    grads = tl.grad(f, wrt=(0, 1), cache=False)(x, w)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, fd_gradient(f, [x, w], i), rtol=1e-6, atol=1e-8)


def test_loop_variable_used_after_the_loop_and_defaults():
    x = np.random.RandomState(1).randn(3)
    g = tl.grad(name_clashes.loop_variable_reused, cache=False)(x)
    np.testing.assert_allclose(
        g, fd_gradient(name_clashes.loop_variable_reused, [x], 0), rtol=1e-6, atol=1e-8
    )
