"""Saves whose restored values nothing reads (optimize/restores.py), asserted as source:
a dead restore goes with its pushes, a read one stays, any other use of the stack keeps
everything. End to end: gradients whose builds drop such saves (a loop variable restored
before another loop rebinds it) agree with central differences and autograd, and stats count
what the call really kept."""

from __future__ import annotations

import gast
import numpy as np
from reference import autograd_grad, check_against_fd
from stages import body, code

import tangentlike as tl
from tangentlike.optimize import restores


def _run(source: str) -> str:
    fn = gast.parse(code(source)).body[0]
    return body(restores.run(fn, "_stack", "_push", "_pop"))


LOOP = """
def df(x, n, g):
    _stack = []
    _push = _stack.append
    _pop = _stack.pop
    a = None
    b = None
    for i in range(n):
        _push(a)
        a = x * i
        _push(b)
        b = a + 1.0
    for i in reversed(range(n)):
        g = g * b
        b = _pop()
        a = _pop()
    return g
"""


def test_a_dead_restore_goes_with_its_push():
    out = _run(LOOP)
    assert "_push(a)" not in out and "a = _pop()" not in out
    assert "_push(b)" in out and "b = _pop()" in out  # g * b reads b in the next step


def test_a_restore_read_later_or_a_stack_used_otherwise_stays():
    read = LOOP.replace("    return g", "    return g + a")
    assert "a = _pop()" in _run(read)
    passed = LOOP.replace("    return g", "    keep(_stack)\n    return g")
    assert "a = _pop()" in _run(passed)  # the stack passed on: its uses are unknown
    other = LOOP.replace("        a = _pop()", "        a = _pop()\n        c, a = _pop()")
    assert "a = _pop()" in _run(other)  # a popped in another form
    broken = LOOP.replace(
        "        g = g * b", "        if g:\n            break\n        g = g * b"
    )
    assert "a = _pop()" in _run(broken)  # control flow liveness does not follow


def two_loops(x, n):
    m = x[0]
    for i in range(1, n):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(n):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)


def test_gradients_with_dropped_saves_are_right():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(6)
    df = tl.grad(two_loops, checks=False)  # debug mode checks the generic build only
    g = df(x, 6)
    (source,) = df.specialised.values()
    assert "_push(i)" not in source  # the first loop's i: the second loop rebinds it
    check_against_fd(two_loops, g, (x, 6), 0)
    np.testing.assert_allclose(g, autograd_grad(two_loops, (x, 6), 0), rtol=1e-10)
    generic = tl.grad(two_loops)(x, np.int64(6))  # not specialised; checked in debug mode
    np.testing.assert_allclose(generic, g, rtol=1e-12)


def test_stats_count_what_is_kept():
    x = np.random.default_rng(4).standard_normal(6)
    df = tl.grad(two_loops, stats=True, checks=False)
    unoptimized = tl.grad(two_loops, stats=True, optimize=False, checks=False)
    assert "_push(i)" not in df.source and "_push(i)" in unoptimized.source
    np.testing.assert_allclose(df(x, 6), unoptimized(x, 6), rtol=1e-12)
    assert df.stats.pushes == unoptimized.stats.pushes - 1  # the one push of i
    assert df.stats.peak_stack_bytes == unoptimized.stats.peak_stack_bytes - 8
