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

from ..syntax import nodes
from ..syntax.nodes import walk
from .accumulate import Resolve, as_subscript, indexed_update, unsubscript_of


def run(fn: gast.FunctionDef, resolve: Resolve) -> gast.FunctionDef:
    """Rewrite each qualifying update of `fn` in place (see the module docstring)."""
    for node in walk(fn):
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
        found = indexed_update(stmt, resolve)
        if found is None or fresh is None or found[:2] != fresh:
            fresh = None
            continue
        b, x, index, g = found
        reads = nodes.names_read(g) | nodes.names_read(index)
        if b in reads or x == b or not _basic(index, resolve):
            fresh = None
            continue
        place = as_subscript(index, resolve)
        target = gast.Subscript(value=nodes.name(b), slice=place, ctx=gast.Store())
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
    x = unsubscript_of(stmt.value, resolve)
    b = stmt.targets[0].id
    if x is None or x == b or b in nodes.names_read(stmt.value):
        return None
    return b, x


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
