"""An argument changed in place inside a loop over it, then rebound (corpus.
argument_copy_loops), or rebound to a sum and then updated through a loop over it
(corpus.argument_copy_sums): in reverse mode against central differences and autograd
(on the out-of-place equivalent), in forward mode against central differences; the
caller's array ends up as the function leaves it."""

from __future__ import annotations

import numpy as np
import pytest
from corpus import argument_copy_loops as c
from corpus import argument_copy_sums
from reference import autograd_grad, directional_fd, fd_gradient

import tangentlike as tl
from tangentlike.errors import CheckError

CASES = [*c.CASES, *argument_copy_sums.CASES]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _fd(f, args, i):
    if isinstance(args[i], float):
        return directional_fd(lambda *a: f(*_copies(a)), _copies(args), i, 1.0)
    return fd_gradient(lambda *a: f(*_copies(a)), _copies(args), i)


@pytest.mark.parametrize("case", CASES, ids=lambda k: f"{k[0].__name__}-{CASES.index(k)}")
def test_reverse_mode(case):
    f, make, wrt, equivalent = case
    args = make()
    changed = _copies(args)
    grads = tl.grad(f, wrt=wrt)(*changed)
    caller = _copies(args)
    f(*caller)
    for a, b in zip(changed, caller, strict=True):
        np.testing.assert_array_equal(a, b)
    for i, g in zip(wrt, grads, strict=True):
        np.testing.assert_allclose(g, _fd(f, args, i), rtol=1e-5, atol=1e-6)
        expected = autograd_grad(equivalent, _copies(args), i)
        np.testing.assert_allclose(g, expected, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("case", CASES, ids=lambda k: f"{k[0].__name__}-{CASES.index(k)}")
def test_forward_mode(case):
    f, make, wrt, _ = case
    args = make()
    for i in wrt:
        t = 0.3 if isinstance(args[i], float) else np.linspace(-1.0, 2.0, args[i].size)
        t = t if isinstance(args[i], float) else t.reshape(args[i].shape)
        value, tangent = tl.jvp(f, wrt=i)(*_copies(args), t)
        expected = directional_fd(lambda *a: f(*_copies(a)), _copies(args), i, t)
        np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(value, f(*_copies(args)), rtol=1e-12)


def test_a_write_into_an_argument_a_dict_holds_names_the_dict():
    """The function writes into its own copy of y (not the caller's array): the refusal,
    at the call (runtime.untouched finds D1 holding the copy), names what shares it."""
    with pytest.raises(CheckError) as err:
        tl.grad(c.held_by_a_dict, wrt=1)(0.7, np.array([0.3, -0.7, 1.2, 0.5]))
    message = str(err.value)
    assert "changes 'y' in place, and 'D1' (read afterwards) shares its memory" in message
    assert "argument_copy_loops.py:93:5" in message, message
    assert "caller's array" not in message, message
