"""analyze.numeric.plain_names: names never bound to a list, tuple or dict, given an
argument's checked copy (transform.argument_copies) and the parameter it checks."""

from __future__ import annotations

import textwrap

import gast

from tangentlike.analyze.numeric import plain_names


def _plain(source: str, plain=frozenset({"_y_own1"}), checked=frozenset({"y"})):
    fn = gast.parse(textwrap.dedent(source)).body[0]
    return plain_names(fn, frozenset(), None, plain, checked)


def test_sums_with_the_copy_are_plain():
    found = _plain(
        """
        def f(x, y, zs):
            _y_own1 = entry_copy(y)
            y = _y_own1
            a = r_[y, zs]
            b = a + y
            y = y + b
            c = y - zs
        """
    )
    assert {"_y_own1", "y", "b", "c"} <= found
    assert "a" not in found  # unknown
    assert "x" not in found and "zs" not in found  # parameters not checked


def test_products_loops_and_unchecked_parameters_are_not():
    found = _plain(
        """
        def f(n, y, xs):
            _y_own1 = entry_copy(y)
            y = _y_own1
            a = n * xs
            b = y * xs
            for c in y:
                pass
            d = y
            d, e = xs
            g = n + y
        """
    )
    assert "y" in found
    assert not {"a", "b", "c", "d", "e", "n", "xs"} & found
    assert "g" in found  # n + an array or number: never a list


def test_a_copy_multiplied_in_place_is_not():
    found = _plain(
        """
        def f(y, xs):
            y = entry_copy(y)
            y *= xs
            z = y + 1
        """,
        plain=frozenset({"y"}),
    )
    assert "y" not in found and "z" not in found  # an int y times a list is a list


def test_no_checked_parameter_no_base():
    found = _plain(
        """
        def f(y):
            y = y + 1
        """,
        plain=frozenset(),
        checked=frozenset(),
    )
    assert "y" not in found
