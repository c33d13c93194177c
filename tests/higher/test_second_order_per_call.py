"""A gradient built at each call (the function takes a function, here as a default
argument: autograd's test_plain_numpy_reductions_on_box) differentiated again: refused,
located at the user's function and naming the parameter, not at tangentlike's own
wrapper code (specialize.py's `*args`, which the refusal used to show)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np

base = np.arange(1.0, 6.0)


def f_passed(a, _r=np.sum):
    return _r(np.exp(a) * base)


def f_named(a):
    return np.sum(np.exp(a) * base)
"""

PHI = """
import numpy as np


def phi(x, seed, u):
    return np.sum(df(x, seed) * u)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("per_call2"), SOURCE, name="tl_second_per_call")


def assert_located_at_user_function(error, m):
    text = str(error.value)
    assert error.value.location.filename == m.__file__
    assert error.value.location.line == 7  # def f_passed(a, _r=np.sum):
    assert "the gradient of f_passed is built at each call" in text
    assert "`_r`" in text
    assert "specialize.py" not in text and "per_call.<locals>" not in text


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_a_per_call_gradient_is_refused_at_the_users_function(m, method):
    x, v = np.linspace(-0.5, 0.5, 5), np.ones(5)
    g = tl.grad(m.f_passed)(x)  # first order is built per call, and right
    assert np.allclose(g, np.exp(x) * m.base)
    with pytest.raises(tl.UnsupportedSyntaxError) as error:
        tl.hvp(m.f_passed, method=method)(x, v)
    assert_located_at_user_function(error, m)
    # the hint's rewrite works
    assert np.allclose(tl.hvp(m.f_named, method=method)(x, v), np.exp(x) * m.base * v)


def test_gradient_of_a_function_calling_a_per_call_gradient_is_refused(m, tmp_path):
    """What scripts/autograd_suite.py --order 2 does: tl.grad of x -> <vjp(x, s), u>."""
    mod = load_module(tmp_path, PHI, name="tl_per_call_phi")
    mod.df = tl.vjp(m.f_passed)
    x = np.linspace(-0.5, 0.5, 5)
    with pytest.raises(tl.UnsupportedSyntaxError) as error:
        tl.grad(mod.phi)(x, 1.0, np.ones(5))
    assert_located_at_user_function(error, m)
