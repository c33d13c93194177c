"""Assignment sites and definite assignment (analyze/flow.py)."""

from __future__ import annotations

from stages import annotated, code, names, prepare

from tangentlike.analyze import flow

SOURCE = """
def f(x, n):
    if n > 2:
        t = x * 2.0
        u = x
    else:
        t = x
    s = t
    for i in range(n):
        s = s * x
    return s
"""


def test_surely_and_maybe_bound_before_each_statement(tmp_path):
    stage = prepare(tmp_path, SOURCE).normalize()
    found = flow.analyze(stage.fn, ["x", "n"])

    def bound(stmt) -> str:
        surely = found.bound_before[id(stmt)]
        maybe = found.maybe_bound_before[id(stmt)] - surely
        return names(surely - {"x", "n"}) + (f" | maybe {names(maybe)}" if maybe else "")

    # u is bound on one branch only; i and the loop's temporaries after the loop only
    # maybe (the loop may run zero times)
    assert annotated(stage.fn, bound) == code(
        """
        _c1 = n > 2
        if _c1:
            t = x * 2.0  # _c1
            u = x  # _c1, t
        else:
            t = x  # _c1
        s = t  # _c1, t | maybe u
        _r1 = range(n)  # _c1, s, t | maybe u
        for i in _r1:
            _s1 = s * x  # _c1, _r1, i, s, t | maybe _s1, u
            s = _s1  # _c1, _r1, _s1, i, s, t | maybe u
        return s  # _c1, _r1, s, t | maybe _s1, i, u
        """
    )
    assert found.bound_at_exit >= {"s", "t", "_r1"} and "u" not in found.bound_at_exit


def test_sites_and_loops(tmp_path):
    stage = prepare(tmp_path, SOURCE).normalize()
    found = flow.analyze(stage.fn, ["x", "n"])
    sites = [(s.name, s.in_loop) for s in found.sites]
    assert sites == [
        ("_c1", False),
        ("t", False),
        ("u", False),
        ("t", False),
        ("s", False),
        ("_r1", False),
        ("i", False),  # the site is the For statement itself, which runs once
        ("_s1", True),
        ("s", True),
    ]
    assert found.site_count("t") == 2 and found.site_count("s") == 2


def test_a_write_into_an_array_is_a_region_site(tmp_path):
    stage = prepare(tmp_path, "def f(x):\n    y = x * 1.0\n    y[0] = 2.0\n    return y\n")
    found = flow.analyze(stage.normalize().fn, ["x"])
    assert [(s.name, s.region) for s in found.sites] == [("y", False), ("y", True)]
    assert found.site_count("y") == 1
