"""Indexed adjoint accumulation in place: `bx = bx + unsubscript(g, x, i)` -> `bx[i] += g`.

The adjoint of a read `x[i]` is an array of zeros shaped like x with g at i; adding it
out of place copies the whole adjoint, so a loop that reads x item by item costs
O(len(x)) per step. Where `bx` is the only name that ever refers to its array, the
same sum is the indexed `+=`, O(1) per step, and reads like hand-written NumPy.

Assumes: a generated function whose differentiated parameters (`wrt`) the wrapper
checked to be float arrays or numbers at the call. Guarantees: an update is
rewritten only if
  - x is one of those parameters and never rebound in the function (its shape and
    float dtype are those of the call);
  - every value `bx` is given is `np.zeros_like(x)`, `unsubscript(_, x, _)` or such
    an update, or its form `bx += unsubscript(g, x, i)` (so bx is an array of x's
    shape and dtype: `bx[i] += g` writes what `bx + unsubscript(g, x, i)` computes,
    the same casts and broadcasts);
  - every read of `bx` is the first operand of its own update, an operand of
    arithmetic (which makes a new array) or in the return statement, and bx is not
    a parameter: no other name, list or call ever holds its array;
  - the index is basic and selects no element twice: an int constant, a `slice(...)`
    call, a loop variable of a `for` over a `range` (or `reversed` of one) that the
    loop's body does not rebind before the update, or a tuple of those.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable

import gast
import numpy as np

from .. import runtime
from ..syntax import nodes
from ..syntax.nodes import walk

Resolve = Callable[[gast.expr], object]


def run(fn: gast.FunctionDef, wrt: tuple[str, ...], resolve: Resolve) -> gast.FunctionDef:
    """Rewrite each qualifying update of `fn` in place (see the module docstring)."""
    params = {a.id for a in fn.args.args if isinstance(a, gast.Name)}
    stored = {n.id for n in walk(fn) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    fixed = {p for p in wrt if p in params and p not in stored}
    if not fixed:
        return fn
    updates = {}
    for node in walk(fn):
        found = indexed_update(node, resolve)
        if found is not None and found[1] in fixed:
            updates[id(node)] = found
    if not updates:
        return fn
    parents = {id(c): p for p in walk(fn) for c in gast.iter_child_nodes(p)}
    names = {b for b, x, _, _ in updates.values()}
    owned = {b for b in names if b not in params and _owned(fn, b, updates, resolve, parents)}
    for node in list(walk(fn)):
        found = updates.get(id(node))
        if found is None or found[0] not in owned or not _basic(found[2], node, parents, resolve):
            continue
        b, _, index, g = found
        target = gast.Subscript(
            value=nodes.name(b),
            slice=as_subscript(index, resolve),
            ctx=gast.Store(),
        )
        replacement = gast.AugAssign(target=target, op=gast.Add(), value=g)
        gast.copy_location(replacement, node)
        _replace(parents[id(node)], node, replacement)
    return fn


def resolver(fn: gast.FunctionDef, namespace) -> Resolve:
    """What a name or `np.attr` chain of `fn` denotes in its generated module (None for a
    local name or anything else): its names are the module's, then builtins."""
    local = {
        n.id for n in walk(fn) if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)
    }

    def resolve(node: gast.expr) -> object:
        if isinstance(node, gast.Name):
            if node.id in local:
                return None
            return namespace.objects.get(node.id, getattr(builtins, node.id, None))
        if isinstance(node, gast.Attribute):
            base = resolve(node.value)
            return None if base is None else getattr(base, node.attr, None)
        return None

    return resolve


def indexed_update(node: gast.AST, resolve: Resolve) -> tuple | None:
    """(b, x, index, g) of `b = b + unsubscript(g, x, index)` or `b += unsubscript(...)`
    (an owned adjoint, transform/adjoints.py), else None."""
    if (
        isinstance(node, gast.AugAssign)
        and isinstance(node.op, gast.Add)
        and isinstance(node.target, gast.Name)
    ):
        x = unsubscript_of(node.value, resolve)
        if x is None:
            return None
        return node.target.id, x, node.value.args[2], node.value.args[0]
    if not (
        isinstance(node, gast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], gast.Name)
        and isinstance(node.value, gast.BinOp)
        and isinstance(node.value.op, gast.Add)
        and isinstance(node.value.left, gast.Name)
        and node.value.left.id == node.targets[0].id
    ):
        return None
    call = node.value.right
    x = unsubscript_of(call, resolve)
    if x is None:
        return None
    return node.targets[0].id, x, call.args[2], call.args[0]


def unsubscript_of(call: gast.expr, resolve: Resolve) -> str | None:
    """x of `unsubscript(g, x, index)` with x a name, else None."""
    if not (isinstance(call, gast.Call) and len(call.args) == 3 and not call.keywords):
        return None
    if resolve(call.func) is not runtime.unsubscript or not isinstance(call.args[1], gast.Name):
        return None
    return call.args[1].id


def _owned(fn, b: str, updates: dict, resolve: Resolve, parents: dict) -> bool:
    """Whether every value of `b` is an array of one fixed x's shape that only b holds."""
    xs = {x for name, x, _, _ in updates.values() if name == b}
    if len(xs) != 1:
        return False
    (x,) = xs
    for node in walk(fn):
        if id(node) in updates and isinstance(node, gast.AugAssign):
            if updates[id(node)][1] != x:
                return False
        elif isinstance(node, (gast.For, gast.AugAssign, gast.AnnAssign, gast.With)):
            if _binds(getattr(node, "target", None) or node, b):
                return False
        elif isinstance(node, gast.Assign) and any(_binds(t, b) for t in node.targets):
            if id(node) in updates:
                if updates[id(node)][1] != x:
                    return False
            elif not (len(node.targets) == 1 and _fresh_like(node.value, x, resolve)):
                return False
        elif isinstance(node, gast.Name) and node.id == b and isinstance(node.ctx, gast.Load):
            if not _read_allowed(node, updates, parents):
                return False
        elif (
            isinstance(node, (gast.Global, gast.Nonlocal, gast.Lambda, gast.FunctionDef))
            and node is not fn
        ):
            return False
    return True


