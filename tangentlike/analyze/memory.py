"""The abstract memory of analyze.aliases: what a value may refer to, and what is certain.

A root is a memory a name may refer to, whole or in part: a parameter's, a global
object's, or one a statement made ("new"). Numbers, strings and None refer to none.
`Values` says, for one A-normal-form value, which roots it may refer to and
whether it is certainly an integer, certainly not a list, or certainly a view.
Nothing here writes to the tree.
"""

from __future__ import annotations

import builtins
import inspect
import types
from collections.abc import Callable
from dataclasses import dataclass, field

import gast
import numpy as np

from .. import runtime
from ..parse.resolve import MISSING, Scope
from ..rules.registry import Registry
from ..runtime import boundary, forward
from ..syntax import nodes
from ..syntax.nodes import walk
from . import tuple_items, views
from .activity import SHAPE_ATTRIBUTES, user_function
from .calls import bind_call, hides_arguments
from .effects import Effects
from .joins import joined_views
from .numeric import float_result, floating
from .views import View, _hashable

Root = tuple[str, object]  # ("param", name) | ("global", name) | ("new", statement number)
Roots = frozenset[Root]
NONE: Roots = frozenset()

# Builtins whose result is a number or other immutable value, never an argument.
_IMMUTABLE_RESULTS = frozenset(
    {builtins.float, builtins.int, builtins.bool, builtins.complex, builtins.len}
    | {builtins.round, builtins.hash, builtins.id, builtins.isinstance, builtins.str}
)
_INT_OPS = (gast.Add, gast.Sub, gast.Mult, gast.FloorDiv, gast.Mod)
_IMMUTABLE_TYPES = (int, float, complex, str, bytes, bool, type(None), np.generic, range)
_CODE_TYPES = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, np.ufunc)
# NumPy's index tricks: objects holding no array (nothing an update can change), whose
# subscript makes a new array (`np.r_[a, b]` concatenates copies; `np.mgrid[0:3]`).
_NEW_ARRAY_SUBSCRIPTS = (np.r_, np.c_, np.mgrid, np.ogrid)
_INDEX_TRICKS = (*_NEW_ARRAY_SUBSCRIPTS, np.s_, np.index_exp)
# Run-time questions of generated code, whose answers (bools, ints) hold no memory.
_QUESTIONS = (
    runtime.same_memory,
    runtime.same_array,
    runtime.part_of,
    runtime.same_view,
)


