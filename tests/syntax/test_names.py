"""syntax/names.py: deterministic fresh names that clash with nothing reserved."""

from __future__ import annotations

from tangentlike.syntax.names import Namer


def test_temporaries_count_per_base_and_skip_taken_names():
    namer = Namer(reserved={"_x1", "np"}, locals_={"x", "y"})
    assert [namer.temp("x"), namer.temp("x"), namer.temp("_y"), namer.temp("")] == [
        "_x2",
        "_x3",
        "_y1",
        "_t1",
    ]
    assert namer.is_local("_x2") and namer.is_local("x") and not namer.is_local("np")


def test_exact_names_get_a_suffix_when_taken():
    namer = Namer(reserved={"bx", "bx_2"})
    assert [namer.exact("bx"), namer.exact("bx"), namer.exact("by")] == ["bx_3", "bx_4", "by"]
    assert namer.taken("by") and not namer.taken("bz")


def test_answers_depend_only_on_the_order_of_requests():
    def answers() -> list[str]:
        namer = Namer(reserved={"a", "_a1"})
        return [namer.temp("a"), namer.exact("a"), namer.temp("b"), namer.exact("b")]

    assert answers() == answers() == ["_a2", "a_2", "_b1", "b"]


def test_snapshot_and_restore():
    namer = Namer()
    state = namer.snapshot()
    namer.temp("x")
    namer.reserve("kept")
    namer.restore(state)
    assert namer.temp("x") == "_x1" and not namer.taken("kept")
