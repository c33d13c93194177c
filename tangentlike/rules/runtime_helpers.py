"""Rules for the runtime helpers generated gradients call, so that a generated gradient
can be differentiated again (grad of grad, hvp).

Each helper here is linear in the adjoints it combines; the values it reads only for
their structure, shape or labels (`x` in `unbroadcast(g, x)`, the names and sites of
the checks) are constant. Both forms are stated: the reverse form (an adjoint
template) and, beside it, the forward form (a tangent template).

Products' maths is bilinear; `zeros_of` makes zeros; `selects`, `unshared`, `array_base`
and `write_back` check or write, returning nothing; `entry_copy`, `kept_apart`,
`popped_array`, `popped_list`, `popped_dict`, `pushed`, `own_values` and `updated` are
the identity on values. Any other runtime helper is refused, located, when a gradient
calling it is differentiated again (never zero).
"""

from __future__ import annotations

import importlib
import pkgutil
import types
from collections.abc import Callable

import numpy as np

from .. import runtime
from ..runtime import forward
from . import (
    runtime_arrangements,
    runtime_containers,
    runtime_jvp,
    runtime_lists,
    runtime_numpy_helpers,
    runtime_picks,
    runtime_pieces,
    runtime_products,
    runtime_scalars,
    runtime_scipy,
    runtime_sources,
    runtime_statistics,
    runtime_tangents,
    runtime_third,
    runtime_transforms,
)
from .registry import Registry
from .template import d

ORIGIN = "runtime"  # not a rule of a library namespace: tests/higher checks these