@dataclass(frozen=True)
class Memory:
    roots: dict[str, Roots] = field(default_factory=dict)
    views: dict[str, View] = field(default_factory=dict)
    ints: frozenset[str] = frozenset()
    ranges: frozenset[str] = frozenset()  # certainly range objects: their items are ints
    arrays: frozenset[str] = frozenset()
    floats: frozenset[str] = frozenset()  # certainly floats or arrays (analyze.numeric)
    made: dict[str, frozenset[int]] = field(default_factory=dict)
    read: Roots = NONE
    items: dict[str, tuple_items.Items] = field(default_factory=dict)  # tuples' items

    def join(self, other: Memory, unbound: bool = True, same: bool = True) -> Memory:
        """What holds on either path. A name one path never binds keeps the other's facts
        (`unbound`): a read of it after that path would fail (`if c: v = y` ...
        `v += 1.0`); a name an alias of b on one path only is a "same" view of b, and a
        reshape of b on one path stays one where the other path shares none of b
        (analyze/joins.py; only with `same`: a loop's join stops making them after a few
        rounds, so it settles)."""
        mine = frozenset(self.roots.keys() - other.roots.keys()) if unbound else frozenset()
        theirs = frozenset(other.roots.keys() - self.roots.keys()) if unbound else frozenset()
        views = {n: v for n, v in self.views.items() if other.views.get(n) == v or n in mine}
        views.update((n, v) for n, v in other.views.items() if n in theirs)
        for n in sorted((self.views.keys() | other.views.keys()) - views.keys() if same else ()):
            mine_, theirs_ = self.views.get(n), other.views.get(n)
            for kept in joined_views(n, mine_, theirs_, self.roots, other.roots):
                bound = {n, kept.base}
                if bound <= self.roots.keys() and bound <= other.roots.keys():
                    views[n] = kept  # `if c: z = y` (else z = y * 2.0): z may be y itself
                    break

        def facts(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
            return (a & b) | (a & mine) | (b & theirs)

        return Memory(
            roots=_united(self.roots, other.roots),
            views=views,
            ints=facts(self.ints, other.ints),
            ranges=facts(self.ranges, other.ranges),
            arrays=facts(self.arrays, other.arrays),
            floats=facts(self.floats, other.floats),
            made=_united(self.made, other.made),
            read=self.read | other.read,
            items=tuple_items.join(self.items, other.items, mine, theirs),
        )


def _united(a: dict[str, frozenset], b: dict[str, frozenset]) -> dict[str, frozenset]:
    """Name by name, the union of a's and b's sets (a name one has not: the other's).
    The two sides of a join mostly hold the same sets; only the names whose sets differ
    are united (found by C-level set differences of the items: a join of a large
    function's memories stays cheap)."""
    out = dict(a)
    for n, v in b.items() - a.items():
        old = out.get(n)
        out[n] = v if old is None else old | v
    return out


class Values:
    """Classifies values against a function's locals, its scope, the registry and the
    effects of the user functions it calls."""

    def __init__(
        self,
        scope: Scope,
        registry: Registry,
        effects_of: Callable[[object], Effects | None],
        locals_: set[str],
    ) -> None:
        self.scope, self.registry, self.effects_of = scope, registry, effects_of
        self.locals = locals_

    def name_roots(self, node: gast.expr, m: Memory) -> Roots:
        if isinstance(node, gast.Name) and node.id in self.locals:
            return m.roots.get(node.id, NONE)
        if isinstance(node, (gast.Name, gast.Attribute)):
            obj = self.scope.resolve(node)
            if obj is MISSING or _immutable(obj):
                return NONE
            return frozenset({("global", _dotted(node))})
        if isinstance(node, (gast.List, gast.Tuple)):
            return self.atoms_roots(node.elts, m)
        if isinstance(node, gast.Starred):
            return self.name_roots(node.value, m)
        return NONE

    def new_array_subscript(self, value: gast.Subscript) -> bool:
        """`np.r_[...]`, `np.c_[...]`, `np.mgrid[...]`, `np.ogrid[...]`: a new array."""
        if not isinstance(value.value, (gast.Name, gast.Attribute)):
            return False
        return new_array_subscript(self.scope.resolve(value.value))

    def atoms_roots(self, atoms: list[gast.expr], m: Memory) -> Roots:
        return frozenset().union(*(self.name_roots(a, m) for a in atoms))

    def value_roots(self, value: gast.expr, m: Memory, fresh: Roots) -> Roots:
        """What `value` may refer to; `fresh`: the memory it is when it is new."""
        if isinstance(value, (gast.Name, gast.Attribute, gast.Constant)):
            base = value.value if isinstance(value, gast.Attribute) else None
            if isinstance(base, gast.Name) and base.id in self.locals:  # obj.attr: part of obj
                return NONE if value.attr in SHAPE_ATTRIBUTES else m.roots.get(base.id, NONE)
            return self.name_roots(value, m)
        if isinstance(value, gast.BinOp):  # `xs + ys` keeps the lists' elements
            return fresh | self.atoms_roots(self.list_operands(value, m), m)
        if isinstance(value, gast.BoolOp):  # `a or b` is a or b
            return self.atoms_roots(value.values, m)
        if isinstance(value, (gast.UnaryOp, gast.Compare, gast.JoinedStr)):
            return fresh
        if isinstance(value, gast.Subscript):
            if self.new_array_subscript(value):
                return fresh
            return self.name_roots(value.value, m)
        if isinstance(value, (gast.List, gast.Tuple)):
            return fresh | self.atoms_roots(value.elts, m)
        if isinstance(value, gast.Dict):
            return fresh | self.atoms_roots(value.values, m)
        if isinstance(value, gast.Call):
            if self.pushed_mark(value):
                return NONE
            return fresh | self.call_roots(value, m)
        return fresh | self.atoms_roots(list(walk(value)), m)

    def pushed_mark(self, call: gast.Call) -> bool:
        """`pushed(x)` in a gradient's differentiable form (higher/form_pairs.py): x itself,
        as a stack entry and the key a pop compares it with, which the form reads back only
        through the name it saved x under: memory nothing reads values from (none, not
        even new memory, so no array popped in a loop and written counts as this one)."""
        return self.scope.resolve(call.func) is runtime.pushed

    def call_roots(self, call: gast.Call, m: Memory) -> Roots:
        """The memories of the arguments the call's result may share."""
        arguments = [*call.args, *(k.value for k in call.keywords)]
        everything = self.atoms_roots(arguments, m)
        if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
            everything |= self.name_roots(call.func.value, m)  # a method of a local object
        callee = self.scope.resolve(call.func)
        if _hashable(callee) and callee in _FIRST_ARGUMENT_ONLY:
            return self.atoms_roots(call.args[:1], m)  # the others are read for their shape
        if _hashable(callee) and callee in _SOME_ARGUMENTS and not call.keywords:
            kept = [a for k, a in enumerate(call.args) if k in _SOME_ARGUMENTS[callee]]
            return self.atoms_roots(kept, m)
        if callee in _QUESTIONS:
            return NONE  # a bool (an int)
        if callee is runtime.entry_copy:
            return NONE  # a bool, a copy
        if callee is runtime.kept_apart:
            return NONE  # a copy (its value, when not a copy, is not read)
        if callee is runtime.zeros_of:
            return NONE  # new zeros, or None (a container's zero adjoint)
        if callee is forward.fresh_tangent:
            return NONE  # a copy (arrays and containers copied, numbers immutable)
        if callee is runtime.own_values:  # a copy of an array; anything else itself
            first = call.args[:1]
            return NONE if first and self.is_array(first[0], m) else self.atoms_roots(first, m)
        if callee is runtime.pushed:
            return NONE  # a stack entry read back only through a name (higher/form_pairs)
        if callee is runtime.shape_kept:  # zeros for an array, a number; else itself
            first = call.args[:1]
            return NONE if first and self.is_array(first[0], m) else self.atoms_roots(first, m)
        if callee is MISSING or runtime.owns(callee):
            return everything  # iterable(xs), stop_gradient(x): the argument itself
        if _hashable(callee) and callee in _IMMUTABLE_RESULTS:
            return NONE
        if callee is builtins.sum and len(call.args) == 1 and not call.keywords:
            return NONE  # 0 + x0 + x1 + ...: a new value (0 for nothing), never an item
        self.registry.lookup(callee)  # loads deferred rule files (scipy.special) it needs
        if isinstance(callee, np.ufunc) or self.registry.makes_new_array(callee):
            return NONE
        if user_function(callee, self.registry):
            effects = self.effects_of(callee)
            if effects is None or hides_arguments(call):
                return everything
            shared = set(effects.globals)
            for param, value in bound_arguments(callee, call).items():
                if param in effects.returned:
                    shared |= self.atoms_roots(value, m)
            return frozenset(shared)
        if self.registry.is_nondifferentiable(callee):
            return NONE  # shapes, comparisons, index arrays, constants: new values
        return everything  # rule-backed views (reshape, transpose, ...) and the unknown

    def view(self, value: gast.expr, m: Memory, stmt: gast.stmt) -> View | None:
        """`base[index]` certainly a view of base, or base itself, its transpose or a
        reshape of it, perhaps views (of a local base certainly no list). A base that is
        an alias of another name counts as that name (`b = a` after `a = y`: b is y). The
        rebinding `z = _z1` of `z op= v` lowered out of place (`_z1 = z op v`) makes z no
        view of the temporary, which nothing reads again: z is that memory (its roots
        say so), and views of z and updates of z stay of z."""
        if getattr(stmt, "update_result", False):
            return None
        found = self._view(value, m, stmt)
        alias = m.views.get(found.base) if found is not None else None
        if alias is None or alias.kind != "alias" or alias.base in found.reads:
            return found
        again = nodes.deepcopy(value)
        for node in walk(again):
            if isinstance(node, gast.Name) and node.id == found.base:
                node.id = alias.base
        index = again.slice if isinstance(again, gast.Subscript) else None
        maybe = found.maybe or alias.maybe
        return View(alias.base, index, stmt, found.reads, found.kind, again, maybe)

    def _view(self, value: gast.expr, m: Memory, stmt: gast.stmt) -> View | None:
        return views.find(value, m, stmt, self.locals, self.scope.resolve)

    def is_int(self, value: gast.expr, m: Memory) -> bool:
        if isinstance(value, gast.Constant):
            return isinstance(value.value, int) and not isinstance(value.value, bool)
        if isinstance(value, gast.Name):
            return value.id in m.ints
        if isinstance(value, gast.BinOp):
            return isinstance(value.op, _INT_OPS) and all(
                self.is_int(o, m) for o in (value.left, value.right)
            )
        if isinstance(value, gast.Call):
            return self.scope.resolve(value.func) in (builtins.len, builtins.int)
        if isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name):
            return value.value.id in m.ranges and self.is_int(value.slice, m)  # `_seq1[_k1]`
        return False

    def is_range(self, value: gast.expr) -> bool:
        return isinstance(value, gast.Call) and self.scope.resolve(value.func) is builtins.range

    def int_op(self, op: gast.operator, value: gast.expr, m: Memory) -> bool:
        return isinstance(op, _INT_OPS) and self.is_int(value, m)

    def is_array(self, value: gast.expr, m: Memory) -> bool:
        """Certainly not a list, tuple or dict (`x * 1.0`: a list cannot be multiplied so)."""
        if isinstance(value, gast.Constant):
            return not isinstance(value.value, (str, bytes))
        if isinstance(value, gast.Name):
            return value.id in m.arrays
        if isinstance(value, (gast.UnaryOp, gast.Compare)):
            return True
        if isinstance(value, gast.BinOp):
            return not self.list_operands(value, m)
        if isinstance(value, gast.Subscript):
            return self.new_array_subscript(value) or self.is_array(value.value, m)
        if isinstance(value, gast.Call):
            callee = self.scope.resolve(value.func)
            if _hashable(callee) and (
                callee in views.ARRAY_VIEWS
                or callee in (runtime.entry_copy, runtime.kept_apart, runtime.popped_array)
            ):
                return True
            if callee is runtime.updated:  # `z op v`, kept an array where z is a 0-d one
                return len(value.args) == 2 and self.is_array(value.args[1], m)
            if callee is runtime.popped_array:  # an array or None, or it raises
                return True
            if callee in _ARRAY_WHERE_FIRST_IS:  # (see call_roots)
                return len(value.args) == 1 and self.is_array(value.args[0], m)
            return isinstance(callee, np.ufunc) or self.registry.makes_new_array(callee)
        return False

    def is_float(self, value: gast.expr, m: Memory) -> bool:
        """Certainly a float or float array, never an integer (analyze.numeric)."""

        def float_call(call: gast.Call) -> bool:
            callee = self.scope.resolve(call.func)
            return float_result(callee, call, self.registry, lambda v: self.is_float(v, m))

        return floating(value, m.floats, float_call)

    def list_operands(self, value: gast.BinOp, m: Memory) -> list[gast.expr]:
        """The operands of `value` that may be lists, tuples or strings it concatenates or
        repeats (none when it divides, or multiplies by a float or an array: no list can
        be; nor in `x * x`: a list times a list fails)."""
        operands = [value.left, value.right]
        if not isinstance(value.op, (gast.Add, gast.Mult)) or any(
            self.is_float(o, m) for o in operands
        ):
            return []
        left, right = operands
        same = isinstance(left, gast.Name) and isinstance(right, gast.Name) and left.id == right.id
        if same and isinstance(value.op, gast.Mult):  # (xs + xs concatenates)
            return []
        lists = [o for o in operands if self.may_list(o, m)]
        return lists if isinstance(value.op, gast.Mult) or len(lists) == 2 else []

    def may_list(self, operand: gast.expr, m: Memory) -> bool:
        if isinstance(operand, gast.Constant):
            return isinstance(operand.value, (str, bytes))
        if isinstance(operand, gast.Name) and operand.id in self.locals:
            return operand.id not in m.arrays
        return isinstance(operand, (gast.List, gast.Tuple, gast.Name, gast.Attribute))


