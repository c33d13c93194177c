"""Second-order rules of the helpers of forward forms (the tangents of np.sort,
np.partition, np.gradient and divmod, differentiated in reverse: reverse over forward),
of np.average's weights helpers, and of two run-time checks (registered by
rules/runtime_helpers.py beside its other runtime rules).

- sorted_like(t, a, axis), partitioned_like(t, a, partitioned, axis): t permuted as a was;
  linear in t, the permutation locally constant in a (ties are kinks, as the first
  order states): transposed by unsort and unpartition, which send back through it.
- gradient_of(f, spacings, axis, edge_order): np.gradient, linear in f (one array, or
  one per axis): transposed by gradient_vjp (whose own rules are in runtime_statistics).
- quotient_remainder_tangent(t, pair): (zeros, t): transposed by reading the
  remainder's adjoint (runtime.part), undone of broadcasting.
- weights_like(weights, a, axis), unweights(g, weights, axis): np.average's weights
  laid along axis, and sums down to them: linear, each other's transpose (the sum's
  transpose spreads back over g's shape).
- copies_array(x, what), numeric_item(y, key, ...): checks that return nothing.
Forward forms: the helper applied to the tangent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .template import d

SEQUENCE_MAKERS = (runtime.gradient_of,)


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.copies_array, constant=("x", "what"))
    def copies_array(result, x, what):
        pass

    @adjoint(runtime.numeric_item, constant=("y", "key", "what", "others", "rebound"))
    def numeric_item(result, y, key, what, others=None, rebound=()):
        pass

    @adjoint(runtime.sorted_like, constant=("a", "axis"))
    def sorted_like(result, t, a, axis):
        d[t] = runtime.unbroadcast(runtime.unsort(d[result], a, axis), t)

    @tangent(runtime.sorted_like)
    def sorted_like_tangent(result, t, a, axis):
        d[result] = runtime.sorted_like(d[t], a, axis)

    @adjoint(runtime.partitioned_like, constant=("a", "partitioned", "axis"))
    def partitioned_like(result, t, a, partitioned, axis):
        d[t] = runtime.unbroadcast(runtime.unpartition(d[result], a, partitioned, axis), t)

    @tangent(runtime.partitioned_like)
    def partitioned_like_tangent(result, t, a, partitioned, axis):
        d[result] = runtime.partitioned_like(d[t], a, partitioned, axis)

    @adjoint(runtime.gradient_of, constant=("spacings", "axis", "edge_order"))
    def gradient_of(result, f, spacings, axis, edge_order):
        d[f] = runtime.gradient_vjp(d[result], f, spacings, axis, edge_order)

    @tangent(runtime.gradient_of)
    def gradient_of_tangent(result, f, spacings, axis, edge_order):
        d[result] = runtime.gradient_of(d[f], spacings, axis, edge_order)

    @adjoint(runtime.quotient_remainder_tangent, constant=("pair",))
    def quotient_remainder_tangent(result, t, pair):
        d[t] = runtime.unbroadcast(runtime.part(d[result], 1, pair[1]), t)

    @tangent(runtime.quotient_remainder_tangent)
    def quotient_remainder_tangent_tangent(result, t, pair):
        d[result] = runtime.quotient_remainder_tangent(d[t], pair)

    @adjoint(runtime.weights_like, constant=("a", "axis"))
    def weights_like(result, weights, a, axis):
        d[weights] = runtime.unweights(d[result], weights, axis)

    @tangent(runtime.weights_like)
    def weights_like_tangent(result, weights, a, axis):
        d[result] = runtime.weights_like(d[weights], a, axis)

    @adjoint(runtime.unweights, constant=("weights", "axis"))
    def unweights(result, g, weights, axis):
        d[g] = np.broadcast_to(runtime.weights_like(d[result], g, axis), np.shape(g))

    @tangent(runtime.unweights)
    def unweights_tangent(result, g, weights, axis):
        d[result] = runtime.unweights(d[g], weights, axis)
