"""Second order on random programs: `tl.hvp` against second differences of f.

At the oracle's point (decisions stable, first differences agree) and its random
direction u, the curvature uᵀHu comes from f's values alone — independent of
tangentlike — as (f(x + hu) - 2 f(x) + f(x - hu)) / h² at two steps, extrapolated;
tangentlike's ⟨hvp(f)(x, u), u⟩ must match it. Points where a decision changes within
the (larger) second-difference step, or where the differences disagree, are skipped.
Outcomes and their grouping are the first-order tester's (classify.py).

    python -m tests.fuzz --mode hvp --n 300 --seed 0
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

import tangentlike as tl

from .classify import Outcome, _run, crash
from .limits import Timeout, time_limit
from .oracle import Reference, Skip, _move, reference, values_along
from .program import ENTRY, Program, load, unload
from .tracer import Traced

STEP2 = 1e-3  # second differences need a larger step than first ones (roundoff / h²)


def SECOND_ORDER(f: Callable, wrt: tuple[str, ...]) -> Callable:
    """The `differentiate` that asks the runner for this module's check (--mode hvp)."""
    raise TypeError("SECOND_ORDER marks the hvp check; runner.check dispatches on it")


def evaluate_hvp(program: Program, workdir: Path, timeout: float = 0.0) -> Outcome:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with time_limit(timeout):
                ref = reference(program, use_autograd=False)
                curvature = None if isinstance(ref, Skip) else second_difference(program, ref)
        except Timeout:
            return Outcome("skipped", "the reference takes too long", "skipped: too long")
        if isinstance(ref, Skip):
            return Outcome("skipped", ref.reason, f"skipped: {ref.reason}")
        if isinstance(curvature, str):
            return Outcome("skipped", curvature, f"skipped: {curvature}")
        module, path = load(program.source, workdir)
        try:
            with time_limit(timeout):
                ran = _run(program, getattr(module, ENTRY), path, ref.args, _hvp(ref))
        except Timeout as e:
            ran = crash(e, ref.args)
        finally:
            unload(module)
    if isinstance(ran, Outcome):
        return ran
    return _compare(ref, curvature, ran[1])


def _hvp(ref: Reference) -> Callable:
    """`differentiate` for classify._run: (None, H u) along the reference's direction."""

    def differentiate(f: Callable, wrt: tuple[str, ...]) -> Callable:
        hv = tl.hvp(f, wrt=wrt)

        def value_and_hvp(*args):
            return None, hv(*args, tuple(ref.directions))

        return value_and_hvp

    return differentiate


def second_difference(program: Program, ref: Reference) -> tuple[float, float] | str:
    """(uᵀHu, its error estimate) from f's values at x ± h u, h = STEP2 and STEP2 / 2,
    extrapolated; or why this point cannot be used."""
    traced = Traced(program.source)
    _, trace = traced.run(_move(program, ref.args, ref.directions, 0.0))
    estimates = []
    for h in (STEP2, STEP2 / 2):
        values = values_along(program, traced, ref.args, ref.directions, trace, h)
        if isinstance(values, str):
            return values
        estimates.append((values[0] - 2.0 * ref.value + values[1]) / (h * h))
    coarse, fine = estimates
    error = abs(fine - coarse)
    if error > 1e-3 * (1.0 + abs(fine)):
        return "second differences unstable at the point"
    return (4 * fine - coarse) / 3, error


def _compare(ref: Reference, curvature: tuple[float, float], hv) -> Outcome:
    expected, error = curvature
    parts = hv if isinstance(hv, tuple) else (hv,)
    try:
        got = sum(
            float(np.sum(np.asarray(h, dtype=np.float64) * u))
            for h, u in zip(parts, ref.directions, strict=True)
        )
    except (TypeError, ValueError) as e:
        return Outcome("wrong", f"hvp has another structure: {e}", "wrong: hvp structure")
    tolerance = 1e-5 * (1.0 + abs(ref.value)) + 1e-4 * abs(expected) + 10 * error
    if not np.isfinite(got) or abs(got - expected) > tolerance:
        detail = f"<hvp(u), u> = {got!r}, second differences {expected!r} (error {error:.2g})"
        return Outcome("wrong", detail, "wrong: hvp", detail, ref.args)
    return Outcome("ok", "", "ok", args=ref.args)
