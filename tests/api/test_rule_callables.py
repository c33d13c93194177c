"""`grad` of a callable with a derivative rule and no Python source (a NumPy ufunc, a
builtin): the gradient of the one-line function calling it; without a rule, a clear error."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import fd_gradient

import tangentlike as tl
from tangentlike.errors import SourceNotFoundError

CASES = [
    ("np.exp", np.exp, 0, (0.7,)),
    ("np.tanh", np.tanh, 0, (0.3,)),
    ("np.sum", np.sum, 0, (np.linspace(-1.0, 1.0, 4),)),
    ("np.maximum wrt y", np.maximum, 1, (0.5, 1.5)),
    ("np.arctan2 wrt x", np.arctan2, 1, (0.5, 1.5)),
    ("abs", abs, 0, (-2.0,)),
    ("np.linalg.det", np.linalg.det, 0, (np.array([[2.0, 1.0], [0.5, 3.0]]),)),
]


@pytest.mark.parametrize(
    ("primal", "wrt", "args"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_grad_of_a_rule_backed_callable_matches_finite_differences(primal, wrt, args):
    df = tl.grad(primal, wrt=wrt)
    expected = fd_gradient(lambda *a: float(np.sum(primal(*a))), list(args), wrt)
    assert np.allclose(df(*args), expected, rtol=1e-6, atol=1e-8)
    assert tl.grad(primal, wrt=wrt) is df  # cached like any function


def test_vjp_of_a_ufunc():
    x = np.linspace(0.1, 1.0, 3)
    seed = np.array([1.0, -2.0, 0.5])
    assert np.allclose(tl.vjp(np.exp)(x, seed), seed * np.exp(x))


def test_grad_of_a_builtin_without_rule_says_what_to_do():
    with pytest.raises(SourceNotFoundError) as info:
        tl.grad(math.nextafter)
    message = str(info.value)
    assert "<built-in function nextafter>" in message
    assert "no derivative rule" in message
    assert "tangentlike.adjoint" in message
