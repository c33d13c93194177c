"""Rules for Python's operators and builtins. Keys are gast operator classes.

Broadcasting is undone by the rule kind (`unbroadcast=True`), never by hand.
Ties in comparisons-based rules are not used here; see numpy.py.
"""

from __future__ import annotations

import builtins

import gast
import numpy as np

from .. import runtime
from .kinds import bilinear, linear
from .registry import Registry
from .template import d

_GLOBALS = {"np": np, "runtime": runtime}

# Elementwise binary operators: contribution to x and to y, in terms of g = d[result].
BINARY = {
    gast.Add: {"x": "g", "y": "g"},
    gast.Sub: {"x": "g", "y": "-g"},
    gast.Mult: {"x": "g * y", "y": "g * x"},
    gast.Div: {"x": "g / y", "y": "-g * result / y"},
    # y * x ** (y - 1), with slope 0 where y == 0 (x ** 0 is 1, also at x = 0)
    gast.Pow: {
        "x": "g * runtime.power_slope(x, y)",
        "y": "g * result * runtime.power_log(x, y)",
    },
    # x % y == x - floor(x / y) * y (floored, as Python and np.remainder); floor is locally
    # constant. `"%s" % x` (text) is refused by analyze/operands before this applies.
    gast.Mod: {"x": "g", "y": "-g * np.floor_divide(x, y)"},
}

UNARY = {
    gast.USub: {"x": "-g"},
    gast.UAdd: {"x": "g"},
}

# Zero gradient, each for its reason: the result is integer, boolean or locally constant
# in every floating operand (tests/rules/test_nondifferentiable.py checks each numerically).
BOOLEAN = "boolean result"
NONDIFFERENTIABLE = {
    gast.FloorDiv: "floor(x / y): piecewise constant, locally constant away from its jumps",
    gast.BitAnd: "integers or booleans only",
    gast.BitOr: "integers or booleans only",
    gast.BitXor: "integers or booleans only",
    gast.LShift: "integers only",
    gast.RShift: "integers only",
    gast.Invert: "integers or booleans only",
    gast.Not: BOOLEAN,
    gast.Eq: BOOLEAN,
    gast.NotEq: BOOLEAN,
    gast.Lt: BOOLEAN,
    gast.LtE: BOOLEAN,
    gast.Gt: BOOLEAN,
    gast.GtE: BOOLEAN,
    gast.Is: BOOLEAN,
    gast.IsNot: BOOLEAN,
    gast.In: BOOLEAN,
    gast.NotIn: BOOLEAN,
}

BUILTINS_NONDIFFERENTIABLE = {
    builtins.len: "an integer count",
    builtins.range: "integers",
    builtins.int: "an integer (truncation: locally constant)",
    builtins.bool: BOOLEAN,
    builtins.round: "rounding: locally constant away from its jumps",
    builtins.print: "returns None",
    builtins.isinstance: BOOLEAN,
    builtins.type: "a class, constant for a given type",
    builtins.id: "an integer identity",
    builtins.hash: "an integer hash",
}


# Text: the number is still in there (float(str(x)) == x), but no gradient follows it.
TEXT = [builtins.str, builtins.repr, builtins.format, builtins.ascii]
TEXT_HINT = (
    "compute with the number itself; if the text is only printed or used as a label, "
    "keep it out of the computed result"
)


def register(registry: Registry) -> None:
    for op, exprs in BINARY.items():
        registry.expressions(op, ("x", "y"), exprs, unbroadcast=True, globals_=_GLOBALS)
    for op, exprs in UNARY.items():
        registry.expressions(op, ("x",), exprs, unbroadcast=False, globals_=_GLOBALS)
    registry.nondifferentiable(NONDIFFERENTIABLE)
    registry.nondifferentiable(BUILTINS_NONDIFFERENTIABLE)
    # the identity, but the user asked for no gradient: the one entry that is not zero
    # because of its result
    registry.nondifferentiable({runtime.stop_gradient: "blocks the gradient on purpose"})
    registry.array_makers([builtins.abs])
    registry.refuse(
        TEXT, "makes text of a differentiated value, which carries no gradient", TEXT_HINT
    )
    # iterable(xs) is xs itself: when xs is a list, so is its adjoint
    registry.sequence_params(
        {
            builtins.sum: ("iterable",),
            builtins.list: ("iterable",),
            builtins.tuple: ("iterable",),
            runtime.iterable: ("x",),
        }
    )
    registry.sequence_makers([builtins.list, builtins.tuple, builtins.divmod, runtime.without_item])
    registry.nondifferentiable({runtime.item_index: "an index or key (of xs.pop(i))"})
    registry.nondifferentiable({runtime.keys_of: "the keys of a dict (dict(d), {**d})"})
    registry.nondifferentiable({runtime.same_memory: "whether an update is through a view"})
    registry.nondifferentiable({runtime.same_array: "whether a name is an array itself"})
    registry.nondifferentiable({runtime.part_of: "whether an update is through a view"})
    registry.nondifferentiable({runtime.same_view: "which view of an array a name is"})
    # zeros for an array or a number; the form reads whatever it gives for its shape only
    registry.nondifferentiable({runtime.shape_kept: "a stand-in read for its shape only"})

    _bespoke(registry)


