"""Updates through chains of views, writes into a base whose views are read afterwards,
and arguments changed in place that the result may share (issue 13).

The gradients of corpus/in_place_chains.py run with corpus/in_place.py's cases (in
tests/transform/test_in_place_updates.py and tests/forward/test_corpus.py); these tests
look at what the generated code does and at the run-time refusals.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import in_place_chains as c
from reference import fd_gradient

import tangentlike as tl
from tangentlike.errors import CheckError


def last_of_the_changed_argument(y, n):
    np.multiply(y, y, out=y)
    for i in range(n):
        return y[i]


def row_of_the_changed_argument(X, i):
    X *= 2.0
    r = X[i]
    return r


def test_an_update_through_a_chain_writes_the_top_array_only():
    source = tl.grad(c.alias_of_a_view_of_the_argument).source
    body = source[source.index("# forward sweep") :]
    assert "y[1:3] = _z" in body  # the top, by index
    assert "z2[" not in body.split("# backward sweep")[0]  # no write into the views


def test_rows_of_a_loop_keep_no_copy_of_the_matrix():
    source = tl.grad(c.rows_of_the_argument, wrt=(0, 1)).source
    body = source[source.index("# forward sweep") :]
    assert "kept_apart(" in body and "np.copy(_seq" not in body


def test_a_number_returned_from_a_changed_argument_is_differentiated():
    y = np.array([1.5, -2.0, 0.5, 3.0])
    expected = y.copy()
    last_of_the_changed_argument(expected, 2)
    g = tl.grad(last_of_the_changed_argument, wrt=0)(y, 2)
    np.testing.assert_array_equal(y, expected)  # the caller's array changes, as in f
    before = np.array([1.5, -2.0, 0.5, 3.0])
    fd = fd_gradient(lambda a: last_of_the_changed_argument(a.copy(), 2), [before], 0)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_a_number_from_a_changed_argument_passes_the_return_check():
    g = tl.grad(row_of_the_changed_argument, wrt=0)(np.ones(2), 0)
    np.testing.assert_allclose(g, [2.0, 0.0])


def test_a_row_of_a_changed_argument_returned_is_refused_at_the_update():
    df = tl.vjp(row_of_the_changed_argument, wrt=0)
    with pytest.raises(CheckError, match=r"test_in_place_chains\.py:\d+:\d+: ") as err:
        df(np.ones((2, 2)), 0, np.ones(2))
    message = str(err.value)
    assert "`X *= 2.0` changes the argument 'X' in place" in message, message
    assert "the result returned shares its memory" in message, message


def test_a_list_passed_for_a_changed_argument_is_refused_when_it_runs():
    def first_after_a_write(x):
        xs = x
        xs[0] = 2.0
        return xs[0]

    np.testing.assert_allclose(tl.grad(first_after_a_write)(np.ones(3)), np.zeros(3))
    with pytest.raises(CheckError, match=r"changes the argument 'x' in place.*pass an array"):
        tl.grad(first_after_a_write)([0.5, 1.5, 2.5])