def register(registry: Registry) -> None:
    def adjoint(primal, **options):
        return registry.adjoint(primal, origin=ORIGIN, **options)

    def tangent(primal):
        return registry.tangent(primal, origin=ORIGIN)

    _checks(adjoint, tangent)
    # Helpers whose result may be a container adjoint (a list, tuple or dict of
    # per-element adjoints, None for zero): a name bound to one is accumulated with `add`,
    # never `+`, which would concatenate two lists (the cause of wrong third derivatives
    # through loops and of wrong second derivatives through list iteration).
    registry.sequence_makers(
        [
            runtime.add_item,
            runtime.add_part,
            runtime.add_part_vjp,
            runtime.dict_of,
            runtime.item_part,
            runtime.iterable,
            runtime.linspace_vjp_vjp,
            runtime.part,
            runtime.unadd,
            runtime.unadd_vjp,
            runtime.unappend,
            runtime.undict_of,
            runtime.unextend,
            runtime.unmul,
            runtime.unmul_term,
            runtime.unmul_vjp,
            runtime.unmul_vjp_tangent,
            runtime.unmul_vjp_term,
            runtime.unmul_vjp_vjp,
            runtime.add_terms,
            runtime.unsequence,
            runtime.unsequence_vjp,
            runtime.unsetitem,
            runtime.unsetitem_vjp,
            runtime.unstack,
            runtime.unsum,
            runtime.zeros_of,
        ]
    )
    # ... and their arguments that may be container adjoints: a name passed there is one
    # too (an adjoint parameter of a split variant read only through `part`). `add`,
    # `ungradient_like` and `no_object_zero` return what they are given: their results
    # are containers where their arguments are (transform/containers.shared_structure).
    registry.sequence_params(
        {
            runtime.add_item: ("b", "g"),
            runtime.add_part: ("g",),
            runtime.add_part_vjp: ("h", "g"),
            runtime.item_part: ("g",),
            runtime.linspace_vjp: ("g",),
            runtime.part: ("b",),
            runtime.unadd: ("g",),
            runtime.unadd_vjp: ("h",),
            runtime.unappend: ("b",),
            runtime.undict_of: ("g",),
            runtime.unextend: ("b",),
            runtime.unmul: ("g",),
            runtime.unmul_vjp: ("h",),
            runtime.unmul_vjp_tangent: ("th", "h"),
            runtime.unmul_vjp_vjp: ("r", "h"),
            runtime.unsequence: ("g",),
            runtime.unsequence_vjp: ("h",),
            runtime.unsetitem_vjp: ("h",),
            runtime.unstack_vjp: ("h",),
            runtime.unsum: ("g",),
            runtime.unsum_vjp: ("h",),
        }
    )
    registry.sequence_makers(runtime_pieces.SEQUENCE_MAKERS)
    registry.sequence_params(runtime_pieces.SEQUENCE_PARAMS)
    registry.sequence_makers(runtime_lists.SEQUENCE_MAKERS)
    registry.sequence_params(runtime_lists.SEQUENCE_PARAMS)
    registry.sequence_makers(runtime_tangents.SEQUENCE_MAKERS)
    registry.sequence_makers(runtime_picks.SEQUENCE_MAKERS)
    registry.sequence_params(runtime_picks.SEQUENCE_PARAMS)
    registry.sequence_makers(runtime_statistics.SEQUENCE_MAKERS)
    registry.sequence_makers(runtime_scalars.SEQUENCE_MAKERS)
    registry.sequence_params(runtime_scalars.SEQUENCE_PARAMS)
    registry.sequence_params(runtime_statistics.SEQUENCE_PARAMS)
    registry.nondifferentiable(
        {
            runtime.extremum_index: "the position of a max or min among items: an integer",
            runtime.integer_exponent: "whether an exponent is an integer: a boolean",
            runtime.pivot_order: "the row order of LAPACK's pivots: integers",
            runtime.zip_strict_end: "a check that a strict zip's sequences have one length",
        }
    )
    _broadcasting(adjoint, tangent)
    _boundaries(adjoint, tangent)
    runtime_containers.register(adjoint, tangent)
    _own_helpers(adjoint, tangent)
    runtime_numpy_helpers.register(adjoint, tangent)
    runtime_arrangements.register(adjoint, tangent)
    registry.complex_roles(runtime_arrangements.COMPLEX_ROLES)
    runtime_pieces.register(adjoint, tangent)
    runtime_picks.register(adjoint, tangent)
    runtime_lists.register(adjoint, tangent)
    runtime_products.register(adjoint, tangent)
    runtime_statistics.register(adjoint, tangent)
    runtime_scipy.register(adjoint, tangent)
    runtime_transforms.register(adjoint, tangent)
    runtime_tangents.register(adjoint, tangent)
    runtime_scalars.register(adjoint, tangent)
    runtime_third.register(adjoint, tangent)
    runtime_jvp.register(adjoint, tangent)
    registry.complex_roles(runtime_transforms.COMPLEX_ROLES)

    # -- NumPy calls generated gradients make (the adjoint of a sum is a broadcast) ------
    if registry.lookup_tangent(np.broadcast_to) is None:  # until rules/numpy.py states it

        @registry.tangent(np.broadcast_to, origin=ORIGIN)
        def broadcast_to_tangent(result, array, shape):
            d[result] = np.broadcast_to(d[array], shape)

    # -- the rest: refused when a generated gradient calling it is differentiated, but for
    # the helpers written in plain NumPy, differentiated through their source like user code
    registry.refuse(
        [
            helper
            for helper in _runtime_helpers()
            if registry.lookup(helper) is None
            and not registry.is_nondifferentiable(helper)
            and helper not in THROUGH_SOURCE
        ],
        "(a helper of generated gradients) has no second-order rule yet",
        "differentiate the original function (tl.hvp, tl.hessian, tl.grad of f) in a form "
        "that avoids this operation, or register a rule for it with @tangentlike.adjoint",
    )
    registry.refuse([runtime.saved_item, runtime.restore_item], *_ITEMS_REFUSED)
    registry.refuse(
        [runtime.random_draw],
        "(a random draw from a Generator) does not differentiate the parameters of its "
        "distribution",
        "draw standard noise and transform it: mu + sigma * rng.standard_normal(size) "
        "(reparameterisation), or wrap a constant parameter in tl.stop_gradient",
    )


