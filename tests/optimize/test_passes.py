"""The optimize passes on small functions, asserted as source: dead assignments
(optimize/dce.py) and single-use temporaries inlined (optimize/inline.py)."""

from __future__ import annotations

import gast
import pytest
from stages import body, code

from tangentlike.optimize import dce, inline


def _fn(source: str) -> gast.FunctionDef:
    return gast.parse(code(source)).body[0]


def _pure_unless_print(value: gast.expr) -> bool:
    return not any(isinstance(n, gast.Name) and n.id == "print" for n in gast.walk(value))


def test_dead_assignments_go_side_effects_and_loops_stay():
    fn = _fn(
        """
        def f(x, n):
            unused = x * 2.0
            shown = print(x)
            total = x + 1.0
            for i in range(n):
                kept = total * 2.0
                print(i)
            dead = total * 3.0
            return total
        """
    )
    assert body(dce.run(fn, _pure_unless_print)) == code(
        """
        shown = print(x)
        total = x + 1.0
        for i in range(n):
            print(i)
        return total
        """
    )


def test_values_only_their_own_updates_read_go_from_loops_with_their_saves():
    """A running sum nothing returns (the loss, in a gradient) and the temporaries it
    reads go, with the push and pop of one of them; liveness alone keeps them (the next
    step reads the sum). What a kept statement reads stays, through assignments."""
    fn = _fn(
        """
        def f(x, ys, n):
            _stack = []
            _push = _stack.append
            _pop = _stack.pop
            total = 0.0
            s = x
            for t in range(n):
                _push(y)
                y = ys[t]
                p = s * y
                total = total + np.sum(p)
                s = s * 2.0
                if t > 2:
                    total = total - 1.0
            for t in range(n):
                y = _pop()
            return s
        """
    )
    assert body(dce.run(fn, _pure_unless_print)) == code(
        """
        s = x
        for t in range(n):
            s = s * 2.0
            if t > 2:
                pass
        for t in range(n):
            pass
        return s
        """
    )


def test_an_update_in_place_keeps_its_array_alive_while_it_is_read():
    fn = _fn("def f(g, m):\n    b = g * 2.0\n    b *= m\n    c = b\n    return g\n")
    assert body(dce.run(fn, lambda value: True)) == "return g"
    fn = _fn("def f(g, m):\n    b = g * 2.0\n    b *= m\n    return b\n")
    assert body(dce.run(fn, lambda value: True)) == "b = g * 2.0\nb *= m\nreturn b"


def _located(source: str, lines: list[int]) -> gast.FunctionDef:
    fn = _fn(source)
    for stmt, line in zip(fn.body, lines, strict=True):
        for node in gast.walk(stmt):
            if hasattr(node, "lineno"):
                node.lineno = line
    return fn


def test_a_single_use_temporary_is_inlined_into_the_next_statement():
    fn = _located(
        """
        def f(x, W):
            _h1 = x @ W
            h = np.tanh(_h1)
            return h
        """,
        [1, 1, 2],
    )
    assert body(inline.run(fn, lambda value: True)) == "h = np.tanh(x @ W)\nreturn h"


@pytest.mark.parametrize(
    ("source", "lines", "why"),
    [
        ("_h1 = x @ W\nh = np.tanh(_h1) + _h1\nreturn h", [1, 1, 2], "read twice"),
        ("_h1 = x @ W\ny = x\nh = np.tanh(_h1)\nreturn h", [1, 1, 1, 2], "not the next"),
        ("_h1 = x @ W\nh = np.tanh(_h1)\nreturn h", [1, 2, 3], "another source line"),
        ("h = x @ W\ny = np.tanh(h)\nreturn y", [1, 1, 2], "a user's name"),
        ("_h1 = print(x)\nh = np.tanh(_h1)\nreturn h", [1, 1, 2], "not pure"),
    ],
)
def test_what_is_not_inlined(source, lines, why):
    text = "def f(x, W):\n" + "".join(f"    {line}\n" for line in source.splitlines())
    fn = _located(text, lines)
    assert body(inline.run(fn, _pure_unless_print)) == source, why
