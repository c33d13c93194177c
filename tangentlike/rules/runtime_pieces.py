"""Second-order rules of the adjoint helpers that cut an adjoint into pieces or put one
piece in place (registered by rules/runtime_helpers.py beside its other rules).

Each is linear in the adjoint it cuts (`g`, `b`) and reads its other arguments for their
shapes, lengths and positions only (constant): the reverse form joins the pieces'
adjoints back (runtime/higher_pieces.py), the forward form is the helper applied to the
tangent.

- unconcatenate (np.concatenate), unconcatenate_index (np.r_, np.c_): g cut into pieces;
- unpick (builtin max and min): g put at the chosen position, transposed by reading it;
- unappend_copy, unextend_copy (`xs.append`, `xs.extend`): a list adjoint without its
  last elements, and those; the differentiable form of a generated gradient calls these
  copies instead of `unappend` and `unextend`, which shorten the list they are given;
- take_item_copy (`y[key] = v` into a list or dict): the adjoint without the item at
  key, and that item's; the form's copy of `take_item`, which changes its list.

Third order: the transposes the reverse forms call, unconcatenate_vjp,
unconcatenate_index_vjp, and those of np.hstack & co. and of sum() over a list
(unstack_vjp, unsum_vjp), are linear in the pieces' adjoints `h` and have the cuts
themselves as their transposes (the transpose of a transpose): reverse form the cut,
forward form the helper at h's tangent.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d

# the helpers whose result, or whose argument, is a list adjoint (runtime_helpers.py
# registers them as such: a name bound to one is accumulated with `add`)
SEQUENCE_MAKERS = (
    runtime.unappend_copy,
    runtime.unappend_vjp,
    runtime.unconcatenate,
    runtime.unconcatenate_index,
    runtime.unextend_copy,
    runtime.unextend_vjp,
    runtime.unpick,
    runtime.take_item_copy,
    runtime.take_item_vjp,
)
SEQUENCE_PARAMS = {
    runtime.unappend_copy: ("b",),
    runtime.unappend_vjp: ("h", "b"),
    runtime.unconcatenate_vjp: ("h",),
    runtime.unconcatenate_index_vjp: ("h",),
    runtime.unextend_copy: ("b",),
    runtime.unextend_vjp: ("h", "b"),
    runtime.take_item_copy: ("b",),
    runtime.take_item_vjp: ("h", "b"),
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.unconcatenate, constant=("arrays", "axis"))
    def unconcatenate(result, g, arrays, axis):
        d[g] = runtime.unconcatenate_vjp(d[result], g, arrays, axis)

    @tangent(runtime.unconcatenate)
    def unconcatenate_tangent(result, g, arrays, axis):
        d[result] = runtime.unconcatenate(d[g], arrays, axis)

    @adjoint(runtime.unconcatenate_index, constant=("concatenator", "items"))
    def unconcatenate_index(result, g, concatenator, items):
        d[g] = runtime.unconcatenate_index_vjp(d[result], g, concatenator, items)

    @tangent(runtime.unconcatenate_index)
    def unconcatenate_index_tangent(result, g, concatenator, items):
        d[result] = runtime.unconcatenate_index(d[g], concatenator, items)

    @adjoint(runtime.unpick, constant=("items", "k"))
    def unpick(result, g, items, k):
        d[g] = runtime.item_part(d[result], items, k, g)

    @tangent(runtime.unpick)
    def unpick_tangent(result, g, items, k):
        d[result] = runtime.unpick(d[g], items, k)

    @adjoint(runtime.unappend_copy, constant=("value",))
    def unappend_copy(result, b, value):
        d[b] = runtime.unappend_vjp(d[result], b)

    @tangent(runtime.unappend_copy)
    def unappend_copy_tangent(result, b, value):
        d[result] = runtime.unappend_copy(runtime.no_object_zero(d[b]), value)

    @adjoint(runtime.unextend_copy, constant=("n",))
    def unextend_copy(result, b, n):
        d[b] = runtime.unextend_vjp(d[result], b, n)

    @tangent(runtime.unextend_copy)
    def unextend_copy_tangent(result, b, n):
        d[result] = runtime.unextend_copy(runtime.no_object_zero(d[b]), n)

    @adjoint(runtime.take_item_copy, constant=("key", "value"))
    def take_item_copy(result, b, key, value):
        d[b] = runtime.take_item_vjp(d[result], b, key)

    @tangent(runtime.take_item_copy)
    def take_item_copy_tangent(result, b, key, value):
        d[result] = runtime.take_item_copy(runtime.no_object_zero(d[b]), key, value)

    @adjoint(runtime.unconcatenate_vjp, constant=("g", "arrays", "axis"))
    def unconcatenate_vjp(result, h, g, arrays, axis):
        d[h] = runtime.unconcatenate(d[result], arrays, axis)

    @tangent(runtime.unconcatenate_vjp)
    def unconcatenate_vjp_tangent(result, h, g, arrays, axis):
        d[result] = runtime.unconcatenate_vjp(runtime.no_object_zero(d[h]), g, arrays, axis)

    @adjoint(runtime.unconcatenate_index_vjp, constant=("g", "concatenator", "items"))
    def unconcatenate_index_vjp(result, h, g, concatenator, items):
        d[h] = runtime.unconcatenate_index(d[result], concatenator, items)

    @tangent(runtime.unconcatenate_index_vjp)
    def unconcatenate_index_vjp_tangent(result, h, g, concatenator, items):
        d[result] = runtime.unconcatenate_index_vjp(
            runtime.no_object_zero(d[h]), g, concatenator, items
        )

    @adjoint(runtime.unstack_vjp, constant=("g", "arrays", "kind"))
    def unstack_vjp(result, h, g, arrays, kind):
        d[h] = runtime.unstack(d[result], arrays, kind)

    @tangent(runtime.unstack_vjp)
    def unstack_vjp_tangent(result, h, g, arrays, kind):
        d[result] = runtime.unstack_vjp(runtime.no_object_zero(d[h]), g, arrays, kind)

    @adjoint(runtime.unsum_vjp, constant=("g", "iterable"))
    def unsum_vjp(result, h, g, iterable):
        d[h] = runtime.unsum(d[result], iterable)

    @tangent(runtime.unsum_vjp)
    def unsum_vjp_tangent(result, h, g, iterable):
        d[result] = runtime.unsum_vjp(runtime.no_object_zero(d[h]), g, iterable)
