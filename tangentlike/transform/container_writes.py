"""Writes into lists and dicts the function makes itself: `out[i] = v`, `d[k] = v`, and
pops from them (`xs.pop(i)`, lowered by normalize/anf_expressions.py to a read and a new
list `without_item(xs, k)` bound to the same name, which is the pop only while no other
name holds the list).

Assumes: A-normal form and `Context.structured`. Guarantees: `find` returns the names
written by index or key that are certainly a list or dict this function made (every
binding a list or dict literal, a repetition or concatenation of a list it made,
`list(...)`, `dict(...)`, a comprehension's result, or None, with at least one of the
others: `None[k] = v` raises; in a gradient's differentiable form, also a checked pop of
what the form pushed for that name, transform/stack_chains.py), and refuses, with a
location, the writes into those it could not follow: a slice write, and a write while
another name, container or function may hold the same object and read it afterwards
(the adjoint of a read through that other name would miss the write; the form's push
of the name for its rebinding, popped back into it, is none); and every pop but from a list or
dict the function made, held by no other name before the pop. Writes into such a container are
differentiated by transform/reverse.py (`take_item`, `restore_item`) and, in forward
mode, as the same write on the tangents; writes into arrays are not concerned here.
"""

from __future__ import annotations

import builtins
from typing import Any

import gast

from .. import runtime
from ..analyze import own_containers
from ..analyze.containers import mutation
from ..parse import origins
from ..syntax import nodes
from ..syntax.nodes import walk
from .containers import statements
from .stack_chains import Parked, parked_containers, stand_in

_LIST, _DICT = "list", "dict"


def find(ctx: Any) -> frozenset[str]:
    """The names written by index or key that hold a list or dict this function made;
    refuses the writes into them, and the pops from any list or dict, that could not be
    followed exactly."""
    parked = parked_containers(ctx)
    bindings = _bindings(ctx.fn, parked)
    params = set(nodes.all_param_names(ctx.fn))
    own = own_containers.rebound(ctx.fn, ctx.scope)  # `p = dict(p)`: p is its own
    changes: dict[str, list[gast.Assign]] = {}
    pops: dict[str, gast.Assign] = {}
    for stmt in statements(ctx.fn.body):
        y = nodes.assigned_name(stmt) if nodes.is_item_write(stmt) else None
        if y is not None and not _argument(y, stmt, params, own):
            changes.setdefault(y, []).append(stmt)
        elif _popped(ctx, stmt) is not None:
            changes.setdefault(_popped(ctx, stmt), []).append(stmt)
            pops.setdefault(_popped(ctx, stmt), stmt)
    found = set()
    for y, stmts in changes.items():
        fresh = y in ctx.structured and _kind(ctx, y, bindings, frozenset()) is not None
        argument = any(_argument(y, s, params, own) for s in stmts)
        if y in pops and (argument or not fresh):
            raise ctx.error(
                pops[y],
                f"{y}.pop(...) is supported on a list or dict the function made itself "
                "(the pop would change a list the caller or another name may hold)",
                f"make {y!r} in this function ({y} = list(...), [...], dict(...)) before "
                "popping from it",
            )
        if fresh:
            for stmt in stmts:
                _check_write(ctx, stmt)
            found.add(y)
    if found:
        _check_escapes(ctx, found, changes, parked)
    return frozenset(found)


def _argument(name: str, stmt: gast.stmt, params: set[str], own: dict) -> bool:
    """Whether `name` at stmt may be a parameter's value as the caller passed it."""
    return name in params and id(stmt) not in own.get(name, ())


