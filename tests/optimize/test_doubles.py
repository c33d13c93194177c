"""`b = E` then `b += E` (optimize/doubles.py), asserted as source: the second product
is b itself when the two are adjacent and E is arithmetic on names that does not read
b; kept otherwise. End to end: the adjoints of `x * x` agree with central differences
and autograd for arrays, numbers and in a loop."""

from __future__ import annotations

import gast
import numpy as np
from reference import autograd_grad, check_against_fd
from stages import body, code

import tangentlike as tl
from tangentlike.optimize import doubles


def _run(source: str) -> str:
    return body(doubles.run(gast.parse(code(source)).body[0]))


PAIR = """
def df(g, x):
    bx = g * x
    bx += g * x
    return bx
"""


def test_the_same_product_twice_adds_b_to_itself():
    assert _run(PAIR) == code(
        """
        bx = g * x
        bx += bx
        return bx
        """
    )


def test_other_pairs_are_kept():
    assert "bx += g * y" in _run(PAIR.replace("bx += g * x", "bx += g * y"))
    between = PAIR.replace("    bx += g", "    x = x + 1.0\n    bx += g")
    assert "bx += g * x" in _run(between)  # x changed between the two
    assert "bx += f(g) * x" in _run(PAIR.replace("g * x", "f(g) * x"))  # a call
    assert "bx += bx * x" in _run(PAIR.replace("g * x", "bx * x"))  # E reads b
    assert "bx -= g * x" in _run(PAIR.replace("bx += g", "bx -= g"))
    looped = "def df(g, x, n):\n    for i in n:\n        bx = g * x\n        bx += g * x\n"
    assert "bx += bx" in _run(looped)  # blocks inside loops too


def squares(w, x, steps):
    for _ in range(steps):
        x = np.tanh(x * x * w)
    return np.sum(w * w) + np.sum(x * x)


def test_adjoints_of_squares_are_right():
    rng = np.random.default_rng(5)
    args = (rng.standard_normal(4), rng.standard_normal(4), 3)
    for checks in (False, None):  # the specialised build, and debug mode's generic one
        g = tl.grad(squares, wrt=(0, 1), checks=checks)(*args)
        for i in (0, 1):
            check_against_fd(squares, g[i], args, i)
            np.testing.assert_allclose(g[i], autograd_grad(squares, args, i), rtol=1e-10)
    assert "bw += bw" in tl.grad(squares, checks=False).source
    numbers = (0.3, 0.7, 2)
    g = tl.grad(squares, wrt=(0, 1))(*numbers)
    for i in (0, 1):
        assert type(g[i]) is float
        check_against_fd(squares, g[i], numbers, i)
        np.testing.assert_allclose(g[i], autograd_grad(squares, numbers, i), rtol=1e-10)


def test_a_copy_back_goes_when_neither_name_changed():
    copies = """
def df(g, s):
    b1 = g
    c = b1 * s
    g = b1
    h = g * c
    return h
"""
    assert _run(copies) == code(
        """
        b1 = g
        c = b1 * s
        h = g * c
        return h
        """
    )
    changed = copies.replace("    c = b1 * s", "    b1 = b1 * s")
    assert "g = b1" in _run(changed)
    rebound = copies.replace("    c = b1 * s", "    for g in s:\n        c = g")
    assert "g = b1" in _run(rebound)  # a nested statement binds g


def test_a_copy_read_before_either_name_changes_is_propagated():
    copies = """
def df(g, s):
    b4 = g; c = b4 * s
    b1 = c; g = g + b1
    return g
"""
    assert _run(copies) == code(
        """
        c = g * s
        g = g + c
        return g
        """
    )
    after = copies.replace("    return g", "    return g + b4")
    assert "b4 = g" in _run(after)  # read after g is bound again
    looped = copies.replace(
        "    b1 = c; g = g + b1\n", "    b1 = c; g = g\n    for i in s:\n        c = b1\n"
    )
    assert "b1 = c" in _run(looped)  # read inside a loop
    alone = copies.replace("    b4 = g; c = b4 * s", "    b4 = g\n    c = b4 * s")
    assert "b4 = g" in _run(alone)  # the only statement of its line: its line's block


def test_a_copy_a_push_reads_is_kept():
    # the pop that restores it names the copy: debug mode labels push and pop by names
    pushed = """
def df(g, s):
    b4 = g; _push((b4, s))
    return s
"""
    assert "b4 = g" in body(doubles.run(gast.parse(code(pushed)).body[0], ("_stack", "_push")))
    appended = pushed.replace("_push((b4, s))", "_stack.append(b4)")
    assert "b4 = g" in body(doubles.run(gast.parse(code(appended)).body[0], ("_stack", "_push")))
