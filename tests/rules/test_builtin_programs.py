"""Builtins and math in whole programs: scalar code with math stays in Python floats,
ties in max/min follow np.maximum's rule, and max/min with key= are refused, located."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import math

import numpy as np


def scalar_model(a, b):
    r = math.hypot(a, b, 1.0)
    t = math.atan2(b, a) + math.log(r, 2.0) - math.lgamma(r + 1.0)
    s = max(a, b, 0.1) * min([t, 2.0]) + abs(a - b)
    return math.exp(-s * s) + math.erf(t) + pow(r, 1.5) + math.fsum([a, b, t])


def tie(a, b):
    return max(a, b) + 2.0 * min(a, b)


def tie_numpy(a, b):
    return np.maximum(a, b) + 2.0 * np.minimum(a, b)


def keyed(xs):
    return max(xs, key=abs) * 2.0


def power_at_zero(x):
    return x ** 0.0 + x ** 0 + 3.0 * x ** 1 + x ** 2 + math.pow(x, 0.0)
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("builtins"), SOURCE, "builtin_programs")


def test_scalar_math_program_matches_finite_differences_in_floats(module):
    args = [0.8, -0.35]
    grads = tl.grad(module.scalar_model, wrt=(0, 1))(*args)
    for i, g in enumerate(grads):
        assert type(g) is float  # Python floats in, Python floats out
        assert np.isclose(g, fd_gradient(module.scalar_model, args, i), rtol=1e-6, atol=1e-8)


def test_ties_follow_np_maximum(module):
    """At a tie the whole gradient goes to the last argument, as np.maximum sends it to y."""
    ours = tl.grad(module.tie, wrt=(0, 1))(1.5, 1.5)
    theirs = tl.grad(module.tie_numpy, wrt=(0, 1))(1.5, 1.5)
    assert ours == pytest.approx((0.0, 3.0))
    np.testing.assert_allclose(ours, theirs)


def test_max_with_key_is_refused_at_the_call(module):
    with pytest.raises(TangentlikeError) as err:
        tl.grad(module.keyed)([1.0, -3.0])
    text = str(err.value)
    assert "max" in text and "key" in text and "return max(xs, key=abs) * 2.0" in text


@pytest.mark.parametrize("x", [0.0, -1.5, 2.0])
def test_powers_at_zero_and_below(module, x):
    g = tl.grad(module.power_at_zero)(x)
    assert np.isclose(g, 3.0 + 2.0 * x)  # x ** 0 is constant, also at 0
