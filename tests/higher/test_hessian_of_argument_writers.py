"""tl.hessian and tl.jacobian(tl.grad(f)) of a function writing into its argument by
index (holdout13): its gradient is built for the kind of argument passed at each call
(specialize.kind_at_call), a wrapper whose signature read `(*args, **kwargs)`, so the
Jacobian looked its arguments up by name and raised KeyError: 'state'. The wrapper has
the array build's signature. Against central differences on fresh copies; the caller's
array changes as f changes it."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def kick(state, dt):
    state[0] = state[0] + dt * state[1]
    state[1] = state[1] - dt * np.sin(state[0])
    return state[0] ** 2 + state[1] ** 2
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("argument_writers"), SOURCE)


def _fd_hessian(f, x, h=1e-4):
    n = x.size
    H = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
            H[i, j] = (
                f((x + ei + ej).copy())
                - f((x + ei - ej).copy())
                - f((x - ei + ej).copy())
                + f((x - ei - ej).copy())
            ) / (4 * h * h)
    return H


def test_signature_of_the_per_kind_gradient(mod):
    assert list(inspect.signature(tl.grad(mod.kick)).parameters)[:2] == ["state", "dt"]


@pytest.mark.parametrize(
    "way", ["auto", "forward", "reverse", "jacobian_forward", "jacobian_reverse"]
)
def test_hessian_of_a_function_writing_into_its_argument(mod, way):
    s0 = np.array([0.4, 0.3])
    expected = _fd_hessian(lambda s: mod.kick(s, 0.1), s0)
    if way.startswith("jacobian"):
        H = tl.jacobian(tl.grad(mod.kick), mode=way.split("_")[1])
    else:
        H = tl.hessian(mod.kick, method=way)
    state = s0.copy()
    np.testing.assert_allclose(H(state, 0.1), expected, rtol=1e-5, atol=1e-6)
    changed = s0.copy()
    mod.kick(changed, 0.1)
    np.testing.assert_array_equal(state, changed)
