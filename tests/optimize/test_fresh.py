"""Indexed sums into an array just made by unsubscript (optimize/fresh.py), asserted as
source: rewritten in a run of adjacent statements with basic constant indices, left
alone otherwise. End to end: a local's adjoint (`tension[1:] - tension[:-1]`) agrees
with central differences and autograd in the specialised and the generic build."""

from __future__ import annotations

import gast
import numpy as np
from reference import autograd_grad, check_against_fd
from stages import body, code

import tangentlike as tl
from tangentlike import runtime
from tangentlike.optimize import accumulate, fresh


class _Namespace:
    def __init__(self) -> None:
        self.objects = {"unsubscript": runtime.unsubscript, "np": np}


def _run(source: str) -> str:
    fn = gast.parse(code(source)).body[0]
    return body(fresh.run(fn, accumulate.resolver(fn, _Namespace())))


PAIR = """
def df(t, g1, g2, g3):
    bt = unsubscript(-g1, t, slice(None, -1, None))
    bt = bt + unsubscript(g2, t, slice(1, None, None))
    bt += unsubscript(g3, t, 0)
    return bt
"""


def test_updates_after_a_fresh_array_are_in_place():
    assert _run(PAIR) == code(
        """
        bt = unsubscript(-g1, t, slice(None, -1, None))
        bt[1:] += g2
        bt[0] += g3
        return bt
        """
    )


def test_anything_between_or_another_array_keeps_the_update():
    between = PAIR.replace("    bt = bt +", "    keep = bt\n    bt = bt +")
    assert "bt = bt + unsubscript" in _run(between)  # another name may hold the array
    other = PAIR.replace("unsubscript(g2, t,", "unsubscript(g2, s,")
    assert "bt = bt + unsubscript(g2, s" in _run(other)  # s's shape may differ
    reads = PAIR.replace("unsubscript(g2, t,", "unsubscript(bt * g2, t,")
    assert "bt = bt + unsubscript(bt * g2" in _run(reads)
    index = PAIR.replace("slice(1, None, None)", "i")
    assert "bt = bt + unsubscript(g2, t, i)" in _run(index)  # i may repeat items
    looped = PAIR.replace("slice(1, None, None)", "slice(k, None, None)")
    assert "bt = bt + unsubscript(g2, t, slice(k" in _run(looped)
    assert "bt[0] += g3" not in _run(looped)  # the run is broken


def springs(k, q, steps):
    for _ in range(steps):
        stretch = np.diff(np.concatenate(([0.0], q, [0.0])))
        tension = k * stretch
        q = q + 0.1 * (tension[1:] - tension[:-1])
    return np.sum(q * q)


def test_specialised_local_adjoint_is_right():
    rng = np.random.default_rng(4)
    k, q = 1.0 + rng.random(5), rng.standard_normal(4)
    df = tl.grad(springs, wrt=(0, 1), checks=False)  # debug mode checks the generic build only
    g = df(k, q, 3)
    (source,) = df.specialised.values()
    assert "btension[1:] += " in source
    for i in (0, 1):
        check_against_fd(springs, g[i], (k, q, 3), i)
        np.testing.assert_allclose(g[i], autograd_grad(springs, (k, q, 3), i), rtol=1e-10)
    generic = tl.grad(springs, wrt=(0, 1))(k, q, np.int64(3))  # not specialised
    for a, b in zip(g, generic, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
