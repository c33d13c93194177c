"""`z op= v` on a 0-d array: Python keeps z the same array, NumPy's `z op v` is a number.

The out-of-place lowering (transform/in_place.py) keeps a 0-d array an array
(`runtime.updated`) where a later write in place may reach it through another name;
before, such a write was taken for a write into a number and the gradient was wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tangentlike.errors import CheckError


def alias_after_update(x):
    a = np.ones(())
    a *= x
    b = a
    b *= 2.0
    return a


def alias_of_float(x):
    a = 1.0
    a *= x
    b = a
    b *= 2.0
    return a


def item_then_alias(x):
    items = [np.ones(())]
    items[0] += x
    c = items[0]
    c *= 3.0
    return items[0]


def lone_update(x):
    a = np.ones(())
    a *= x
    return a * a


def _central(f, x, eps=1e-6):
    return (float(f(x + eps)) - float(f(x - eps))) / (2 * eps)


@pytest.mark.parametrize(
    "f, value, slope",
    [
        (alias_after_update, lambda x: 2 * x, lambda x: 2.0),
        (alias_of_float, lambda x: x, lambda x: 1.0),
    ],
)
def test_a_0d_array_stays_shared_after_its_update(f, value, slope):
    x = 1.5
    got, g = tl.value_and_grad(f)(x)
    assert float(got) == pytest.approx(value(x)) == pytest.approx(float(f(x)))
    assert float(g) == pytest.approx(slope(x))
    assert float(g) == pytest.approx(_central(f, x), rel=1e-6)


def test_a_0d_array_updated_in_place_keeps_its_gradient_in_forward_mode():
    jf = tl.jvp(alias_after_update, wrt=0)
    value, tangent = jf(1.5, 1.0)
    assert float(value) == pytest.approx(3.0)
    assert float(tangent) == pytest.approx(2.0)


def test_a_0d_array_updated_in_place_differentiates_twice():
    def f(x):
        a = np.ones(())
        a *= x * x
        b = a
        b *= x
        return a

    assert float(tl.grad(tl.grad(f))(1.5)) == pytest.approx(6 * 1.5)


def test_a_0d_item_updated_then_through_an_alias_is_refused_where_it_runs():
    assert float(item_then_alias(1.5)) == pytest.approx(7.5)
    with pytest.raises(CheckError, match=r"c \*= 3\.0.*updates 'c' in place"):
        tl.value_and_grad(item_then_alias)(1.5)


def test_no_helper_where_no_other_write_may_reach_the_array():
    df = tl.grad(lone_update)
    assert float(df(1.5)) == pytest.approx(2 * 1.5)
    assert "updated(" not in df.source
    assert "updated(" in tl.grad(alias_after_update).source
