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


def made_by_arithmetic(x):
    a = x * 2.0
    a *= x
    b = a
    b *= 2.0
    return a


def argument_changed(x, a):
    a *= x
    b = a
    b *= 2.0
    return np.sum(a) * x


def copied_0d(x, p):
    a = np.copy(p)
    a *= x
    b = a
    b *= 2.0
    return a


def _grad_line(df, text):
    return [line for line in df.source.splitlines() if text in line]


def test_no_helper_where_the_value_is_made_by_arithmetic():
    """`x * 2.0` is a number or an array of one dimension at least, never a 0-d array."""
    df = tl.grad(made_by_arithmetic)
    assert "updated(" not in df.source
    for x in (1.5, np.array(1.5)):
        assert float(df(x)) == pytest.approx(4 * float(x))
        assert float(df(x)) == pytest.approx(_central(made_by_arithmetic, float(x)))


def test_a_copy_of_a_0d_array_keeps_the_helper():
    """np.copy of a 0-d array is one: the helper stays, and the update through `b` is
    refused where it runs (located), never taken for a write into a number."""
    df = tl.grad(copied_0d)
    assert " updated(" in df.source
    assert float(copied_0d(1.5, np.array(3.0))) == pytest.approx(9.0)
    with pytest.raises(CheckError, match=r"b \*= 2\.0.*updates 'b' in place"):
        df(1.5, np.array(3.0))


@pytest.mark.parametrize("a", [np.array(2.0), np.array([2.0, -1.0])])
def test_an_argument_changed_in_place_is_right_for_0d_and_1d_arrays(a):
    """The generic build keeps the helper (the argument may be a 0-d array); the build
    specialised to a 1-d array drops it; both give the right gradient."""
    df = tl.grad(argument_changed, checks=False)  # the specialised builds are asked for
    assert " updated(" in df.source

    def value(x):
        return argument_changed(x, a.copy())

    expected = _central(value, 1.5)
    got = df(1.5, a.copy())
    assert float(got) == pytest.approx(expected, rel=1e-6)
    if a.ndim:
        arrays = [s for label, s in df.specialised.items() if "a[N]" in label]
        assert arrays and all(" updated(" not in s for s in arrays)


def _squared_in_place(b):
    np.multiply(b, b, out=b)
    return b


def updated_then_viewed(x, y):
    y += y
    _squared_in_place(y)
    head = y[0:1]
    head /= -0.5
    return np.sum(y**2) * x


def test_a_view_of_an_updated_array_is_of_the_array_not_of_the_update_result():
    """In the build specialised to a 1-d y, `y += y` is `_y1 = y + y; y = _y1`; the view
    `head = y[0:1]` must stay one of y. Taken for one of `_y1`, its update was written
    through `_y1`, which was then read after the write into y by np.multiply(out=) and
    refused (random program seed 0 #52)."""
    df = tl.grad(updated_then_viewed, wrt=(0, 1), checks=False)
    y = np.array([0.3, 0.5, 0.7, 0.2])
    gx, gy = df(1.5, y.copy())
    ref_x = _central(lambda x: updated_then_viewed(x, y.copy()), 1.5)
    ref_y = [
        _central(lambda t, i=i: updated_then_viewed(1.5, np.where(np.arange(4) == i, t, y)), y[i])
        for i in range(4)
    ]
    assert float(gx) == pytest.approx(ref_x, rel=1e-6)
    np.testing.assert_allclose(gy, ref_y, rtol=1e-6)
    assert any("y[N]" in label for label in df.specialised)


def updated_then_aliased(y):
    y = y * 2.0
    y -= y * 0.5
    v1 = y
    z1 = v1
    z1 -= v1 * 0.5
    y *= 3.0
    return np.sum(v1 * y)


def test_an_alias_of_an_updated_array_is_updated_through_the_array():
    """`y -= ...` is `_y1 = y - ...; y = _y1` in the build specialised to a 1-d y: y is
    that memory, not a view of the temporary. Taken for one, `y *= 3.0` was written
    through `_y1`, read after the update through the alias z1, and refused (hvp seed
    12 #287, which that made a refusal for a while)."""
    df = tl.grad(updated_then_aliased, checks=False)
    y = np.array([0.3, 0.5])
    expected = [
        _central(lambda t, i=i: updated_then_aliased(np.where(np.arange(2) == i, t, y)), y[i])
        for i in range(2)
    ]
    np.testing.assert_allclose(df(y.copy()), expected, rtol=1e-6)
    assert any("y[N]" in label for label in df.specialised)
