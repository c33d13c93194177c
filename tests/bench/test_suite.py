"""The suite's machinery on small inputs, without the bench extra: checks before timing,
n/a for missing APIs, WRONG for a disagreeing contender, ratios, the tables and JSON."""

from __future__ import annotations

import json

import numpy as np

from benchmarks import report, suite, timing, workloads
from benchmarks.contenders import KINDS, NotAvailable, Prepared
from benchmarks.contenders.common import numpy_tuple, refused

FAST = {"rounds": 3, "batch_s": 1e-4, "budget_s": 1.0}


def wrong(task):
    return Prepared(
        lambda: tuple(np.zeros(np.shape(task.args[i])) for i in task.workload.wrt), numpy_tuple
    )


def missing(task):
    raise NotAvailable("not available (no such API)")


def crashing(task):
    def call():
        raise RuntimeError("boom")

    return Prepared(call, numpy_tuple)


def test_suite_checks_then_times_and_reports():
    grad = dict(KINDS["grad"])
    rows = [
        ("hand-written", grad["hand-written"]),
        ("f alone", grad["f alone"]),
        ("tangentlike", grad["tangentlike"]),
        ("wrong", wrong),
        ("missing", missing),
        ("crashing", crashing),
    ]
    selected = workloads.load(["tiny_ops", "scalar_map"])
    section = suite.run_kind("grad", selected, rows, FAST, size="test")
    per = section["workloads"]["tiny_ops"]["contenders"]
    assert per["hand-written"]["ratio"]["median"] == 1.0
    assert per["tangentlike"]["status"] == "ok" and per["tangentlike"]["ratio"]["median"] > 0
    assert per["f alone"]["status"] == "context" and "ratio" in per["f alone"]
    assert per["wrong"]["status"] == "wrong" and "ratio" not in per["wrong"]
    assert per["missing"] == {"status": "n/a", "reason": "not available (no such API)"}
    assert per["crashing"]["status"] == "error" and "boom" in per["crashing"]["reason"]
    assert section["geomean"]["tangentlike"]["count"] == 2
    assert section["geomean"]["wrong"]["count"] == 0

    result = {
        "meta": suite.meta(FAST, quick=True),
        "kinds": {"grad": section},
        "transform": {"tiny_ops": {"cold": 0.03, "disk": 0.002, "warm": 2e-6}},
        "memory": {"tiny_ops": {"tangentlike": {"status": "ok", "traced": 4096, "rss": 0}}},
    }
    text = report.render(json.loads(json.dumps(result)))  # a saved run renders the same
    assert "WRONG" in text and "n/a" in text and "ERROR" in text
    assert "missing: not available (no such API) [all workloads]" in text
    assert "geometric mean" in text and "tl cold" in text and "4 kB" in text


def test_tangentlike_apis_that_do_not_exist_yet_are_not_available():
    import tangentlike as tl

    w = workloads.load(["logreg"])[0]
    for kind in ("jvp", "hvp", "hessian"):
        task = suite.build_task(w, kind, seed=0, size="test")
        adapter = dict(KINDS[kind])["tangentlike"]
        api = kind  # tl.jvp, tl.hvp, tl.hessian
        if not hasattr(tl, api):
            try:
                adapter(task)
            except NotAvailable as err:
                assert f"tl.{api}" in str(err)
            else:
                raise AssertionError(f"tangentlike {kind} should be n/a")


def test_ratios_are_per_round_and_the_order_rotates():
    calls = []
    times = timing.interleaved(
        {"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
        rounds=4,
        batch_s=0.0,
        budget_s=10.0,
    )
    assert len(times["a"]) == len(times["b"]) == 4
    timed = calls[4:]  # after two calibration calls each
    assert timed[:2] == ["a", "b"] and timed[2:4] == ["b", "a"]
    r = timing.ratio([2.0, 4.0, 6.0], [1.0, 2.0, 2.0])
    assert r.median == 2.0 and r.q3 == 2.5
    assert abs(timing.geometric_mean([2.0, 8.0]) - 4.0) < 1e-12


def test_a_peer_failure_is_summed_up_in_one_line():
    err = refused(ValueError("=====\nTangent Error\n=====\nNo gradient found for np.diff here\n"))
    assert str(err) == "fails: ValueError: No gradient found for np.diff here"
