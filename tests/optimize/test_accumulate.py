"""Indexed adjoint accumulation in place (optimize/accumulate.py) and number zeros
(optimize/zeros.py), asserted as source on small functions: rewritten where the array
is owned, the index basic and x a fixed differentiated parameter; left alone otherwise.
End to end: the specialised gradient of a loop reading x[i] updates bx in place and
agrees with central differences."""

from __future__ import annotations

import gast
import numpy as np
from reference import check_against_fd
from stages import body, code

import tangentlike as tl
from tangentlike import runtime
from tangentlike.optimize import accumulate, zeros


class _Namespace:
    def __init__(self) -> None:
        self.objects = {"unsubscript": runtime.unsubscript, "np": np}


def _run(source: str, wrt=("x",)) -> str:
    fn = gast.parse(code(source)).body[0]
    return body(accumulate.run(fn, wrt, accumulate.resolver(fn, _Namespace())))


LOOP = """
def df(x, r, bs=1.0):
    bx = np.zeros_like(x)
    for i in reversed(r):
        bx = bx + unsubscript(bs, x, i)
    bx = bx + unsubscript(bs, x, slice(1, None, None))
    bx = bx + unsubscript(bs, x, 0)
    return bx
"""


def test_owned_adjoint_with_basic_indices_is_updated_in_place():
    source = LOOP.replace("def df(x, r, bs=1.0):\n", "def df(x, n, bs=1.0):\n    r = range(n)\n")
    assert _run(source) == code(
        """
        r = range(n)
        bx = np.zeros_like(x)
        for i in reversed(r):
            bx[i] += bs
        bx[1:] += bs
        bx[0] += bs
        return bx
        """
    )


def test_a_loop_over_something_else_than_a_range_keeps_its_update():
    # r is a parameter: its items may be arrays of indices (repeated: np.add.at)
    assert "bx = bx + unsubscript(bs, x, i)" in _run(LOOP)
    assert "bx[1:] += bs" in _run(LOOP)


def test_shared_or_foreign_arrays_are_never_written():
    shared = LOOP.replace("    return bx\n", "    seen = bx\n    return bx\n")
    assert "+=" not in _run(shared)  # another name holds the array
    pushed = LOOP.replace("    return bx\n", "    keep(bx)\n    return bx\n")
    assert "+=" not in _run(pushed)  # a call may keep it
    not_wrt = LOOP
    assert "+=" not in _run(not_wrt, wrt=("r",))  # x's dtype is unchecked
    rebound = LOOP.replace(
        "    bx = np.zeros_like(x)\n", "    x = x * 2\n    bx = np.zeros_like(x)\n"
    )
    assert "+=" not in _run(rebound)
    other_start = LOOP.replace("np.zeros_like(x)", "bs * 1.0")
    assert "+=" not in _run(other_start)  # its shape is not x's


def test_number_parameters_get_float_zeros():
    fn = gast.parse(
        code(
            """
            def df(a, x, bs=1.0):
                ba = np.zeros_like(a)
                bx = np.zeros_like(x)
                return ba, bx
            """
        )
    ).body[0]
    out = zeros.run(fn, ("a",), accumulate.resolver(fn, _Namespace()))
    assert body(out) == code("ba = 0.0\nbx = np.zeros_like(x)\nreturn ba, bx")


def logsumexp(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)


def test_specialised_logsumexp_updates_in_place_and_is_exact():
    x = np.random.default_rng(2).standard_normal(7) * 3.0
    df = tl.grad(logsumexp, checks=False)  # debug mode checks the generic build only
    g = df(x)
    (source,) = df.specialised.values()
    assert "bx[i] += " in source and "unsubscript" not in source.split("def dlogsumexp")[1]
    np.testing.assert_allclose(g, np.exp(x - logsumexp(x)), rtol=1e-12)
    check_against_fd(logsumexp, g, (x,), 0)
    # the generic build (a list) is untouched and agrees
    np.testing.assert_allclose(df(list(x)), g, rtol=1e-12)


def scalar_map(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x


def test_float_parameters_accumulate_as_floats():
    df = tl.grad(scalar_map, wrt=(0, 1), checks=False)
    gx, ga = df(0.5, 0.9, 20)
    (source,) = df.specialised.values()
    assert "ba = 0.0" in source
    assert type(gx) is float and type(ga) is float
    for i, g in ((0, gx), (1, ga)):
        check_against_fd(scalar_map, g, (0.5, 0.9, 20), i)
