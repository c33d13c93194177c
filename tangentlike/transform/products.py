"""Matrix-product adjoints as NumPy expressions where the operands' ranks are known.

`matmul_vjp_a(g, a, b)` and `dot_vjp_a` (runtime/numpy_products.py) handle every rank
matmul and np.dot accept, and cost a helper call per product. In a build specialised to the
arguments' signature the shape analysis often knows the ranks: for vectors and
matrices the adjoints are the textbook expressions (`g @ b.T`, `a.T @ g`,
`np.outer(g, b)`), which read like hand-written NumPy.

Assumes: `ctx.shapes` (analyze/shapes.py) holds ranks that are certain at `stmt`.
Guarantees: a call is rewritten only when both operands are names of rank 1 or 2
there; each expression is the helper's value for those ranks (for 2-D operands
matmul has no broadcasting; a 1-D operand is a vector, never stretched; np.dot of
vectors and matrices is matmul).
"""

from __future__ import annotations

import gast

from .. import runtime
from ..syntax import nodes
from ..syntax.nodes import walk
from .context import Context


def specialise(ctx: Context, stmt: gast.stmt, stmts: list[gast.stmt]) -> None:
    """Rewrite, in `stmts` (backward code of `stmt`), each matmul adjoint call whose
    operands have known ranks 1 or 2 before `stmt`."""
    known = ctx.shapes.before.get(id(stmt), {})

    def rank(arg: gast.expr) -> int | None:
        if not isinstance(arg, gast.Name):
            return None
        shape = known.get(arg.id)
        if not (isinstance(shape, tuple) and len(shape) == 2 and shape[0] == "dims"):
            return None
        return len(shape[1]) if len(shape[1]) in (1, 2) else None

    for node in [n for s in stmts for n in walk(s)]:
        for field, value in gast.iter_fields(node):
            if isinstance(value, gast.Call):
                found = _expression(ctx, value, rank)
                if found is not None:
                    setattr(node, field, found)
            elif isinstance(value, list):
                for k, item in enumerate(value):
                    found = _expression(ctx, item, rank) if isinstance(item, gast.Call) else None
                    if found is not None:
                        value[k] = found


# for vectors and matrices np.dot is matmul: the same adjoints
_FIRST = (runtime.matmul_vjp_a, runtime.dot_vjp_a)
_SECOND = (runtime.matmul_vjp_b, runtime.dot_vjp_b)


def _expression(ctx: Context, call: gast.Call, rank) -> gast.expr | None:
    if not (isinstance(call.func, gast.Name) and len(call.args) == 3 and not call.keywords):
        return None
    helper = ctx.namespace.objects.get(call.func.id)
    if helper not in _FIRST and helper not in _SECOND:
        return None
    g, a, b = call.args
    ranks = (rank(a), rank(b))
    if None in ranks:
        return None

    def t(x: gast.expr) -> gast.expr:
        return nodes.attribute(nodes.deepcopy(x), "T")

    def matmul(x: gast.expr, y: gast.expr) -> gast.expr:
        return nodes.binop(nodes.deepcopy(x), gast.MatMult(), nodes.deepcopy(y))

    def outer(x: gast.expr, y: gast.expr) -> gast.expr:
        return nodes.call(ctx.np("outer"), [nodes.deepcopy(x), nodes.deepcopy(y)])

    if helper in _FIRST:
        return {
            (2, 2): lambda: matmul(g, t(b)),  # (n, k) @ (k, m): g (n, m)
            (2, 1): lambda: outer(g, b),  # (n, k) @ (k,): g (n,)
            (1, 2): lambda: matmul(b, g),  # (k,) @ (k, m): g (m,)
            (1, 1): lambda: nodes.binop(nodes.deepcopy(g), gast.Mult(), nodes.deepcopy(b)),
        }[ranks]()
    return {
        (2, 2): lambda: matmul(t(a), g),
        (2, 1): lambda: matmul(g, a),  # a.T @ g for a vector g
        (1, 2): lambda: outer(a, g),
        (1, 1): lambda: nodes.binop(nodes.deepcopy(g), gast.Mult(), nodes.deepcopy(a)),
    }[ranks]()
