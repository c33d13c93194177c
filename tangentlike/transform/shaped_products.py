"""Products of a result's adjoint and an operand shaped like the result, recorded for
optimize/spreads.py.

The adjoint of a full reduction `s = np.sum(t)` is `runtime.spread(G, t)`: G broadcast
to t's shape, a new array. When t = x * y and y certainly has t's shape (the shape
analysis, analyze/shapes.py), `spread(G, t) * y` is `G * y`: the same values and shape,
without the array of G's, and without reading t (whose forward value may then be dead).

Assumes: `ctx.shapes` holds classes certain at `stmt`, and `stmts` are the instantiated
statements of an elementwise rule of `stmt` (`target = <operation>`), whose
contributions read `bt`, the adjoint of target, where target's value is the result
(transform/reverse.py). Guarantees: `record` enters in `ctx.shaped_products`
id(product) -> (target, y) only for `bt * y`, `y * bt` or `bt / y` with y a name
other than target that certainly has the result's shape at stmt.
"""

from __future__ import annotations

import gast

from ..syntax.nodes import walk
from .context import Context


def record(ctx: Context, stmt: gast.Assign, stmts: list[gast.stmt], bt: str) -> None:
    """Record the products of `stmts`' contributions (see the module docstring)."""
    target = stmt.targets[0]
    if not isinstance(target, gast.Name):
        return
    for s in stmts:
        if not (isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Subscript)):
            continue  # a contribution `d[p] = v`
        for node in walk(s.value):
            y = _operand(node, bt)
            if y is not None and y != target.id and ctx.shapes.same(stmt, y):
                ctx.shaped_products[id(node)] = (target.id, y)
                ctx.kept_nodes.append(node)


def _operand(node: gast.AST, bt: str) -> str | None:
    """y of `bt * y`, `y * bt` or `bt / y` (names), else None."""
    if not isinstance(node, gast.BinOp) or not isinstance(node.op, (gast.Mult, gast.Div)):
        return None
    left, right = node.left, node.right
    if not (isinstance(left, gast.Name) and isinstance(right, gast.Name)):
        return None
    if left.id == bt:
        return right.id
    if right.id == bt and isinstance(node.op, gast.Mult):
        return left.id
    return None
