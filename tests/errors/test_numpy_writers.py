"""NumPy functions that write into their first argument (np.copyto, np.put, ufunc.at),
called in a differentiated function with a differentiated value: refused, located.

Before, `b = a; np.copyto(b, b * 3.0)` (the write through another name for a) gave a
wrong gradient (3 for 9): the check of calls whose result is unused looked for a name
the output depends on among the arguments, and b is not one (a is).
"""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError


def copy_through_an_alias(x):
    a = np.ones(3) * x
    b = a
    np.copyto(b, b * 3.0)
    return np.sum(a)


def add_at_through_an_alias(x):
    a = np.zeros(3) + x
    b = a
    np.multiply.at(b, [0, 0, 2], 2.0)
    return np.sum(a * a)


def put_into_a_buffer(x):
    a = np.zeros(3)
    np.put(a, [1], x)
    return np.sum(a)


@pytest.mark.parametrize(
    "f, name, varied",
    [
        (copy_through_an_alias, "np.copyto", "b"),
        (add_at_through_an_alias, "np.multiply.at", "b"),
        (put_into_a_buffer, "np.put", "x"),
    ],
)
def test_a_numpy_writer_given_a_differentiated_value_is_refused_where_it_is(f, name, varied):
    with pytest.raises(UnsupportedSyntaxError) as caught:
        tl.grad(f)(1.5)
    error = caught.value
    assert f"{name}(...) writes into its first argument in place" in str(error)
    assert f"the differentiated value {varied!r}" in str(error)
    assert error.location.text.strip().startswith("np.")
    assert "What to do: make the new array out of place" in str(error)


def test_a_writer_given_only_constants_still_runs():
    def f(x):
        a = np.zeros(3)
        np.copyto(a, 2.0)
        return np.sum(a * x)

    assert tl.grad(f)(1.5) == pytest.approx(6.0)
