"""Updates of a name that is an array itself on one path only, and of views made by calls
(issue 13). The gradients of corpus/in_place_paths.py and corpus/in_place_calls.py run
with corpus/in_place.py's cases (tests/transform/test_in_place_updates.py, forward mode in
tests/forward/test_corpus.py); these tests look at the generated code and at what the
caller's values are afterwards.
"""

from __future__ import annotations

import numpy as np
from corpus import in_place_calls as calls
from corpus import in_place_paths as paths

import tangentlike as tl


def written_argument_rebound(x, y):
    y[0] = x[0]
    y = y * 2.0
    return np.sum(y)


def test_a_name_bound_to_an_array_on_one_path_is_asked_at_run_time():
    body = tl.grad(paths.alias_on_one_path).source.split("# forward sweep")[1]
    assert "same_array(z, y," in body, body


def test_an_argument_rebound_on_one_path_is_written_where_it_is_the_copy():
    source = tl.grad(paths.argument_replaced_on_one_path, wrt=(0, 1)).source
    body = source[source.index("# forward sweep") :]
    assert "same_array(y, _y_own" in body and "_y_own1[...] = " in body, body


def test_the_caller_tangent_of_a_copied_argument_is_left_alone():
    # the argument's own copy is new memory: its tangent was the caller's array itself,
    # which the tangent of `y[0] = x[0]` then wrote into
    x, y = np.arange(1.0, 5.0), np.ones(4)
    tx, ty = np.ones(4), np.full(4, 3.0)
    _, jt = tl.jvp(written_argument_rebound, wrt=(0, 1))(x, y.copy(), (tx, ty))
    np.testing.assert_array_equal(ty, np.full(4, 3.0))
    np.testing.assert_array_equal(tx, np.ones(4))
    assert jt == 2.0 * (1.0 + 3.0 * 3)


def test_views_made_by_calls_are_written_back_into_their_base():
    body = tl.grad(calls.squeezed_written_by_index).source.split("# forward sweep")[1]
    assert "same_memory(v, y)" in body and "y[...] = " in body, body
    body = tl.grad(calls.new_axis_view_updated).source.split("# forward sweep")[1]
    assert "y[..., None] = " in body, body