def bound_arguments(callee: object, call: gast.Call) -> dict[str, list[gast.expr]]:
    """Parameter -> the argument atoms it receives (all of them when binding fails)."""
    try:
        bound = bind_call(callee, call)
    except (TypeError, ValueError):
        every = [*call.args, *(k.value for k in call.keywords)]
        return {p: every for p in _param_names(callee)}
    out = {}
    for param, value in bound.arguments.items():
        if isinstance(value, dict):
            out[param] = list(value.values())
        elif isinstance(value, tuple):
            out[param] = list(value)
        else:
            out[param] = [value]
    return out


def _param_names(callee: object) -> list[str]:
    try:
        return list(inspect.signature(callee).parameters)
    except (TypeError, ValueError):
        return []


def new_array_subscript(obj: object) -> bool:
    """Whether `obj[...]` makes a new array whatever the index (np.r_, np.c_, np.mgrid)."""
    return any(obj is trick for trick in _NEW_ARRAY_SUBSCRIPTS)


def _immutable(obj: object) -> bool:
    if isinstance(obj, tuple):
        return all(_immutable(o) for o in obj)
    if any(obj is trick for trick in _INDEX_TRICKS):
        return True
    return isinstance(obj, (*_IMMUTABLE_TYPES, *_CODE_TYPES)) or inspect.isroutine(obj)


