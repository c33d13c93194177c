"""A helper whose effect on its arguments tangentlike cannot summarise, called with a
differentiated value where its result carries no gradient, may write that value into
memory the output reads: refused with the call's location, never a gradient that
misses the path (the value changes, the gradient did not follow)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np
import tangentlike as tl


def copy_in(a, x):
    try:  # a construct tangentlike does not differentiate: its effects are unknown
        a[...] = x
    except ValueError:
        pass
    return np.sum(a)


def f(x):
    y = np.zeros(3)
    t = copy_in(y, x)
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def copy_with_numpy(a, x):
    np.copyto(a, x)
    return np.sum(a)


def add_at(a, x):
    np.add.at(a, [0, 1], x[:2])
    return np.sum(a)


def through_numpy(x):
    y = np.zeros(3)
    t = copy_with_numpy(y, x)
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def through_add_at(x):
    y = np.zeros(3)
    t = add_at(y, x)
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def through_a_temporary(x):
    y = np.zeros(3)
    t = copy_in(y, x * 2.0)
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def through_a_name(x):
    y = np.zeros(3)
    u = x * 2.0
    t = copy_in(y, u)
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def stopped_temporary(x):
    y = np.zeros(3)
    t = copy_in(y, tl.stop_gradient(x * 2.0))
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s


def stopped(x):
    y = np.zeros(3)
    t = copy_in(y, tl.stop_gradient(x))
    s = 2.0 if t > 1.0 else 1.0
    return np.sum(y * x) * s
"""


def test_a_helper_with_unknown_effects_given_a_differentiated_value(tmp_path):
    m = load_module(tmp_path, SOURCE, "unknown_effects")
    x = np.array([0.7, 0.4, 0.3])
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(m.f)(x)  # was [1.4, 0.8, 0.6]: the path through y lost (2.8, 1.6, 1.2)
    message = str(err.value)
    assert "unknown_effects.py:16:" in message, message
    assert "copy_in(...) receives the differentiated value 'x'" in message, message
    assert "tl.stop_gradient(x)" in message, message
    # the escape hatch: y holds x's values, taken as constants
    np.testing.assert_allclose(tl.grad(m.stopped)(x), 2.0 * x, rtol=1e-12)


@pytest.mark.parametrize("name, line", [("through_numpy", 22), ("through_add_at", 27)])
def test_a_helper_writing_through_numpy_changes_its_parameter(tmp_path, name, line):
    # np.copyto and a ufunc's .at write into their first argument: the helper's summary
    # says it changes that parameter (it said nothing: gradients missed the path)
    m = load_module(tmp_path, SOURCE, f"numpy_writes_{name}")
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(getattr(m, name))(np.array([0.7, 0.4, 0.3]))
    assert f"numpy_writes_{name}.py:{line}:" in str(err.value), str(err.value)


@pytest.mark.parametrize(
    "name, shown", [("through_a_temporary", "`x * 2.0`"), ("through_a_name", "'u'")]
)
def test_a_differentiated_value_no_path_takes_to_the_output(tmp_path, name, shown):
    """The value given (x * 2.0) reaches the output by no path the analysis sees (only
    through y, which copy_in writes): it is still differentiated (it varies with x), so
    the call is refused. It was differentiated as if y held constants: 4x, not 8x."""
    m = load_module(tmp_path, SOURCE, f"unknown_effects_{name}")
    x = np.array([0.1, 0.2, 0.3])
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(getattr(m, name))(x)
    message = str(err.value)
    assert f"copy_in(...) receives the differentiated value {shown}" in message, message
    # stopped, the values copy_in writes into y are constants: d/dx 2 * sum(y * x) = 2 y
    np.testing.assert_allclose(tl.grad(m.stopped_temporary)(x), 4.0 * x, rtol=1e-12)
