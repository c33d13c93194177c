"""Which names may share memory, on A-normal form ("in place is in place", DESIGN.md).

Assumes: A-normal form (normalize.anf), where `name op= atom` may still appear.
Guarantees: `analyze` returns a frozen `Aliases` and never writes to the tree.
For each simple statement s, `Aliases.before[id(s)]` is the `Memory` when s runs:
  - `roots`: name -> the memories it may refer to, whole or in part: a
    parameter's, a global object's, or one made by a statement ("new"). Numbers,
    strings and None refer to none: they are immutable. A result of arithmetic,
    a ufunc or a function the registry says allocates (`makes_new_array`) is
    new; a subscript, a view-making or unknown function (reshape, transpose,
    asarray, ...), a helper that may return an argument (analyze.effects) or a
    list, tuple or dict refers to its operands' memories too.
  - `views`: name -> View: the name certainly is the view base[index] (an index
    with a slice and otherwise integers, of a base that is certainly no list),
    and neither the name, the base nor the index was rebound since.
  - `ints` / `arrays`: names certainly holding an integer / certainly not a list,
    tuple or dict.
  - `made`: name -> the statements that may have bound it last (for messages).
  - `read`: the memories read by earlier statements `reads` selects (if given).
Liveness comes with it (`live`, from analyze.liveness).
"""

from __future__ import annotations

import builtins
import inspect
import types
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import gast
import numpy as np

from .. import runtime
from ..parse.resolve import MISSING, Scope
from ..rules.registry import Registry
from ..syntax import nodes
from . import liveness
from .activity import SHAPE_ATTRIBUTES, user_function
from .calls import bind_call, hides_arguments
from .effects import Effects

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


@dataclass(frozen=True)
class View:
    """`name = base[index]`, certainly a view of base (made at `stmt`)."""

    base: str
    index: gast.expr
    stmt: gast.stmt
    reads: frozenset[str]  # the names the index reads


@dataclass(frozen=True)
class Memory:
    roots: dict[str, Roots] = field(default_factory=dict)
    views: dict[str, View] = field(default_factory=dict)
    ints: frozenset[str] = frozenset()
    arrays: frozenset[str] = frozenset()
    made: dict[str, frozenset[int]] = field(default_factory=dict)
    read: Roots = NONE

    def join(self, other: Memory) -> Memory:
        names = self.roots.keys() | other.roots.keys()
        made = self.made.keys() | other.made.keys()
        return Memory(
            roots={n: self.roots.get(n, NONE) | other.roots.get(n, NONE) for n in names},
            views={n: v for n, v in self.views.items() if other.views.get(n) == v},
            ints=self.ints & other.ints,
            arrays=self.arrays & other.arrays,
            made={n: self.made.get(n, frozenset()) | other.made.get(n, frozenset()) for n in made},
            read=self.read | other.read,
        )


@dataclass(frozen=True)
class Aliases:
    before: dict[int, Memory]  # id(simple statement) -> memory when it runs
    live: dict[int, frozenset[str]]  # id(simple statement) -> names read later
    statements: dict[int, gast.stmt]  # id -> every statement (to point at where names are made)
    params: tuple[str, ...]

    def roots(self, stmt: gast.stmt, name: str) -> Roots:
        return self.before[id(stmt)].roots.get(name, NONE)

    def sharers(self, stmt: gast.stmt, name: str) -> list[str]:
        """The other names that may share memory with `name` when stmt runs, user names first."""
        mine = self.roots(stmt, name)
        found = [n for n, r in self.before[id(stmt)].roots.items() if n != name and r & mine]
        return sorted(found, key=lambda n: (n.startswith("_"), n))

    def live_sharers(self, stmt: gast.stmt, name: str, skip: tuple[str, ...] = ()) -> list[str]:
        """Sharers of `name` read after stmt (`name` itself counts unless skipped)."""
        live = self.live.get(id(stmt), frozenset())
        found = [n for n in [name, *self.sharers(stmt, name)] if n in live and n not in skip]
        return found if self.roots(stmt, name) else []

    def global_roots(self, stmt: gast.stmt, name: str) -> list[Root]:
        return sorted((r for r in self.roots(stmt, name) if r[0] == "global"), key=str)

    def params_of(self, stmt: gast.stmt, name: str) -> list[str]:
        roots = self.roots(stmt, name)
        return [p for p in self.params if ("param", p) in roots]

    def view(self, stmt: gast.stmt, name: str) -> View | None:
        return self.before[id(stmt)].views.get(name)

    def made_at(self, stmt: gast.stmt, name: str) -> gast.stmt | None:
        """The earliest statement that may have bound `name` before stmt, if any."""
        made = [self.statements[i] for i in self.before[id(stmt)].made.get(name, ())]
        made = [s for s in made if getattr(s, "lineno", None) is not None]
        return min(made, key=lambda s: (s.lineno, s.col_offset)) if made else None