# Helpers of generated code (differentiated again: grad of grad) whose result is their
# first argument or new memory: the other arguments give shapes, names and places.
_FIRST_ARGUMENT_ONLY = frozenset(
    {
        runtime.unbroadcast,
        runtime.sum_to,
        boundary.adjoint_contribution,
        boundary.rule_contribution,
        boundary.gradient_like,
        boundary.seed_like,
        # the adjoint's pieces or new arrays: the others are read for shapes (or are the
        # other factor of a product, multiplied into a new array)
        runtime.spread,
        runtime.unsum,
        runtime.unadd,
        runtime.unmul,
        runtime.unstack,
        runtime.unarray,
        runtime.unconcatenate_index,
        runtime.unsubscript,
        runtime.unsetitem,
        runtime.matmul_vjp_a,
        runtime.matmul_vjp_b,
        runtime.dot_vjp_a,
        runtime.dot_vjp_b,
    }
)


# Helpers of generated code whose result is made of the arguments at these positions or
# new memory: add_item(b, x, index, g) returns b (a container adjoint updated in place)
# or a new array, holding g's items; x and index give shapes and places.
_SOME_ARGUMENTS = {runtime.add_item: (0, 3), runtime.updated: (1,)}


# Helpers of generated code whose result is an array where their first argument is one
# (see call_roots): iterable's and own_values', and a jvp's fresh_tangent (a copy of the
# tangent it is given, arrays and containers copied).
_ARRAY_WHERE_FIRST_IS = (runtime.iterable, runtime.own_values, forward.fresh_tangent)


def _dotted(node: gast.expr) -> str:
    if isinstance(node, gast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, gast.Name) else "?"