THROUGH_SOURCE = runtime_sources.THROUGH_SOURCE  # helpers read through their source

# saved_item / restore_item: spelled out by the differentiable form where it can show the
# container's kind (higher/form_items.py), refused for any other
_ITEMS_REFUSED = (
    "(how a generated gradient saves and restores what a write by index or key "
    "overwrites) has no second-order rule: the gradient's differentiable form spells "
    "it out only for a list or dict the function binds by displays alone ([...], "
    "{...}, list(...), dict(...)), and restores from the gradient's stack where the "
    "gradient saved it, and this one is bound otherwise too (a repetition or "
    "concatenation of lists, a comprehension's list, a value unpacked from the "
    "gradient's stack, or copied from another container)",
    "build the list or dict by a display where it is written into, and write into it "
    "there (not a copy of another container); or differentiate the original function "
    "in a form that updates out of place (L = L[:k] + [v] + L[k + 1:])",
)


def _checks(adjoint: Callable, tangent: Callable) -> None:
    """Zeros whatever the argument, or a check that returns nothing: no gradient flows."""

    @adjoint(runtime.zeros_of, constant=("x",))
    def zeros_of(result, x):
        pass

    @adjoint(forward.zero_tangent, constant=("x", "k"))
    def zero_tangent(result, x, k=None):
        pass

    @adjoint(runtime.zero_if_real, constant=("g", "x", "what"))
    def zero_if_real(result, g, x, what):
        pass  # zeros at a real x (np.imag, np.angle), whatever g: locally constant

    @adjoint(runtime.selects, constant=("x", "what"))
    def selects(result, x, what):
        pass

    @adjoint(runtime.unshared, constant=("value", "others", "what", "keys"))
    def unshared(result, value, others, what, keys=()):
        pass

    @adjoint(runtime.array_base, constant=("base", "what"))
    def array_base(result, base, what):
        pass

    @adjoint(runtime.untouched, constant=("value", "others", "what", "bases", "keys"))
    def untouched(result, value, others, what, bases=(), keys=()):
        pass

    @adjoint(runtime.write_back, constant=("caller", "own"))
    def write_back(result, caller, own):
        pass

    @adjoint(runtime.entry_copy, constant=("what",))
    def entry_copy(result, x, what):
        d[x] = d[result]

    @tangent(runtime.entry_copy)
    def entry_copy_tangent(result, x, what):
        d[result] = d[x]

    @adjoint(runtime.popped_array, constant=("what",))
    def popped_array(result, x, what):
        d[x] = d[result]

    @tangent(runtime.popped_array)
    def popped_array_tangent(result, x, what):
        d[result] = d[x]

    @adjoint(runtime.popped_list, constant=("what",))
    def popped_list(result, x, what):
        d[x] = d[result]

    @tangent(runtime.popped_list)
    def popped_list_tangent(result, x, what):
        d[result] = d[x]

    @adjoint(runtime.popped_dict, constant=("what",))
    def popped_dict(result, x, what):
        d[x] = d[result]

    @tangent(runtime.popped_dict)
    def popped_dict_tangent(result, x, what):
        d[result] = d[x]

    @adjoint(runtime.own_values)
    def own_values(result, x):
        d[x] = d[result]

    @tangent(runtime.own_values)
    def own_values_tangent(result, x):
        d[result] = d[x]

    @adjoint(runtime.pushed)
    def pushed(result, x):
        d[x] = d[result]

    @tangent(runtime.pushed)
    def pushed_tangent(result, x):
        d[result] = d[x]

    @adjoint(runtime.kept_apart, constant=("shares",))
    def kept_apart(result, x, shares):
        d[x] = d[result]

    @tangent(runtime.kept_apart)
    def kept_apart_tangent(result, x, shares):
        d[result] = d[x]

    @adjoint(runtime.updated, constant=("z",))
    def updated(result, z, value):
        d[value] = d[result]

    @tangent(runtime.updated)
    def updated_tangent(result, z, value):
        d[result] = runtime.updated(z, d[value])