def _bespoke(registry: Registry) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent

    @bilinear(registry, gast.MatMult, ("x", "y"))
    def matmul(result, x, y):
        d[x] = runtime.matmul_vjp_a(d[result], x, y)
        d[y] = runtime.matmul_vjp_b(d[result], x, y)

    @linear(registry, builtins.float, "x")
    def float_(result, x=0.0):
        d[x] = d[result]

    @linear(registry, builtins.sum, ("iterable", "start"))
    def sum_(result, iterable, start=0):
        d[iterable] = runtime.unsum(d[result], iterable)
        d[start] = runtime.unbroadcast(d[result], start)

    @linear(registry, builtins.list, "iterable")
    def list_(result, iterable=()):
        d[iterable] = runtime.unsequence(d[result], iterable)

    @linear(registry, builtins.tuple, "iterable")
    def tuple_(result, iterable=()):
        d[iterable] = runtime.unsequence(d[result], iterable)

    # Helpers that normalize/comprehensions inserts.
    @adjoint(runtime.iterable)
    def iterable_(result, x):
        d[x] = runtime.unsequence(d[result], x)  # a dict's keys carry no gradient

    @tangent(runtime.iterable)
    def iterable_tangent(result, x):
        d[result] = runtime.iterable_tangent(d[x], x)

    # np.vectorize(h)(x), lowered to [h(e) for e in np.ravel(x)] (normalize/vectorized.py)
    @linear(registry, runtime.vectorized, "results", constant=("like",))  # its shape
    def vectorized(result, results, like):
        d[results] = runtime.unvectorized(d[result], results)

    # np.apply_along_axis(h, axis, a), lowered to
    # along_axis([h(r) for r in rows_along(a, axis)], a, axis)
    @linear(registry, runtime.rows_along, "a", constant=("axis",))
    def rows_along(result, a, axis):
        d[a] = runtime.unrows_along(d[result], a, axis)

    @linear(registry, runtime.along_axis, "results", constant=("a", "axis"))
    def along_axis(result, results, a, axis):
        d[results] = runtime.unalong_axis(d[result], results, a, axis)

    registry.sequence_params({runtime.vectorized: ("results",), runtime.along_axis: ("results",)})
    registry.sequence_params({runtime.unrows_along: ("g",)})
    registry.sequence_makers([runtime.unvectorized, runtime.rows_along, runtime.unalong_axis])

    @linear(registry, runtime.dict_of, "values")
    def dict_of(result, keys, values):
        d[values] = runtime.undict_of(d[result], keys)

    # xs.pop(i) leaves without_item(xs, k) (normalize/anf_expressions.py)
    @adjoint(runtime.without_item, constant=("key",))
    def without_item(result, xs, key):
        d[xs] = runtime.with_zero_item(d[result], key)

    @tangent(runtime.without_item)
    def without_item_tangent(result, xs, key):
        d[result] = runtime.without_item(d[xs], key)

    # (x // y, x % y): the quotient is locally constant, the remainder is x % y
    @adjoint(builtins.divmod, unbroadcast=True)
    def divmod_(result, x, y):
        g = runtime.part(d[result], 1, result[1])
        d[x] = g
        d[y] = -g * result[0]

    @tangent(builtins.divmod)
    def divmod_tangent(result, x, y):
        d[result] = runtime.quotient_remainder_tangent(d[x] - d[y] * result[0], result)

    @adjoint(builtins.abs)
    def abs_(result, x):
        d[x] = d[result] * np.sign(x)

    @tangent(builtins.abs)
    def abs_tangent(result, x):
        d[result] = d[x] * np.sign(x)
