"""Messages name an argument the function changes, never its own copy (`_y_own1`):
parse.shown on its own, and the two refusals of corpus.own_copy_messages."""

from __future__ import annotations

import gast
import numpy as np
import pytest
from corpus import own_copy_messages as c

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError
from tangentlike.parse.shown import own_param, shown

SOURCE = "def f(x, my_y, *zs):\n    return x\n"
FN = gast.parse(SOURCE).body[0]


def test_own_copies_shown_as_their_parameter():
    assert own_param("_x_own1", FN, SOURCE) == "x"
    assert own_param("_my_y_caller2", FN, SOURCE) == "my_y"
    assert shown("into '_x_own1', from _zs_own3.", FN, SOURCE) == "into 'x', from zs."


def test_other_names_kept():
    assert own_param("_w_own1", FN, SOURCE) is None  # w is no parameter
    assert own_param("x_own1", FN, SOURCE) is None
    assert shown("'_x1' and '__x_own1x'", FN, SOURCE) == "'_x1' and '__x_own1x'"
    user = "def f(x):\n    _x_own1 = x\n    return _x_own1\n"  # the user's own name
    assert shown("'_x_own1'", gast.parse(user).body[0], user) == "'_x_own1'"


def test_compile_time_refusal_names_the_argument():
    args = (0.5, np.array([1.0, 3.0, 2.0]), np.ones((3, 3)))
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(c.through_helper)(*args)
    message = str(err.value)
    assert "_own" not in message and "_caller" not in message
    assert "the memory of 'y'" in message and "read it again from y after" in message


def test_run_time_refusal_names_the_argument():
    with pytest.raises(CheckError) as err:
        tl.grad(c.partly_the_argument)(1.5, np.array([1.0, 3.0, 2.0]), 1)
    message = str(err.value)
    assert "_own" not in message and "_caller" not in message
    assert "'y' is not the array passed as 'y' (whose update the gradient follows)" in message


def test_item_update_refusal_names_the_list_argument():
    with pytest.raises(CheckError) as err:
        tl.grad(c.item_updated_in_place)(1.5, [np.array([1.0, 2.0]), np.array([3.0, 4.0])])
    message = str(err.value)
    assert "_own" not in message and "_caller" not in message
    assert "`xs[0] *= 0.5` updates the item of 'xs' in place" in message


@pytest.mark.parametrize("n", [3, 1])
def test_the_copy_or_a_new_array_is_followed(n):
    """rebound_then_view, once refused at run time: y is the argument's copy (n < 2) or
    a new array sharing none of it (n >= 2), and the gradient follows the updates."""
    f = c.rebound_then_view
    y = np.array([1.0, 3.0, 2.0])
    gx, gy = tl.grad(f, wrt=(0, 1))(1.5, y.copy(), n)
    eps = 1e-6
    fd_x = (f(1.5 + eps, y.copy(), n) - f(1.5 - eps, y.copy(), n)) / (2 * eps)
    fd_y = [(f(1.5, y + eps * e, n) - f(1.5, y - eps * e, n)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(gx, fd_x, rtol=1e-6)
    np.testing.assert_allclose(gy, fd_y, rtol=1e-6, atol=1e-9)
