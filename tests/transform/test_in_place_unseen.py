"""Updates whose other sharers are asked at run time, and links above the updated view
that may be copies (issue 13). The gradients of corpus/in_place_unseen.py run with
corpus/in_place.py's cases (tests/transform/test_in_place_updates.py, forward mode in
tests/forward/test_corpus.py); these tests look at the generated code, the caller's
arrays and the value returned.
"""

from __future__ import annotations

import numpy as np
from corpus import in_place_unseen as unseen

import tangentlike as tl


def test_a_name_that_may_share_is_asked_at_run_time():
    body = tl.grad(unseen.largest_of_an_item_read).source.split("# forward sweep")[1]
    assert "untouched(z, (s,)," in body and "v[1:3] = " in body, body


def test_a_reshape_above_the_updated_alias_is_asked_at_run_time():
    body = tl.grad(unseen.alias_of_a_reshaped_array).source.split("# forward sweep")[1]
    assert "same_memory(z1, M1)" in body and "M1[...] = " in body, body


def test_the_caller_sees_the_update_of_its_argument():
    y = np.arange(1.0, 5.0)
    expected = y.copy()
    unseen.alias_of_the_argument_and_returns(expected, 0.7)
    tl.grad(unseen.alias_of_the_argument_and_returns)(y, 0.7)
    np.testing.assert_array_equal(y, expected)


def test_the_value_is_the_array_before_the_backward_sweep_restores_it():
    def restored(x):
        m = np.array(2.0 * x)
        m[...] = 3.0 * x
        return m

    value, grad = tl.value_and_grad(restored)(0.7)
    assert value == 3.0 * 0.7 and grad == 3.0
    value, grad = tl.value_and_grad(unseen.returned_array_restored, wrt=1)(np.ones(4), 0.7)
    np.testing.assert_allclose(value, unseen.returned_array_restored(np.ones(4), 0.7))
