"""Second-order rules of the runtime helpers whose adjoints may be containers (`add`,
`add_item`, `part`, ...; registered by rules/runtime_helpers.py beside its other rules).

Each is linear in the adjoints it combines; the containers and indices it reads for
their structure are constant.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """Adjoints that may be containers."""

    # a list or dict argument written into, copied and written back
    # (transform/argument_containers.py): the identity on values; the write back returns
    # nothing
    @adjoint(runtime.own_container, constant=("what",))
    def own_container(result, x, what):
        d[x] = d[result]

    @tangent(runtime.own_container)
    def own_container_tangent(result, x, what):
        d[result] = runtime.own_tangent(d[x])

    # a checkpointed block's list or dict state, copied (transform/checkpoints.py): the
    # identity on values, as own_container
    @adjoint(runtime.copied)
    def copied(result, x):
        d[x] = d[result]

    @tangent(runtime.copied)
    def copied_tangent(result, x):
        d[result] = runtime.own_tangent(d[x])

    @adjoint(runtime.own_tangent)
    def own_tangent(result, t):
        d[t] = d[result]

    @tangent(runtime.own_tangent)
    def own_tangent_tangent(result, t):
        d[result] = runtime.own_tangent(d[t])

    @adjoint(runtime.apart, constant=("value", "others", "what"))
    def apart(result, value, others, what):
        pass

    @adjoint(runtime.write_back_items, constant=("caller", "own"))
    def write_back_items(result, caller, own):
        pass

    @adjoint(runtime.add)
    def add(result, a, b):
        d[a] = runtime.add_part(d[result], a)
        d[b] = runtime.add_part(d[result], b)

    @tangent(runtime.add)
    def add_tangent(result, a, b):
        d[result] = runtime.add(runtime.no_object_zero(d[a]), runtime.no_object_zero(d[b]))

    # add_terms is add, spelled so for a forward template's sum of terms (rules/tangent.py)
    @adjoint(runtime.add_terms)
    def add_terms(result, a, b):
        d[a] = runtime.add_part(d[result], a)
        d[b] = runtime.add_part(d[result], b)

    @tangent(runtime.add_terms)
    def add_terms_tangent(result, a, b):
        d[result] = runtime.add(runtime.no_object_zero(d[a]), runtime.no_object_zero(d[b]))

    # no_object_zero is the identity but on a constant (the zero np.zeros_like makes of a
    # container), which it makes None: its adjoint and tangent are itself
    @adjoint(runtime.no_object_zero)
    def no_object_zero(result, t):
        d[t] = runtime.no_object_zero(d[result])

    @tangent(runtime.no_object_zero)
    def no_object_zero_tangent(result, t):
        d[result] = runtime.no_object_zero(d[t])

    @adjoint(runtime.add_item, constant=("x", "index"))
    def add_item(result, b, x, index, g):
        d[b] = runtime.add_part(d[result], b)
        d[g] = runtime.item_part(d[result], x, index, g)

    @tangent(runtime.add_item)
    def add_item_tangent(result, b, x, index, g):
        d[result] = runtime.add_item(runtime.no_object_zero(d[b]), x, index, d[g])

    @adjoint(runtime.unsubscript, constant=("x", "index"))
    def unsubscript(result, g, x, index):
        d[g] = runtime.item_part(d[result], x, index, g)

    @tangent(runtime.unsubscript)
    def unsubscript_tangent(result, g, x, index):
        d[result] = runtime.unsubscript(d[g], x, index)

    @adjoint(runtime.part, constant=("key", "like"))
    def part(result, b, key, like):
        d[b] = runtime.add_item(None, b, key, d[result])

    @tangent(runtime.part)
    def part_tangent(result, b, key, like):
        d[result] = runtime.part(runtime.no_object_zero(d[b]), key, like)

    @adjoint(runtime.unsequence, constant=("x",))
    def unsequence(result, g, x):
        d[g] = runtime.unsequence_vjp(d[result], g, x)

    @tangent(runtime.unsequence)
    def unsequence_tangent(result, g, x):
        d[result] = runtime.unsequence(runtime.no_object_zero(d[g]), x)

    @adjoint(runtime.unadd, constant=("x", "y"))
    def unadd(result, g, x, y):
        d[g] = runtime.unadd_vjp(d[result], g, x, y)

    @tangent(runtime.unadd)
    def unadd_tangent(result, g, x, y):
        d[result] = runtime.unadd(d[g], x, y)

    @adjoint(runtime.unmul)
    def unmul(result, g, x, y):
        grads = runtime.unmul_vjp(d[result], g, x, y)
        d[g] = grads[0]
        d[x] = grads[1]
        d[y] = grads[2]

    @tangent(runtime.unmul)
    def unmul_tangent(result, g, x, y):
        d[result] = runtime.add(
            runtime.add(runtime.unmul(d[g], x, y), runtime.unmul_term(g, d[x], y, 1)),
            runtime.unmul_term(g, x, d[y], 0),
        )

    # a dict comprehension's values (dict_of): undict_of is linear in the adjoint, the
    # keys constant; undict_of_vjp its transpose, and it undict_of's
    @adjoint(runtime.undict_of, constant=("keys",))
    def undict_of(result, g, keys):
        d[g] = runtime.undict_of_vjp(d[result], keys)

    @tangent(runtime.undict_of)
    def undict_of_tangent(result, g, keys):
        d[result] = runtime.undict_of(runtime.no_object_zero(d[g]), keys)

    @adjoint(runtime.undict_of_vjp, constant=("keys",))
    def undict_of_vjp(result, h, keys):
        d[h] = runtime.undict_of(d[result], keys)

    @tangent(runtime.undict_of_vjp)
    def undict_of_vjp_tangent(result, h, keys):
        d[result] = runtime.undict_of_vjp(runtime.no_object_zero(d[h]), keys)

    @adjoint(runtime.unsetitem, constant=("index",))
    def unsetitem(result, g, index):
        d[g] = runtime.unsetitem_vjp(d[result], g, index)

    @tangent(runtime.unsetitem)
    def unsetitem_tangent(result, g, index):
        d[result] = runtime.unsetitem(d[g], index)
