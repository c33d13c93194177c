"""`b = undiff(g, a, 1, axis)` read once, as `b[1:-1]`: `g[:-1] - g[1:]` there instead;
and a forward `np.diff(a)` of a vector a: `a[1:] - a[:-1]`.

The adjoint of `np.diff(np.concatenate(([0.0], q, [0.0])))` with respect to q (fixed
walls of a chain): undiff makes an array of zeros and writes g into it twice, then the
concatenation's adjoint takes its inner part. For a vector the inner part is one
subtraction, and a (the concatenation, saved at every step of a loop) is no longer
read: optimize/restores.py then drops its save.

Assumes: `vector` (transform/differences.py) holds the id() of undiff calls whose `a`
is a vector, n 1 and axis 0 or -1: there undiff(g, a, 1, axis)[k] = g[k - 1] - g[k]
(g[-1] and g[len(g)] taken as 0), so its [1:-1] is g[:-1] - g[1:], the same numbers.
The forward `np.diff(a)` recorded in `vector` (transform/differences.py: a certainly
an array of one dimension) is `np.subtract(a[1:], a[:-1])`, what np.diff computes.
Guarantees: rewritten only when b is bound once in the function and read once, as
`b[1:-1]`, in a later simple statement of the same block (not inside a loop or
branch), g is a name, and no statement between the two mentions g or b (so g holds
the same array, unchanged).
"""

from __future__ import annotations

from collections import Counter

import gast

from ..syntax import nodes
from ..syntax.nodes import walk


def run(fn: gast.FunctionDef, vector: set[int]) -> gast.FunctionDef:
    """Rewrite each qualifying undiff (see the module docstring)."""
    if not vector:
        return fn
    reads, stores = Counter(), Counter()
    for node in walk(fn):
        if isinstance(node, gast.Name):
            (reads if isinstance(node.ctx, gast.Load) else stores)[node.id] += 1
        for field, value in gast.iter_fields(node):
            if id(value) in vector and _forward_diff(value):
                setattr(node, field, _difference(value.args[0].id, forward=True))
    _block(fn.body, vector, reads, stores)
    return fn


def _block(stmts: list[gast.stmt], vector: set[int], reads: Counter, stores: Counter) -> None:
    for stmt in stmts:
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list):
                _block(inner, vector, reads, stores)
    k = 0
    while k < len(stmts):
        found = _undiff(stmts[k], vector)
        if found is not None:
            b, g = found
            if reads[b] == 1 and stores[b] == 1 and _fuse(stmts, k, b, g):
                del stmts[k]
                continue
        k += 1


def _undiff(stmt: gast.stmt, vector: set[int]) -> tuple[str, str] | None:
    """(b, g) for `b = undiff(g, a, 1, axis)` with a recorded call, else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1):
        return None
    target, value = stmt.targets[0], stmt.value
    if not (isinstance(target, gast.Name) and id(value) in vector):
        return None
    g = value.args[0]
    return (target.id, g.id) if isinstance(g, gast.Name) else None


def _fuse(stmts: list[gast.stmt], k: int, b: str, g: str) -> bool:
    """Replace the read `b[1:-1]` in a later statement by `g[:-1] - g[1:]`; whether done."""
    for later in stmts[k + 1 :]:
        mentioned = {b, g} & (nodes.names_read(later) | nodes.names_stored(later))
        if isinstance(later, (gast.If, gast.For, gast.While)):
            if mentioned:
                return False  # a loop may run the read again after changing g
            continue
        for node in walk(later):
            for field, value in gast.iter_fields(node):
                if _inner_part(value, b):
                    setattr(node, field, _difference(g))
                    return True
        if mentioned:
            return False  # g used (perhaps changed) before the read
    return False


def _inner_part(node: object, b: str) -> bool:
    """Whether node is `b[1:-1]`."""
    if not (isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name)):
        return False
    part = node.slice
    return (
        node.value.id == b
        and isinstance(part, gast.Slice)
        and part.step is None
        and _int(part.lower) == 1
        and _int(part.upper) == -1
    )


def _int(node: gast.expr | None) -> int | None:
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _int(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    return None


def _forward_diff(node: object) -> bool:
    """Whether node is a recorded forward `np.diff(a)` (one argument, a name)."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr == "diff"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], gast.Name)
    )


def _difference(g: str, forward: bool = False) -> gast.expr:
    """`g[:-1] - g[1:]`; forward: `g[1:] - g[:-1]`."""
    head = nodes.subscript(nodes.name(g), gast.Slice(lower=None, upper=nodes.const(-1), step=None))
    tail = nodes.subscript(nodes.name(g), gast.Slice(lower=nodes.const(1), upper=None, step=None))
    return nodes.binop(tail, gast.Sub(), head) if forward else nodes.binop(head, gast.Sub(), tail)
