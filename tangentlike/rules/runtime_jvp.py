"""Rules of forward mode's helpers that a generated jvp calls, so that the jvp can be
differentiated again (reverse over forward: tl.grad of a function calling a jvp, the
Hessian-vector product of Google Tangent's tests; registered by
rules/runtime_helpers.py beside its other rules).

- fresh_tangent (a tangent the jvp writes into in place, copied first): the identity on
  values; its forward form copies the tangent's tangent as well.
- concatenated_tangent (np.r_, np.c_): linear in the items' tangents, reading the items
  for their shapes only (constant); reverse form the cut of runtime.concatenated_vjp
  (runtime/higher_forward.py), forward form the concatenation of the tangents' tangents.
  concatenated_vjp in turn (a third order: the hvp of a function calling a jvp) is linear
  in the adjoint it cuts: reverse form the concatenation, forward form the cut.

The vector-mode helpers (lift, take, put, width, direction, stacked, shifted_axis,
matmul_left, matmul_right) keep their refusal: only tl.jacobian and tl.hessian write
vector-mode code, and a function calling either cannot be differentiated (their
wrappers are refused first), so no request reaches them.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from ..runtime import forward
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(forward.fresh_tangent)
    def fresh_tangent(result, t):
        d[t] = d[result]

    @tangent(forward.fresh_tangent)
    def fresh_tangent_tangent(result, t):
        d[result] = forward.fresh_tangent(d[t])

    @adjoint(forward.concatenated_tangent, constant=("concatenator", "items", "k"))
    def concatenated_tangent(result, concatenator, items, tangents, k=None):
        d[tangents] = runtime.concatenated_vjp(d[result], concatenator, items, tangents, k)

    @tangent(forward.concatenated_tangent)
    def concatenated_tangent_tangent(result, concatenator, items, tangents, k=None):
        d[result] = forward.concatenated_tangent(concatenator, items, d[tangents], k)

    constant = ("concatenator", "items", "tangents", "k")

    @adjoint(runtime.concatenated_vjp, constant=constant)
    def concatenated_vjp(result, g, concatenator, items, tangents, k=None):
        d[g] = runtime.unbroadcast(
            forward.concatenated_tangent(concatenator, items, d[result], k), g
        )

    @tangent(runtime.concatenated_vjp)
    def concatenated_vjp_tangent(result, g, concatenator, items, tangents, k=None):
        d[result] = runtime.concatenated_vjp(
            runtime.no_object_zero(d[g]), concatenator, items, tangents, k
        )