def _popped(ctx: Any, stmt: gast.stmt) -> str | None:
    """xs for `_rest = without_item(xs, k)`, the pop of normalize/anf_expressions.py."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call)):
        return None
    call = stmt.value
    if ctx.scope.resolve(call.func) is runtime.without_item and _is_name(call.args[0]):
        return call.args[0].id
    return None


def _bindings(fn: gast.FunctionDef, parked: Parked) -> dict[str, list[gast.expr]]:
    """name -> the values bound to it; a checked pop of its own pushes (stack_chains)
    counts as the kind it is checked to be."""
    out: dict[str, list[gast.expr]] = {}
    for stmt in statements(fn.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            kind = parked.pops.get(id(stmt))
            value = stmt.value if kind is None else stand_in(kind)
            out.setdefault(stmt.targets[0].id, []).append(value)
        elif isinstance(stmt, gast.For):
            for name in nodes.names_stored(stmt.target):
                out.setdefault(name, []).append(stmt.iter)  # never a container it made
    return out


def _kind(ctx: Any, name: str, bindings: dict, seen: frozenset[str]) -> str | None:
    """ "list" or "dict" when every binding of `name` makes a new one, else None."""
    values = bindings.get(name)
    if not values or name in seen:
        return None
    kinds = {
        _value_kind(ctx, v, bindings, seen | {name})
        for v in values
        if not _rest(ctx, v) and not _none(v)
    }
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


def _none(value: gast.expr) -> bool:
    """`name = None`: no object a write by index or key could change (`None[k] = v`
    raises), so it leaves the kind to the other bindings; a gradient prebinds to None
    the names its backward sweep reads (higher/forms.py), the user `L = None` before
    `L = [...]` in a branch."""
    return isinstance(value, gast.Constant) and value.value is None


def _rest(ctx: Any, value: gast.expr) -> bool:
    """`_rest` of a pop (xs = _rest): the same kind of container as before."""
    if not (isinstance(value, gast.Name) and temporary(ctx, value.id)):
        return False
    return any(
        isinstance(s, gast.Assign)
        and isinstance(s.targets[0], gast.Name)
        and s.targets[0].id == value.id
        and _popped(ctx, s) is not None
        for s in statements(ctx.fn.body)
    )


def _value_kind(ctx: Any, value: gast.expr, bindings: dict, seen: frozenset[str]) -> str | None:
    if isinstance(value, gast.List):
        return _LIST
    if isinstance(value, gast.Dict):
        return _DICT
    if isinstance(value, gast.Name) and temporary(ctx, value.id) and _read_once(ctx, value.id):
        return _kind(ctx, value.id, bindings, seen)  # a comprehension's list, handed over
    if isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Add, gast.Mult)):
        kinds = [
            _kind(ctx, o.id, bindings, seen) if isinstance(o, gast.Name) else None
            for o in (value.left, value.right)
        ]
        if isinstance(value.op, gast.Add) and kinds == [_LIST, _LIST]:
            return _LIST  # xs + ys: a new list
        if isinstance(value.op, gast.Mult) and _LIST in kinds:
            return _LIST  # [0.0] * n: a new list (a list times anything else fails)
        return None
    if isinstance(value, gast.Call):
        callee = ctx.scope.resolve(value.func)
        if callee is builtins.list or callee is runtime.own_container:
            return _LIST  # own_container: a copy of a list or dict argument, either kind
        if callee is builtins.dict or callee is runtime.dict_of:
            return _DICT
    return None


def temporary(ctx: Any, name: str) -> bool:
    """A name the compiler made (not the user's own variable)."""
    user = set(nodes.all_param_names(ctx.parsed.node))
    for stmt in ctx.parsed.node.body:
        user |= nodes.names_stored(stmt)
    return name not in user


def _read_once(ctx: Any, name: str) -> bool:
    """Whether `name` is read in one place only, its own appends aside (a temporary
    handed over, not shared)."""
    reads = sum(
        1
        for stmt in statements(ctx.fn.body)
        if mutation(stmt) is None and not isinstance(stmt, (gast.For, gast.While, gast.If))
        for n in walk(stmt)
        if isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load)
    )
    return reads == 1


def _check_write(ctx: Any, stmt: gast.Assign) -> None:
    target = stmt.targets[0]
    if isinstance(target, gast.Subscript) and isinstance(target.slice, (gast.Slice, gast.Tuple)):
        raise ctx.error(
            target,
            f"writing a slice of the list {target.value.id!r} is not supported",
            "write one item at a time (`for k in range(a, b): out[k] = ...`) or build the "
            "list by concatenation (`out = out[:a] + new + out[b:]`)",
        )


# -- other holders of a written container -----------------------------------------------

# calls that read the container and keep no reference
_KEEPS_NOTHING = (
    len,
    isinstance,
    runtime.numeric_item,
    runtime.unshared,
    runtime.untouched,
    runtime.array_base,
)
_RETURNS_ITS_ARGUMENT = (runtime.iterable, runtime.stop_gradient)


