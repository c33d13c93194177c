"""Liveness (analyze/liveness.py): the names read later, after each simple statement."""

from __future__ import annotations

from stages import annotated, code, names, prepare

from tangentlike.analyze import liveness
from tangentlike.analyze.activity import local_names


def live(tmp_path, source: str) -> str:
    stage = prepare(tmp_path, source).normalize()
    after = liveness.live_after(stage.fn)
    local = local_names(stage.fn)
    return annotated(stage.fn, lambda s: names(after[id(s)] & local) or "-")


def test_straight_line(tmp_path):
    assert live(tmp_path, "def f(x, y):\n    a = x * y\n    b = a + x\n    return b\n") == code(
        """
        a = x * y  # a, x
        b = a + x  # b
        return b  # -
        """
    )


def test_a_loop_keeps_what_the_next_iteration_reads(tmp_path):
    source = """
def f(x, w, n):
    s = 0.0
    for i in range(n):
        s = s + x * w
    return s
"""
    assert live(tmp_path, source) == code(
        """
        s = 0.0  # n, s, w, x
        _r1 = range(n)  # _r1, s, w, x
        for i in _r1:
            _s1 = x * w  # _r1, _s1, s, w, x
            _s2 = s + _s1  # _r1, _s2, w, x
            s = _s2  # _r1, s, w, x
        return s  # -
        """
    )


def test_both_branches_and_a_write_into_an_array(tmp_path):
    source = """
def f(x, k):
    y = x * 1.0
    if k > 2:
        y[0] = k
        t = y * 2.0
    else:
        t = x
    return t
"""
    # y[0] = k reads y: the rest of y survives the write
    assert live(tmp_path, source) == code(
        """
        y = x * 1.0  # k, x, y
        _c1 = k > 2  # _c1, k, x, y
        if _c1:
            y[0] = k  # y
            t = y * 2.0  # t
        else:
            t = x  # t
        return t  # -
        """
    )


def test_reads_and_binds_of_an_update_in_place(tmp_path):
    stage = prepare(tmp_path, "def f(x):\n    z = x * 1.0\n    z += x\n    return z\n").anf()
    update = stage.fn.body[1]
    assert liveness.reads(update) == {"x", "z"} and liveness.binds(update) is None
    assert liveness.binds(stage.fn.body[0]) == "z"
