"""References independent of tangentlike: central differences along a random
direction at a point where the program's decisions are stable, and autograd's
gradient where autograd runs and agrees with the differences.

A point is accepted only if the traced twin (see `tracer`) records the same
decisions at x - h u, x and x + h u, and the differences at steps h and h/2
agree; otherwise the next point is drawn. A program whose primal raises, or is
non-finite or huge at every point, is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .program import ENTRY, Program, copy_args, draw_inputs, namespace
from .tracer import Traced

STEP = 1e-5
HUGE = 1e8
ATTEMPTS = 4


@dataclass(frozen=True)
class Reference:
    """At `args`: f's value, a direction per differentiated parameter, the slope
    <grad f, u> from central differences (Richardson-extrapolated) with its error
    estimate, and autograd's gradient when it could be trusted."""

    args: list
    value: float
    directions: list
    slope: float
    slope_error: float
    autograd: tuple | None = None
    notes: tuple[str, ...] = field(default=())

    def slope_tolerance(self) -> float:
        return 1e-6 * (1.0 + abs(self.value)) + 1e-5 * abs(self.slope) + 10 * self.slope_error


@dataclass(frozen=True)
class Skip:
    """No reference for the gradient: why, and a point where f's value is a finite
    scalar (`value`), if any, so that tangentlike can still be run there and its
    value checked; None when no such point was found (nothing worth running)."""

    reason: str
    args: list | None
    value: float | None = None


def reference(
    program: Program, attempts: int = ATTEMPTS, use_autograd: bool = True
) -> Reference | Skip:
    plain = namespace(program.source, np, "<plain program>")[ENTRY]
    traced = Traced(program.source)
    reason, runnable, runnable_value = "no attempt", None, None
    for attempt in range(attempts):
        args = draw_inputs(program, attempt)
        try:
            with np.errstate(all="ignore"):
                value = plain(*copy_args(args))
            traced_value, trace = traced.run(copy_args(args))
        except Exception as e:
            return Skip(f"primal raises {type(e).__name__}", None)
        if np.ndim(value) != 0 or not _finite_scalar(value):
            reason = "primal is non-finite, huge or not a scalar"
            continue
        if not _same(traced_value, value):
            return Skip("tester bug: the traced twin computes another value", None)
        runnable, runnable_value = args, float(value)
        found = differences(program, traced, args, trace, attempt)
        if isinstance(found, str):
            reason = found
            continue
        slope, error, directions = found
        ref = Reference(args, float(value), directions, slope, error)
        return _with_autograd(program, ref) if use_autograd else ref
    return Skip(reason, runnable, runnable_value)


def _finite_scalar(value: Any) -> bool:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return False
    return bool(np.isfinite(v)) and abs(v) < HUGE


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(np.all(np.asarray(a) == np.asarray(b)))
    except (TypeError, ValueError):
        return False


def _move(program: Program, args: list, directions: list, t: float) -> list:
    moved = copy_args(args)
    for i, p in enumerate(program.params):
        if p.differentiable:
            u = directions[program.wrt.index(p.name)]
            moved[i] = float(args[i] + t * u) if p.shape == () else args[i] + t * u
    return moved


def differences(program: Program, traced: Traced, args: list, trace, attempt: int):
    """(slope, error, directions) at `args` (whose trace is `trace`), or why this point
    cannot be used: a decision changes within h, or the differences are unstable."""
    rng = np.random.default_rng([program.seed, program.index, attempt, 7])
    directions = [
        float(rng.standard_normal()) if p.shape == () else rng.standard_normal(p.shape)
        for p in program.params
        if p.differentiable
    ]
    slopes = []
    for h in (STEP, STEP / 2):
        values = values_along(program, traced, args, directions, trace, h)
        if isinstance(values, str):
            return values
        slopes.append((values[0] - values[1]) / (2 * h))
    coarse, fine = slopes
    error = abs(fine - coarse)
    if error > 1e-4 * (1.0 + abs(fine)):
        return "finite differences unstable (steep or singular) at every point"
    return (4 * fine - coarse) / 3, error, directions


def values_along(
    program: Program, traced: Traced, args: list, directions: list, trace, h: float
) -> tuple[float, float] | str:
    """f at args + h u and args - h u, or why they cannot be used: a decision differs
    from `trace` (a branch boundary or kink within h), the primal raises or is not a
    finite number of reasonable size."""
    values = []
    for t in (h, -h):
        try:
            value, other = traced.run(_move(program, args, directions, t))
        except Exception as e:
            return f"primal raises {type(e).__name__} near the point"
        if other != trace:
            return "near a branch boundary or kink at every point"
        if not _finite_scalar(value):
            return "primal is non-finite or huge near the point"
        values.append(float(value))
    return values[0], values[1]


def _with_autograd(program: Program, ref: Reference) -> Reference:
    """ref with autograd's gradient if autograd runs, gives f's value, and its slope
    agrees with the differences (autograd treats `+=` on arrays as out of place)."""
    import autograd
    import autograd.numpy as anp

    fn = namespace(program.source, anp, "<autograd program>")[ENTRY]
    positions = [i for i, p in enumerate(program.params) if p.differentiable]

    def of_wrt(values: tuple) -> Any:
        args = copy_args(ref.args)
        for i, v in zip(positions, values, strict=True):
            args[i] = v
        return fn(*args)

    start = tuple(ref.args[i] for i in positions)
    try:
        with np.errstate(all="ignore"):
            value, grads = autograd.value_and_grad(of_wrt)(start)
            value = float(value)
            grads = tuple(np.asarray(g, dtype=np.float64) for g in grads)
            slope = sum(float(np.sum(g * u)) for g, u in zip(grads, ref.directions, strict=True))
    except Exception as e:
        return _note(ref, f"autograd cannot run it ({type(e).__name__})")
    if not all(np.all(np.isfinite(g)) for g in grads):
        return _note(ref, "autograd gives a non-finite gradient")
    if not np.isclose(value, ref.value, rtol=1e-9, atol=1e-12):
        return _note(ref, "autograd computes another value")
    if abs(slope - ref.slope) > ref.slope_tolerance():
        return _note(ref, "autograd disagrees with finite differences")
    return Reference(
        ref.args, ref.value, ref.directions, ref.slope, ref.slope_error, tuple(grads), ref.notes
    )


def _note(ref: Reference, note: str) -> Reference:
    return Reference(
        ref.args, ref.value, ref.directions, ref.slope, ref.slope_error, None, (*ref.notes, note)
    )
