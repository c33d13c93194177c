"""`y[0], y[1] = y[1], y[0]`: Python reads the whole right side before the first write.
Desugared item by item (as names are when no target is read), the second element read
the first one's new value (hold-out 12: value and gradient wrong, no error). Element
targets read their own memory: the right side goes to temporaries first unless every item
of it is a name or a constant (whose objects the writes cannot change, as in Python).
Chained targets (`y[0:2] = y[1:3] = v`) are assigned left to right from the value read
once (they were assigned last first, the others then read back from the last)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module
from stages import code, prepare

import tangentlike as tl


def test_an_element_swap_reads_both_values_first(tmp_path):
    source = "def f(x, y):\n    y[0], y[1] = y[1], y[0]\n    return y\n"
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        _t1 = y[1]
        _t2 = y[0]
        y[0] = _t1
        y[1] = _t2
        return y
        """
    )


def test_names_and_constants_into_elements_stay_item_by_item(tmp_path):
    source = "def f(x, y):\n    y[0], y[1] = x, 2.0\n    return y\n"
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        y[0] = x
        y[1] = 2.0
        return y
        """
    )


def test_chained_element_targets_are_assigned_left_to_right(tmp_path):
    source = "def f(x, y):\n    y[0:2] = y[1:3] = x * 2.0\n    return y\n"
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        _v1 = x * 2.0
        y[0:2] = _v1
        y[1:3] = _v1
        return y
        """
    )


MODULE = """
import numpy as np


def swap(x):
    y = x * 1.0
    y[0], y[1] = y[1], y[0]
    return np.sum(y * np.array([1.0, 2.0, 3.0]))


def rotate_rows(x):
    M = np.outer(x, x) + np.eye(3)
    M[0], M[1], M[2] = M[1] * 2.0, M[2], M[0]
    return np.sum(M * np.arange(9.0).reshape(3, 3))


def chained_overlap(x):
    y = np.zeros(3)
    y[0:2] = y[1:3] = x[:2] * 2.0
    return np.sum(y * np.array([1.0, 2.0, 3.0]))


def chained_index(x):
    y = x * 1.0
    i = 2
    i = y[i - 2] = 1  # i first: the write goes to y[-1], not y[0]
    return np.sum(y * np.array([1.0, 2.0, 3.0])) + i


def through_alias(x):
    y = x * 1.0
    z = y
    y[0], z[2] = x[1] * 3.0, y[0]
    return np.sum(y * np.array([1.0, 2.0, 3.0]))
"""


@pytest.mark.parametrize(
    "name", ["swap", "rotate_rows", "through_alias", "chained_overlap", "chained_index"]
)
def test_element_swaps_against_the_function(tmp_path, name):
    m = load_module(tmp_path, MODULE)
    f = getattr(m, name)
    x = np.array([0.7, -0.4, 1.3])
    value, g = tl.value_and_grad(f)(x.copy())
    assert value == pytest.approx(f(x.copy()))
    check_against_fd(f, g, [x], 0)
    v = np.array([1.0, -0.5, 0.25])
    assert tl.jvp(f)(x.copy(), v)[1] == pytest.approx(float(np.dot(g, v)))