def analyze(
    fn: gast.FunctionDef,
    scope: Scope,
    registry: Registry,
    effects_of: Callable[[object], Effects | None],
    structured: frozenset[str] = frozenset(),
    reads: Callable[[gast.stmt], bool] | None = None,
) -> Aliases:
    """`effects_of(callee)`: a user function's Effects, None when unknown (its result may
    share any argument's memory); `structured`: names that may hold lists, tuples or dicts
    (analyze.containers); `reads(stmt)`: whether stmt's reads count in `Memory.read`."""
    forward = _Forward(fn, scope, registry, effects_of, structured, reads)
    params = nodes.all_param_names(fn)
    start = Memory(roots={p: frozenset({("param", p)}) for p in params})
    forward.block(fn.body, start)
    return Aliases(
        before=forward.before,
        live=liveness.live_after(fn),
        statements=forward.statements,
        params=tuple(params),
    )


class _Forward:
    """The forward may/must analysis; `before` fills as it runs."""

    def __init__(self, fn, scope, registry, effects_of, structured, reads) -> None:
        self.scope, self.registry, self.effects_of = scope, registry, effects_of
        self.structured, self.reads = structured, reads
        self.statements = {id(s): s for s in gast.walk(fn) if isinstance(s, gast.stmt)}
        self.number = {id(s): k for k, s in enumerate(gast.walk(fn)) if isinstance(s, gast.stmt)}
        self.locals = set(nodes.all_param_names(fn)) | nodes.names_stored(fn)
        self.before: dict[int, Memory] = {}

    # -- statements ---------------------------------------------------------------
    def block(self, stmts: list[gast.stmt], m: Memory) -> Memory:
        for stmt in stmts:
            m = self.stmt(stmt, m)
        return m

    def stmt(self, stmt: gast.stmt, m: Memory) -> Memory:
        if isinstance(stmt, gast.If):
            return self.block(stmt.body, m).join(self.block(stmt.orelse, m))
        if isinstance(stmt, (gast.For, gast.While)):
            head = m
            while True:
                inside = head
                if isinstance(stmt, gast.For):  # the position: an integer
                    inside = self.bind(head, stmt.target.id, NONE, stmt, integer=True, array=True)
                joined = m.join(self.block(stmt.body, inside))
                if joined == head:
                    return head
                head = joined
        self.before[id(stmt)] = m
        if self.reads is not None and self.reads(stmt):
            read = set().union(*(m.roots.get(n, NONE) for n in liveness.reads(stmt)))
            m = replace(m, read=m.read | read)
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            value = stmt.value
            name = stmt.targets[0].id
            new = self.bind(
                m,
                name,
                self.value_roots(value, m, stmt),
                stmt,
                integer=self.is_int(value, m),
                array=self.is_array(value, m),
            )
            view = self.view(value, m, stmt)
            if view is not None and name not in (view.base, *view.reads):
                new = replace(new, views={**new.views, name: view})
            return new
        if nodes.is_item_write(stmt):
            y = nodes.assigned_name(stmt)
            if y in self.structured and y not in m.arrays:  # a list or dict holds the value
                return self.grow(m, y, self.value_roots(stmt.value, m, stmt))
            return m
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            z, value = stmt.target.id, stmt.value
            more = frozenset({self.new(stmt)})
            if isinstance(stmt.op, (gast.Add, gast.Mult)) and z not in m.arrays:
                more |= self.value_roots(value, m, stmt)  # `xs += ys` extends the list xs
            ints = m.ints if z in m.ints and self.int_op(stmt.op, value, m) else m.ints - {z}
            return self.killed(replace(self.grow(m, z, more), ints=ints), z, keep_own=True)
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            call = stmt.value
            if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
                xs = call.func.value.id  # xs.append(v), xs.extend(ys): xs holds them now
                if xs in self.locals:
                    return self.grow(m, xs, self.atoms_roots(call.args, m))
        return m

    def bind(self, m, name, roots, stmt, *, integer, array) -> Memory:
        m = self.killed(m, name, keep_own=False)
        return replace(
            m,
            roots={**m.roots, name: roots},
            ints=m.ints | {name} if integer else m.ints - {name},
            arrays=m.arrays | {name} if array else m.arrays - {name},
            made={**m.made, name: frozenset({id(stmt)})},
        )

    def grow(self, m: Memory, name: str, more: Roots) -> Memory:
        return replace(m, roots={**m.roots, name: m.roots.get(name, NONE) | more})

    @staticmethod
    def killed(m: Memory, name: str, keep_own: bool) -> Memory:
        """Drop the view facts `name` being rebound breaks."""
        views = {
            n: v
            for n, v in m.views.items()
            if (n != name or keep_own) and v.base != name and name not in v.reads
        }
        return replace(m, views=views) if len(views) != len(m.views) else m

    # -- values -----------------------------------------------------------------------
    def new(self, stmt: gast.stmt) -> Root:
        return ("new", self.number[id(stmt)])

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

    def atoms_roots(self, atoms: list[gast.expr], m: Memory) -> Roots:
        return frozenset().union(*(self.name_roots(a, m) for a in atoms))

    def value_roots(self, value: gast.expr, m: Memory, stmt: gast.stmt) -> Roots:
        fresh = frozenset({self.new(stmt)})
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
            return self.name_roots(value.value, m)
        if isinstance(value, (gast.List, gast.Tuple)):
            return fresh | self.atoms_roots(value.elts, m)
        if isinstance(value, gast.Dict):
            return fresh | self.atoms_roots(value.values, m)
        if isinstance(value, gast.Call):
            return fresh | self.call_roots(value, m)
        return fresh | self.atoms_roots(list(gast.walk(value)), m)

    def call_roots(self, call: gast.Call, m: Memory) -> Roots:
        """The memories of the arguments the call's result may share."""
        arguments = [*call.args, *(k.value for k in call.keywords)]
        everything = self.atoms_roots(arguments, m)
        if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
            everything |= self.name_roots(call.func.value, m)  # a method of a local object
        callee = self.scope.resolve(call.func)
        if callee is MISSING or getattr(callee, "__module__", None) == runtime.__name__:
            return everything  # iterable(xs), stop_gradient(x): the argument itself
        if _hashable(callee) and callee in _IMMUTABLE_RESULTS:
            return NONE
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
        if not (isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name)):
            return None
        base = value.value.id
        if base not in m.arrays or not _sure_view(value.slice, m.ints):
            return None
        return View(base, value.slice, stmt, frozenset(nodes.names_read(value.slice)))

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
        return False

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
            return self.is_array(value.value, m)
        if isinstance(value, gast.Call):
            callee = self.scope.resolve(value.func)
            return isinstance(callee, np.ufunc) or self.registry.makes_new_array(callee)
        return False

    def list_operands(self, value: gast.BinOp, m: Memory) -> list[gast.expr]:
        """The operands of `value` that may be lists, tuples or strings it concatenates or
        repeats (none when it divides, or multiplies by 1.0: no list can be)."""
        operands = [value.left, value.right]
        if not isinstance(value.op, (gast.Add, gast.Mult)) or any(
            isinstance(o, gast.Constant) and type(o.value) in (float, complex) for o in operands
        ):
            return []
        return [o for o in operands if self.may_list(o, m)]

    def may_list(self, operand: gast.expr, m: Memory) -> bool:
        if isinstance(operand, gast.Constant):
            return isinstance(operand.value, (str, bytes))
        if isinstance(operand, gast.Name) and operand.id in self.locals:
            return operand.id not in m.arrays
        return isinstance(operand, (gast.List, gast.Tuple, gast.Name, gast.Attribute))


def _sure_view(index: gast.expr, ints: frozenset[str]) -> bool:
    """An index that makes a view of any array it applies to: a slice, and otherwise
    integers, None or `...` (an integer alone may give a number: a copy)."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if not any(isinstance(p, gast.Slice) for p in parts):
        return False
    for p in parts:
        if isinstance(p, gast.Slice):
            continue
        if isinstance(p, gast.Constant) and (
            p.value is None or p.value is Ellipsis or type(p.value) is int
        ):
            continue
        if not (isinstance(p, gast.Name) and p.id in ints):
            return False
    return True


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


def _immutable(obj: object) -> bool:
    if isinstance(obj, tuple):
        return all(_immutable(o) for o in obj)
    return isinstance(obj, (*_IMMUTABLE_TYPES, *_CODE_TYPES)) or inspect.isroutine(obj)


def _hashable(obj: object) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _dotted(node: gast.expr) -> str:
    if isinstance(node, gast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, gast.Name) else "?"