def _check_escapes(ctx: Any, written: set[str], writes: dict, parked: Parked) -> None:
    """Refuse a written container handed to another name, container or function (a copy,
    `[out]`, `xs.append(out)`, `g(out)`, a `for` loop over it) before one of its writes,
    or in a loop that also writes into it: that other holder sees the write, but the
    gradient of what it reads would not go through it."""
    order: dict[int, tuple[int, tuple[int, ...]]] = {}

    def number(stmts: list[gast.stmt], loops: tuple[int, ...]) -> None:
        for stmt in stmts:
            order[id(stmt)] = (len(order), loops)
            inner = (*loops, id(stmt)) if isinstance(stmt, (gast.For, gast.While)) else loops
            for field in ("body", "orelse"):
                number(getattr(stmt, field, []) or [], inner)

    number(ctx.fn.body, ())
    for stmt in statements(ctx.fn.body):
        for y in sorted(_escaping(ctx, stmt) & written - parked.pushes.get(id(stmt), set())):
            where, loops = order[id(stmt)]
            for write in writes[y]:
                at, around = order[id(write)]
                if where < at or set(loops) & set(around):
                    raise ctx.error(
                        stmt,
                        f"the list or dict {y!r} is changed in place (written by index or key, "
                        f"or popped from, at line {_user_line(ctx, write)}), but here "
                        "another name, container or function gets hold of it before or "
                        "between those changes",
                        f"write into {y!r} only after it is complete, or copy it "
                        f"(`list({y})` / `dict({y})`) where you hand it on; to update items "
                        f"while looping, loop over `range(len({y}))` and read {y}[i]",
                    )


def _user_line(ctx: Any, stmt: gast.stmt) -> int | str:
    """The line of `stmt`; in a gradient's differentiable form, the user's line it was
    generated for (a write the gradient makes, or undoes, for the user's write there)."""
    line = getattr(stmt, "lineno", None)
    if line is None or not origins.is_form(ctx.parsed.filename):
        return line if line is not None else "?"
    found = origins.origin(ctx.parsed.filename, ctx.parsed.location(stmt).line)
    return found[1] if found is not None else line


def _escaping(ctx: Any, stmt: gast.stmt) -> set[str]:
    """The names whose object `stmt` may hand to another name, container or function."""
    if isinstance(stmt, (gast.If, gast.While)):
        return set()
    if isinstance(stmt, gast.For):
        return {stmt.iter.id} if isinstance(stmt.iter, gast.Name) else set()
    if not isinstance(stmt, (gast.Assign, gast.Expr)):
        return set()
    value = stmt.value
    if _popped(ctx, stmt) is not None:
        return set()  # what is left of xs is a new list
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
        return _bare(value)  # out[k] = ys: ys is held by out now
    if isinstance(value, (gast.Subscript, gast.Compare, gast.Constant)):
        return set()  # an item, a test: never the container itself
    if isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Add, gast.Mult)):
        return set()  # concatenation and repetition make new lists
    if isinstance(value, gast.Call):
        arguments = {a.id for a in (*value.args, *(k.value for k in value.keywords)) if _is_name(a)}
        if mutation(stmt) is not None:
            return arguments  # xs.append(ys): xs holds ys now
        callee = ctx.scope.resolve(value.func)
        if callee in _KEEPS_NOTHING or callee in (builtins.list, builtins.dict):
            return set()
        known = ctx.registry.lookup(callee) is not None or ctx.registry.is_nondifferentiable(callee)
        if known and callee not in _RETURNS_ITS_ARGUMENT:
            return set()  # a rule's result is a new value (a number, for the rest)
        return arguments
    if isinstance(stmt, gast.Assign) and _only_tested(ctx, stmt.targets[0]):
        return set()  # `while xs:`: the test's copy is read for its truth only
    return _bare(value)


def _only_tested(ctx: Any, target: gast.expr) -> bool:
    """A compiler temporary read only as the test of an `if` or `while`."""
    if not (isinstance(target, gast.Name) and temporary(ctx, target.id)):
        return False
    name = target.id
    for stmt in statements(ctx.fn.body):
        tested = isinstance(stmt, (gast.If, gast.While)) and _is_name(stmt.test)
        parts = [stmt] if not isinstance(stmt, (gast.If, gast.While, gast.For)) else []
        if isinstance(stmt, gast.For):
            parts = [stmt.iter]
        elif isinstance(stmt, (gast.If, gast.While)) and not tested:
            parts = [stmt.test]
        if any(name in nodes.names_read(p) for p in parts):
            return False
    return True


def _is_name(node: gast.expr) -> bool:
    return isinstance(node, gast.Name)


def _bare(value: gast.expr) -> set[str]:
    """Names that appear whole in `value` (not subscripted, not called)."""
    if isinstance(value, gast.Name):
        return {value.id}
    if isinstance(value, (gast.List, gast.Tuple)):
        return set().union(*(_bare(e) for e in value.elts)) if value.elts else set()
    if isinstance(value, gast.Dict):
        return set().union(*(_bare(e) for e in value.values)) if value.values else set()
    return {n.id for n in walk(value) if isinstance(n, gast.Name)}
