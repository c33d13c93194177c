"""The tester's other modes: forward mode (tl.jacobian forward) judged like reverse
mode, and Hessian-vector products against second differences of f (independent of
tangentlike), which catch a deliberately wrong second derivative."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .classify import evaluate, forward_mode
from .oracle import reference
from .program import Param, Program
from .second_order import _compare, evaluate_hvp, second_difference

SOURCE = """import numpy as np


def f(x, y, n):
    s = np.sum(np.sin(y) * x ** 3)
    for k in range(n):
        s = s + np.tanh(y[k]) * x
    return s
"""
PROGRAM = Program(0, 0, SOURCE, (Param("x", ()), Param("y", (3,)), Param("n", None)))


def test_forward_mode_is_judged_like_reverse_mode(tmp_path: Path):
    outcome = evaluate(PROGRAM, tmp_path, forward_mode)
    assert outcome.kind == "ok", outcome


def test_second_differences_match_the_curvature_of_a_known_function():
    ref = reference(PROGRAM, use_autograd=False)
    curvature, error = second_difference(PROGRAM, ref)
    x, y, n = ref.args
    u, v = ref.directions
    # u^T H u of sum(sin(y) x^3) + x sum(tanh(y[:n])) along (u, v)
    xx = 6 * x * np.sum(np.sin(y)) * u * u
    xy = 2 * u * (3 * x * x * np.sum(np.cos(y) * v) + np.sum((1 - np.tanh(y[:n]) ** 2) * v[:n]))
    yy = np.sum(-np.sin(y) * x**3 * v * v) + x * np.sum(
        -2 * np.tanh(y[:n]) * (1 - np.tanh(y[:n]) ** 2) * v[:n] ** 2
    )
    assert abs(curvature - (xx + xy + yy)) < 1e-6 * (1 + abs(curvature)) + 10 * error


def test_hvp_mode_accepts_tangentlike_and_catches_a_wrong_hvp(tmp_path: Path):
    assert evaluate_hvp(PROGRAM, tmp_path).kind == "ok"
    ref = reference(PROGRAM, use_autograd=False)
    curvature = second_difference(PROGRAM, ref)
    wrong = tuple(1.01 * np.asarray(u) for u in ref.directions)  # not H u
    assert _compare(ref, curvature, wrong).kind == "wrong"
