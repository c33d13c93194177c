"""Second-order rules of adjoint helpers that rearrange or contract arrays: the helpers
of np.sort, np.partition, np.pad, np.inner, and the real part a gradient takes where a
real value entered complex arithmetic (registered by rules/runtime_helpers.py beside
its other runtime rules).

- unsort(g, a, axis), unpartition(g, a, partitioned, axis): g sent back through the
  permutation that sorted (partitioned) a. Linear in g; the permutation depends on a
  only through its order, locally constant (a tie is a kink, as for np.sort itself,
  whose rule states the restriction). Transposed by the same permutation taken forward
  (runtime.sorted_like, runtime.partitioned_like: the same stable argsort).
- unpad(g, array, pad_width, mode): the inner block (constant mode) or the copies summed
  back (edge, reflect, symmetric, wrap). Linear in g; transposed by np.pad itself (a
  gather for those modes, zeros around for constant).
- inner_vjp(g, a, b, side): bilinear in g and the other operand, reading operand `side`
  for its ndim only (runtime.inner_vjp_vjp), like tensordot_vjp.
- real_part(g, x): Re(g) where x is real, g itself where x is complex: real-linear in g,
  so its adjoint passes the (real) adjoint of its result to g unchanged, and its tangent
  is real_part of g's tangent.
  Its complex role is "sink" (COMPLEX_ROLES), np.real's: the transform calls it only
  with an x that is statically real (complex_gate.projected), the same value when the
  generated gradient runs inside a second derivative, so its result is real.
Forward forms: the helper applied to the tangents (both factors' for inner_vjp).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .template import d

# unbroadcast (a sum down to x's shape) and unsubscript (g placed into zeros of x's shape
# and dtype; a complex g into a real x raises) are linear with real coefficients, their
# rules (rules/runtime_helpers.py, runtime_containers.py) the transposes: they hold for
# complex adjoints as they are. x is read for its shape (and dtype) only.
COMPLEX_ROLES = {
    runtime.real_part: "sink",
    runtime.unbroadcast: "safe",
    runtime.unsubscript: "safe",
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.unsort, constant=("a", "axis"))
    def unsort(result, g, a, axis):
        d[g] = runtime.unbroadcast(runtime.sorted_like(d[result], a, axis), g)

    @tangent(runtime.unsort)
    def unsort_tangent(result, g, a, axis):
        d[result] = runtime.unsort(d[g], a, axis)

    @adjoint(runtime.unpartition, constant=("a", "partitioned", "axis"))
    def unpartition(result, g, a, partitioned, axis):
        d[g] = runtime.unbroadcast(runtime.partitioned_like(d[result], a, partitioned, axis), g)

    @tangent(runtime.unpartition)
    def unpartition_tangent(result, g, a, partitioned, axis):
        d[result] = runtime.unpartition(d[g], a, partitioned, axis)

    @adjoint(runtime.unpad, constant=("array", "pad_width", "mode"))
    def unpad(result, g, array, pad_width, mode):
        d[g] = runtime.unbroadcast(np.pad(d[result], pad_width, mode), g)

    @tangent(runtime.unpad)
    def unpad_tangent(result, g, array, pad_width, mode):
        d[result] = runtime.unpad(d[g], array, pad_width, mode)

    @adjoint(runtime.inner_vjp, constant=("side",))
    def inner_vjp(result, g, a, b, side):
        grads = runtime.inner_vjp_vjp(d[result], g, a, b, side)
        d[g] = grads[0]
        d[a] = grads[1]
        d[b] = grads[2]

    @tangent(runtime.inner_vjp)
    def inner_vjp_tangent(result, g, a, b, side):
        d[result] = runtime.inner_vjp(d[g], a, b, side) + runtime.inner_vjp(g, d[a], d[b], side)

    @adjoint(runtime.real_part, constant=("x",))
    def real_part(result, g, x):
        d[g] = d[result]

    @tangent(runtime.real_part)
    def real_part_tangent(result, g, x):
        d[result] = runtime.real_part(d[g], x)