def _broadcasting(adjoint: Callable, tangent: Callable) -> None:
    """Broadcasting."""

    @adjoint(runtime.unbroadcast, constant=("x",))
    def unbroadcast(result, g, x):
        d[g] = np.broadcast_to(d[result], np.shape(g))

    @tangent(runtime.unbroadcast)
    def unbroadcast_tangent(result, g, x):
        d[result] = runtime.unbroadcast(d[g], x)

    @adjoint(runtime.spread, constant=("x",))
    def spread(result, g, x):
        d[g] = runtime.unbroadcast(d[result], g)

    @tangent(runtime.spread)
    def spread_tangent(result, g, x):
        d[result] = runtime.spread(d[g], x)

    @adjoint(runtime.sum_to, constant=("shape",))
    def sum_to(result, g, shape):
        d[g] = np.broadcast_to(d[result], np.shape(g))

    @tangent(runtime.sum_to)
    def sum_to_tangent(result, g, shape):
        d[result] = runtime.sum_to(d[g], shape)


def _boundaries(adjoint: Callable, tangent: Callable) -> None:
    """Boundaries: checks that return their argument."""

    @adjoint(runtime.gradient_like, constant=("x", "name"))
    def gradient_like(result, b, x, name):
        d[b] = runtime.ungradient_like(d[result], b)

    @tangent(runtime.gradient_like)
    def gradient_like_tangent(result, b, x, name):
        d[result] = runtime.gradient_like(d[b], x, name)

    @adjoint(runtime.seed_like, constant=("out", "where"))
    def seed_like(result, seed, out, where):
        d[seed] = runtime.ungradient_like(d[result], seed)

    @tangent(runtime.seed_like)
    def seed_like_tangent(result, seed, out, where):
        d[result] = runtime.seed_like(d[seed], out, where)

    # forward mode's boundaries (differentiating a generated jvp: reverse over forward)
    @adjoint(forward.tangent_like, constant=("x", "name", "k"))
    def tangent_like(result, t, x, name, k=None):
        d[t] = runtime.ungradient_like(d[result], t)

    @tangent(forward.tangent_like)
    def tangent_like_tangent(result, t, x, name, k=None):
        d[result] = forward.tangent_like(d[t], x, name, k)

    @adjoint(forward.output_tangent, constant=("value", "k"))
    def output_tangent(result, t, value, k=None):
        d[t] = runtime.ungradient_like(d[result], t)

    @tangent(forward.output_tangent)
    def output_tangent_tangent(result, t, value, k=None):
        d[result] = forward.output_tangent(d[t], value, k)

    @adjoint(runtime.adjoint_contribution, constant=("like", "name", "site"))
    def adjoint_contribution(result, g, like, name, site):
        d[g] = d[result]

    @tangent(runtime.adjoint_contribution)
    def adjoint_contribution_tangent(result, g, like, name, site):
        d[result] = d[g]

    @adjoint(runtime.rule_contribution, constant=("x", "name", "rule", "site"))
    def rule_contribution(result, g, x, name, rule, site):
        d[g] = d[result]

    @tangent(runtime.rule_contribution)
    def rule_contribution_tangent(result, g, x, name, rule, site):
        d[result] = d[g]


