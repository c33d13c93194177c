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
other than target that certainly has the result's shape at stmt; or id(product) ->
(target, id(y)) for y an expression of the rule (`np.exp(x - result)`) that certainly
has that shape: numbers, names and single-output NumPy ufuncs of them (positional
arguments only) and arithmetic, every name of which has the result's shape or none
(a number), at least one the result's shape (the target, where the backward sweep
reads it, holds the result).
"""

from __future__ import annotations

import gast
import numpy as np

from ..syntax.nodes import walk
from .context import Context

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow)


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
            elif y is None:
                shaped = _shaped_operand(node, bt)
                if shaped is not None and _result_shaped(ctx, stmt, shaped, target.id):
                    ctx.shaped_products[id(node)] = (target.id, id(shaped))
                    ctx.kept_nodes.extend((node, shaped))


def _shaped_operand(node: gast.AST, bt: str) -> gast.expr | None:
    """y of `bt * y`, `y * bt` or `bt / y` with y not a name, else None."""
    if not isinstance(node, gast.BinOp) or not isinstance(node.op, (gast.Mult, gast.Div)):
        return None
    left, right = node.left, node.right
    if isinstance(left, gast.Name) and left.id == bt and not isinstance(right, gast.Name):
        return right
    if isinstance(right, gast.Name) and right.id == bt and isinstance(node.op, gast.Mult):
        return None if isinstance(left, gast.Name) else left
    return None


def _result_shaped(ctx: Context, stmt: gast.Assign, y: gast.expr, target: str) -> bool:
    """Whether `y` certainly has the shape of the value stmt assigns (module docstring)."""
    shaped = [False]

    def shape_of(node: gast.expr) -> bool:  # whether node is a number or result-shaped
        if isinstance(node, gast.Constant):
            return type(node.value) in (int, float)
        if isinstance(node, gast.Name):
            if node.id == target or ctx.shapes.same(stmt, node.id):
                shaped[0] = True
                return True
            return ctx.shapes.scalar(stmt, node.id)
        if isinstance(node, gast.BinOp):
            return isinstance(node.op, _ARITHMETIC) and shape_of(node.left) and shape_of(node.right)
        if isinstance(node, gast.UnaryOp):
            return isinstance(node.op, (gast.USub, gast.UAdd)) and shape_of(node.operand)
        if isinstance(node, gast.Call) and not node.keywords:
            func = _ufunc(ctx, node.func)
            return (
                func is not None
                and func.nout == 1
                and len(node.args) == func.nin
                and all(shape_of(a) for a in node.args)
            )
        return False

    return shape_of(y) and shaped[0]


def _ufunc(ctx: Context, node: gast.expr) -> np.ufunc | None:
    """The NumPy ufunc a name or attribute chain of the generated module denotes."""
    if isinstance(node, gast.Name):
        found = ctx.namespace.objects.get(node.id)
    elif isinstance(node, gast.Attribute):
        base = _ufunc_base(ctx, node.value)
        found = getattr(base, node.attr, None) if base is not None else None
    else:
        return None
    return found if isinstance(found, np.ufunc) else None


def _ufunc_base(ctx: Context, node: gast.expr) -> object:
    if isinstance(node, gast.Name):
        return ctx.namespace.objects.get(node.id)
    if isinstance(node, gast.Attribute):
        base = _ufunc_base(ctx, node.value)
        return getattr(base, node.attr, None) if base is not None else None
    return None


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