def _binds(target: gast.AST, name: str) -> bool:
    return any(
        isinstance(n, gast.Name) and n.id == name and not isinstance(n.ctx, gast.Load)
        for n in walk(target)
    )


def _fresh_like(value: gast.expr, x: str, resolve: Resolve) -> bool:
    """`np.zeros_like(x)` or `unsubscript(_, x, _)`: a new array of x's shape and dtype."""
    if unsubscript_of(value, resolve) == x:
        return True
    return (
        isinstance(value, gast.Call)
        and resolve(value.func) is np.zeros_like
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], gast.Name)
        and value.args[0].id == x
    )


def _read_allowed(node: gast.Name, updates: dict, parents: dict) -> bool:
    parent = parents.get(id(node))
    if isinstance(parent, (gast.BinOp, gast.UnaryOp)):
        return True  # arithmetic makes a new array (an update reads b as its left operand)
    while parent is not None and not isinstance(parent, gast.stmt):
        parent = parents.get(id(parent))
    return isinstance(parent, gast.Return)


def _basic(index: gast.expr, at: gast.stmt, parents: dict, resolve: Resolve) -> bool:
    """Whether `index` (at the statement `at`) is a basic index selecting no item twice."""
    if isinstance(index, gast.Tuple):
        return all(_basic(e, at, parents, resolve) for e in index.elts)
    if isinstance(index, gast.Constant):
        return type(index.value) is int
    if isinstance(index, gast.Call):
        return resolve(index.func) is builtins.slice and not index.keywords
    if isinstance(index, gast.Name):
        return _range_variable(index.id, at, parents, resolve)
    return False


def _range_variable(name: str, at: gast.stmt, parents: dict, resolve: Resolve) -> bool:
    """Whether `name` at `at` holds the current item of an enclosing loop over a range."""
    child, loop = at, parents.get(id(at))
    while loop is not None and not (isinstance(loop, gast.For) and _binds(loop.target, name)):
        child, loop = loop, parents.get(id(loop))
    if loop is None or not isinstance(loop.target, gast.Name) or loop.orelse:
        return False
    # no statement of the body before the one holding `at` rebinds the name
    for stmt in loop.body:
        if stmt is child:
            break
        if _binds_anywhere(stmt, name):
            return False
    if _binds_before(child, at, name):
        return False
    return _ranges(loop.iter, parents, resolve)


def _binds_anywhere(stmt: gast.stmt, name: str) -> bool:
    return any(_binds(n, name) for n in walk(stmt) if isinstance(n, gast.Name))


def _binds_before(container: gast.stmt, at: gast.stmt, name: str) -> bool:
    """Conservatively: whether a statement inside `container` other than `at` binds name."""
    if container is at:
        return False
    return any(
        isinstance(n, gast.Name) and n.id == name and not isinstance(n.ctx, gast.Load)
        for n in walk(container)
    )


def _ranges(iterable: gast.expr, parents: dict, resolve: Resolve) -> bool:
    """`range(...)`, `reversed(range(...))`, or either of a name assigned `range(...)` once."""
    if isinstance(iterable, gast.Call) and resolve(iterable.func) is builtins.reversed:
        if len(iterable.args) != 1:
            return False
        iterable = iterable.args[0]
    if isinstance(iterable, gast.Call):
        return resolve(iterable.func) is builtins.range
    if not isinstance(iterable, gast.Name):
        return False
    fn = iterable
    while fn is not None and not isinstance(fn, gast.FunctionDef):
        fn = parents.get(id(fn))
    if fn is None:
        return False
    binders = [
        node
        for node in walk(fn)
        if isinstance(node, (gast.Assign, gast.For, gast.AugAssign, gast.AnnAssign, gast.With))
        and any(
            _binds(t, iterable.id)
            for t in (node.targets if isinstance(node, gast.Assign) else [node])
        )
    ]
    return (
        len(binders) == 1
        and isinstance(binders[0], gast.Assign)
        and len(binders[0].targets) == 1
        and isinstance(binders[0].value, gast.Call)
        and resolve(binders[0].value.func) is builtins.range
    )


def as_subscript(index: gast.expr, resolve: Resolve) -> gast.expr:
    """The index as written in a subscript: `slice(1, None, None)` is `1:`."""
    if isinstance(index, gast.Tuple):
        elts = [as_subscript(e, resolve) for e in index.elts]
        return gast.Tuple(elts=elts, ctx=gast.Load())
    if isinstance(index, gast.Call) and resolve(index.func) is builtins.slice:
        parts = [None if _is_none(p) else p for p in index.args]
        if len(parts) == 1:
            parts = [None, *parts]
        parts += [None] * (3 - len(parts))
        return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2])
    return index


def _is_none(node: gast.expr) -> bool:
    return isinstance(node, gast.Constant) and node.value is None


def _replace(parent: gast.AST, old: gast.stmt, new: gast.stmt) -> None:
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(parent, field, None)
        if isinstance(stmts, list):
            for k, s in enumerate(stmts):
                if s is old:
                    stmts[k] = new
                    return
    raise AssertionError("accumulate: the update's parent does not hold it")
