"""Indexed adjoint sums into an array just made: `b = unsubscript(g1, x, i1)` followed
by `b = b + unsubscript(g2, x, i2)` -> `b[i2] += g2`.

The adjoint of `y = x[1:] - x[:-1]` (any x, a local too) is the sum of two
`unsubscript` arrays; out of place it allocates three arrays of x's shape where one
does. optimize/accumulate.py does the same across a whole function for differentiated
parameters; this pass needs no fact about x, only about a run of adjacent statements.

Assumes: `unsubscript(g, x, index)` (runtime/indexing.py) returns a new array that no
other name holds, shaped like x, of x's float dtype (float64 for non-float x), with g
set at index (added, for repeated items). Guarantees: in each statement list, an update
`b = b + unsubscript(g, x, i)` or `b += unsubscript(g, x, i)` becomes `b[i] += g` only
when the statement just before it is `b = unsubscript(_, x, _)` or such a rewritten
update (so b holds that fresh array, unread since: nothing else holds it), x is the
same name other than b, g and i do not read b, and i is basic and selects no item
twice (an int constant, a `slice(...)` call, or a tuple of those). Then `b[i] += g`
writes into b what `b + unsubscript(g, x, i)` computes: the same shape and dtype.
"""

from __future__ import annotations

import builtins

import gast

from .. import runtime
from ..syntax import nodes
from .accumulate import Resolve


def run(fn: gast.FunctionDef, resolve: Resolve) -> gast.FunctionDef:
    """Rewrite each qualifying update of `fn` in place (see the module docstring)."""
    for node in gast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                _rewrite_block(stmts, resolve)
    return fn


def _rewrite_block(stmts: list, resolve: Resolve) -> None:
    fresh: tuple[str, str] | None = None  # (b, x) while b holds unsubscript(_, x, _)'s array
    for k, stmt in enumerate(stmts):
        made = _made(stmt, resolve)
        if made is not None:
            fresh = made
            continue
        found = _update(stmt, resolve)
        if found is None or fresh is None or found[:2] != fresh:
            fresh = None
            continue
        b, x, index, g = found
        reads = nodes.names_read(g) | nodes.names_read(index)
        if b in reads or x == b or not _basic(index, resolve):
            fresh = None
            continue
        target = gast.Subscript(value=nodes.name(b), slice=_as_subscript(index), ctx=gast.Store())
        new = gast.AugAssign(target=target, op=gast.Add(), value=g)
        stmts[k] = gast.copy_location(new, stmt)


def _made(stmt: gast.stmt, resolve: Resolve) -> tuple[str, str] | None:
    """(b, x) of `b = unsubscript(g, x, index)` with b and x names, else None."""
    if not (
        isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
    ):
        return None
    x = _unsubscript_of(stmt.value, resolve)
    b = stmt.targets[0].id
    if x is None or x == b or b in nodes.names_read(stmt.value):
        return None
    return b, x


def _update(stmt: gast.stmt, resolve: Resolve) -> tuple | None:
    """(b, x, index, g) of `b = b + unsubscript(g, x, index)` or `b += unsubscript(...)`."""
    if (
        isinstance(stmt, gast.AugAssign)
        and isinstance(stmt.op, gast.Add)
        and isinstance(stmt.target, gast.Name)
    ):
        call, b = stmt.value, stmt.target.id
    elif (
        isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
        and isinstance(stmt.value, gast.BinOp)
        and isinstance(stmt.value.op, gast.Add)
        and isinstance(stmt.value.left, gast.Name)
        and stmt.value.left.id == stmt.targets[0].id
    ):
        call, b = stmt.value.right, stmt.targets[0].id
    else:
        return None
    x = _unsubscript_of(call, resolve)
    if x is None:
        return None
    return b, x, call.args[2], call.args[0]


def _unsubscript_of(call: gast.expr, resolve: Resolve) -> str | None:
    """x of `unsubscript(g, x, index)` with x a name, else None."""
    if not (isinstance(call, gast.Call) and len(call.args) == 3 and not call.keywords):
        return None
    if resolve(call.func) is not runtime.unsubscript or not isinstance(call.args[1], gast.Name):
        return None
    return call.args[1].id


def _basic(index: gast.expr, resolve: Resolve) -> bool:
    """An int constant, a `slice(...)` call of constants, or a tuple of those."""
    if isinstance(index, gast.Tuple):
        return all(_basic(e, resolve) for e in index.elts)
    if isinstance(index, gast.Constant):
        return type(index.value) is int
    if isinstance(index, gast.Call):
        return (
            resolve(index.func) is builtins.slice
            and not index.keywords
            and 1 <= len(index.args) <= 3
            and all(isinstance(a, gast.Constant) for a in index.args)
        )
    return False


def _as_subscript(index: gast.expr) -> gast.expr:
    """The index as written in a subscript: `slice(1, None, None)` is `1:`."""
    if isinstance(index, gast.Tuple):
        return gast.Tuple(elts=[_as_subscript(e) for e in index.elts], ctx=gast.Load())
    if isinstance(index, gast.Call):
        parts = [None if a.value is None else a for a in index.args]
        if len(parts) == 1:
            parts = [None, *parts]
        parts += [None] * (3 - len(parts))
        return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2])
    return index
