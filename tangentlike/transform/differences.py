"""The adjoints of first differences of vectors, recorded for optimize/differences.py.

`undiff(g, a, n, axis)` (runtime/numpy.py), the adjoint of `np.diff(a, n, axis)`,
reads `a` for its shape, so the forward sweep saves `a` where a loop overwrites it.
In the forward sweep, `np.diff(a)` of such a vector is `a[1:] - a[:-1]` (what np.diff
computes for one dimension, without its Python-level checks).
Where `a` is a vector, n is 1 and the axis is 0 or -1, `undiff(g, a, 1, axis)[1:-1]`
is `g[:-1] - g[1:]`, which reads neither a nor a new array of zeros.

Assumes: `ctx.shapes` (analyze/shapes.py) holds classes certain at `stmt`, and `stmts`
are the instantiated backward statements of `stmt`. Guarantees: `record` enters in
`ctx.vector_differences` the id() of an undiff call only when its `a` is a name that
is certainly a vector (one dimension) when stmt runs, its n the literal 1 and its axis
the literal 0 or -1 (the helper's vector case); and the id() of stmt's own value
`np.diff(a)` (one positional argument, a name) only when a is certainly a vector then
(an array: a shape class of dimensions is never a list's).
"""

from __future__ import annotations

import gast
import numpy as np

from .. import runtime
from ..syntax.nodes import walk
from .context import Context


def record(ctx: Context, stmt: gast.stmt, stmts: list[gast.stmt]) -> None:
    """Record the vector undiff calls of `stmts`, and stmt's own `np.diff(a)` of a
    vector a (see the module docstring)."""
    known = ctx.shapes.before.get(id(stmt), {})
    value = getattr(stmt, "value", None)
    if (
        isinstance(value, gast.Call)
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], gast.Name)
        and ctx.scope.resolve(value.func) is np.diff
        and _vector(known.get(value.args[0].id))
    ):
        ctx.vector_differences.add(id(value))
        ctx.kept_nodes.append(value)
    for s in stmts:
        for node in walk(s):
            if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)):
                continue
            if ctx.namespace.objects.get(node.func.id) is not runtime.undiff:
                continue
            if len(node.args) != 4 or node.keywords:
                continue
            _, a, n, axis = node.args
            shape = known.get(a.id) if isinstance(a, gast.Name) else None
            if _vector(shape) and _literal(n) == 1 and _literal(axis) in (0, -1):
                ctx.vector_differences.add(id(node))
                ctx.kept_nodes.append(node)


def _vector(shape: object) -> bool:
    """Whether a shape class (analyze/shapes.py) is that of an array of one dimension."""
    return isinstance(shape, tuple) and shape[0] == "dims" and shape[1] in ("N", "1")


def _literal(node: gast.expr) -> object:
    """The int a literal (or a negated one) stands for, else None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _literal(node.operand)
        return -inner if isinstance(inner, int) else None
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    return None
