"""`np.array(x, copy=False)` (or None) is x itself where x is an array: an update of it
in place changes x, in the value and in the gradient; `copy=True` is a new array."""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np


def never_copied(x):
    y = np.array(x, copy=False)
    y *= 2.0
    return np.sum(np.sin(x) * x)


def copied_if_needed(x):
    y = np.array(x, copy=None)
    y[0] = 0.5
    return np.sum(np.sin(x) * y)


def copied(x):
    y = np.array(x, copy=True)
    y *= 2.0
    return np.sum(np.sin(x) * y)


def decided_later(x, flag=False):
    y = np.array(x, copy=flag)
    y *= 2.0
    return np.sum(x)
"""


def _written(x):  # x[0] = 0.5 changed x itself
    return anp.sum(anp.sin(x) * x)


TWINS = {
    "never_copied": lambda x: anp.sum(anp.sin(2.0 * x) * 2.0 * x),
    "copied_if_needed": lambda x: _written(anp.concatenate([anp.full(1, 0.5), x[1:]])),
    "copied": lambda x: anp.sum(anp.sin(x) * 2.0 * x),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_copy_false_is_the_array_itself(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE, f"array_copy_{name}"), name)
    x = np.array([0.3, -0.8, 1.1])
    assert f(x.copy()) == pytest.approx(TWINS[name](x))
    for checks in (False, True):  # the specialised build; debug mode's generic one
        value, g = tl.value_and_grad(f, checks=checks)(x.copy())
        assert value == pytest.approx(TWINS[name](x), rel=1e-12)
        np.testing.assert_allclose(g, autograd_grad(TWINS[name], (x,), 0), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(f, (x.copy(),), 0), rtol=1e-6, atol=1e-8)


def test_a_copy_decided_at_run_time_is_refused(tmp_path):
    f = load_module(tmp_path, SOURCE, "array_copy_later").decided_later
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(f)(np.ones(3))
    assert "array_copy_later.py:24:" in str(err.value)
    assert "np.asarray(x)" in str(err.value)