def _own_helpers(adjoint: Callable, tangent: Callable) -> None:
    """The rules' own helpers (third order and beyond)."""

    @adjoint(runtime.ungradient_like, constant=("b",))
    def ungradient_like(result, g, b):
        d[g] = runtime.ungradient_like(d[result], g)

    @tangent(runtime.ungradient_like)
    def ungradient_like_tangent(result, g, b):
        d[result] = runtime.ungradient_like(d[g], b)

    @adjoint(runtime.add_part, constant=("a",))
    def add_part(result, g, a):
        d[g] = runtime.add_part_vjp(d[result], g)

    @tangent(runtime.add_part)
    def add_part_tangent(result, g, a):
        d[result] = runtime.add_part(d[g], a)

    @adjoint(runtime.add_part_vjp, constant=("g",))
    def add_part_vjp(result, h, g):
        d[h] = runtime.add_part(d[result], h)

    @tangent(runtime.add_part_vjp)
    def add_part_vjp_tangent(result, h, g):
        d[result] = runtime.add_part_vjp(d[h], g)

    @adjoint(runtime.item_part, constant=("x", "index", "like"))
    def item_part(result, g, x, index, like):
        d[g] = runtime.add_item(None, g, index, d[result])

    @tangent(runtime.item_part)
    def item_part_tangent(result, g, x, index, like):
        d[result] = runtime.item_part(d[g], x, index, like)

    @adjoint(runtime.unadd_vjp, constant=("g", "x", "y"))
    def unadd_vjp(result, h, g, x, y):
        d[h] = runtime.unadd(d[result], x, y)

    @tangent(runtime.unadd_vjp)
    def unadd_vjp_tangent(result, h, g, x, y):
        d[result] = runtime.unadd_vjp(d[h], g, x, y)

    @adjoint(runtime.power_slope, unbroadcast=True)  # x and y broadcast together
    def power_slope(result, x, y):
        d[x] = d[result] * runtime.power_slope_dx(x, y)
        d[y] = d[result] * runtime.power_slope_dy(x, y)

    @tangent(runtime.power_slope)
    def power_slope_tangent(result, x, y):
        d[result] = d[x] * runtime.power_slope_dx(x, y) + d[y] * runtime.power_slope_dy(x, y)

    @adjoint(runtime.unmul_vjp)  # bilinear in h and (g, x, y)
    def unmul_vjp(result, h, g, x, y):
        grads = runtime.unmul_vjp_vjp(d[result], h, g, x, y)
        d[h] = grads[0]
        d[g] = grads[1]
        d[x] = grads[2]
        d[y] = grads[3]

    @tangent(runtime.unmul_vjp)
    def unmul_vjp_tangent(result, h, g, x, y):
        d[result] = runtime.add_terms(
            runtime.add_terms(
                runtime.unmul_vjp(runtime.no_object_zero(d[h]), g, x, y),
                runtime.unmul_vjp_term(h, d[g], g, x, y, 0),
            ),
            runtime.add_terms(
                runtime.unmul_vjp_term(h, d[x], g, x, y, 1),
                runtime.unmul_vjp_term(h, d[y], g, x, y, 2),
            ),
        )

    @adjoint(runtime.unsequence_vjp, constant=("g", "x"))
    def unsequence_vjp(result, h, g, x):
        d[h] = runtime.unsequence(d[result], x)

    @tangent(runtime.unsequence_vjp)
    def unsequence_vjp_tangent(result, h, g, x):
        d[result] = runtime.unsequence_vjp(d[h], g, x)

    @adjoint(runtime.unsetitem_vjp, constant=("g", "index"))
    def unsetitem_vjp(result, h, g, index):
        d[h] = runtime.unsetitem(d[result], index)

    @tangent(runtime.unsetitem_vjp)
    def unsetitem_vjp_tangent(result, h, g, index):
        d[result] = runtime.unsetitem_vjp(d[h], g, index)


def _runtime_helpers() -> list[object]:
    """Every top-level function of the runtime package's modules."""
    found = []
    for info in pkgutil.iter_modules(runtime.__path__):
        module = importlib.import_module(f"{runtime.__name__}.{info.name}")
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, types.FunctionType)
            and value.__module__ == module.__name__
            and not value.__name__.startswith("_")  # a helper's own inner pieces
        )
    return found
