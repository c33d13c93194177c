"""Third-order rules: of the helpers a second-order gradient's reverse forms call
(registered by rules/runtime_helpers.py beside its other rules), so that the gradient
of a second derivative through list appends, extends, item writes and np.linspace is
built instead of refused.

Each helper here is linear in the adjoint `h` it maps and reads its other arguments for
their structure, shapes, lengths or keys only (constant): its reverse form is the map it
transposes (a first-order helper, whose own rule takes a fourth order further), its
forward form the helper applied to h's tangent.

- unappend_vjp (`xs.append`): the rest's adjoints and the last one's joined into one
  list, transposed by unappend_copy (the list cut into the rest and its last item);
- unextend_vjp (`xs.extend`): likewise with the last n, transposed by unextend_copy;
- take_item_vjp (`y[key] = v` into a list or dict): the taken adjoint put back at key,
  transposed by take_item_copy (the adjoint at key taken out, None left there);
- linspace_vjp_vjp (np.linspace's start or stop): the samples an end's adjoint moves,
  transposed by linspace_vjp (the samples' adjoints weighted and summed to the end).

A pair's adjoint is a tuple (None for a zero part), as the first-order helpers give.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.unappend_vjp, constant=("b",))
    def unappend_vjp(result, h, b):
        d[h] = runtime.unappend_copy(d[result], None)

    @tangent(runtime.unappend_vjp)
    def unappend_vjp_tangent(result, h, b):
        d[result] = runtime.unappend_vjp(runtime.no_object_zero(d[h]), b)

    @adjoint(runtime.unextend_vjp, constant=("b", "n"))
    def unextend_vjp(result, h, b, n):
        d[h] = runtime.unextend_copy(d[result], n)

    @tangent(runtime.unextend_vjp)
    def unextend_vjp_tangent(result, h, b, n):
        d[result] = runtime.unextend_vjp(runtime.no_object_zero(d[h]), b, n)

    @adjoint(runtime.take_item_vjp, constant=("b", "key"))
    def take_item_vjp(result, h, b, key):
        d[h] = runtime.take_item_copy(d[result], key, None)

    @tangent(runtime.take_item_vjp)
    def take_item_vjp_tangent(result, h, b, key):
        d[result] = runtime.take_item_vjp(runtime.no_object_zero(d[h]), b, key)

    constant = ("g", "arg", "out", "num", "endpoint", "retstep", "axis", "side")

    @adjoint(runtime.linspace_vjp_vjp, constant=constant)
    def linspace_vjp_vjp(result, h, g, arg, out, num, endpoint, retstep, axis, side):
        d[h] = runtime.linspace_vjp(d[result], arg, out, num, endpoint, retstep, axis, side)

    @tangent(runtime.linspace_vjp_vjp)
    def linspace_vjp_vjp_tangent(result, h, g, arg, out, num, endpoint, retstep, axis, side):
        d[result] = runtime.linspace_vjp_vjp(
            runtime.no_object_zero(d[h]), g, arg, out, num, endpoint, retstep, axis, side
        )
