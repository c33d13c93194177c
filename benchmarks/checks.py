"""The reference each contender is checked against before it is timed.

A benchmark of a wrong result is worthless: a contender that disagrees with the
reference is reported WRONG and left out of every ratio and mean.

References come from the hand-written gradient (and Hessian), never from a peer:
grad: the hand-written gradient; jvp: <hand-written gradient, t>; hvp: the
hand-written Hessian times v where the workload has one, else central
differences of the hand-written gradient along v; hessian: the hand-written
Hessian.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .contenders.common import Task, numpy_tuple

EXACT_RTOL = 1e-7  # against a reference computed without approximation (float64)
FD_RTOL = 1e-5  # against central differences of the gradient (hvp without a Hessian)


@dataclass(frozen=True)
class Reference:
    values: tuple
    rtol: float


def reference(task: Task) -> Reference:
    w, args, probe = task.workload, task.args, task.probe
    if task.kind == "grad":
        return Reference(numpy_tuple(w.by_hand(*args)), EXACT_RTOL)
    if task.kind == "jvp":
        g = numpy_tuple(w.by_hand(*args))[0]
        return Reference((np.asarray(np.sum(g * probe)),), EXACT_RTOL)
    if task.kind == "hvp":
        if w.hessian_by_hand is not None:
            H = np.asarray(w.hessian_by_hand(*args))
            return Reference((np.tensordot(H, probe, axes=np.ndim(probe)),), EXACT_RTOL)
        return Reference((_fd_hvp(task),), FD_RTOL)
    return Reference(numpy_tuple(w.hessian_by_hand(*args)), EXACT_RTOL)


def _fd_hvp(task: Task, eps: float = 1e-5) -> np.ndarray:
    """(g(x + eps v) - g(x - eps v)) / 2 eps for the hand-written gradient g."""
    w, args, i = task.workload, task.args, task.argnum
    k = w.wrt.index(i)
    x = args[i]
    step = eps * max(1.0, float(np.max(np.abs(x)))) / max(float(np.max(np.abs(task.probe))), 1e-300)

    def g(sign: float) -> np.ndarray:
        moved = x + sign * step * task.probe
        moved = float(moved) if isinstance(x, float) else moved
        return numpy_tuple(w.by_hand(*args[:i], moved, *args[i + 1 :]))[k]

    return (g(1.0) - g(-1.0)) / (2.0 * step)


def disagreement(values: tuple, ref: Reference) -> float:
    """Largest |value - reference| relative to the largest |reference|, over all outputs;
    infinity when the structure or shapes differ."""
    if len(values) != len(ref.values):
        return float("inf")
    worst = 0.0
    for v, r in zip(values, ref.values, strict=True):
        if np.shape(v) != np.shape(r):
            return float("inf")
        scale = max(float(np.max(np.abs(r), initial=0.0)), 1e-300)
        err = float(np.max(np.abs(v - r), initial=0.0)) / scale
        if not np.isfinite(err):
            return float("inf")
        worst = max(worst, err)
    return worst
