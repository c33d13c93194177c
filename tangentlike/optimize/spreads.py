"""`spread(G, t) * y` -> `G * y` where y certainly has t's shape.

Assumes: `products` from transform/shaped_products.py (id(product) -> (t, y): y, a name
or the id() of an expression, has the shape of the value t holds where its adjoint is
`spread(G, t)`); runs before the inline
pass (which copies statements) and dead code elimination (t may be dead after it).
`spread(G, t)` (runtime/broadcast.py) is np.broadcast_to(G, np.shape(t)), so G
broadcasts to t's shape, and for y of that shape `spread(G, t) * y` and `G * y` (or
`/ y`) are the same values of the same shape.
Guarantees: a recorded product whose operand is `spread(G, t)` (t the recorded name)
reads G instead; a name b assigned once, `b = spread(G, t)`, and read only as the
operand of recorded products with t, is assigned G instead.
"""

from __future__ import annotations

from collections import Counter

import gast

from .. import runtime
from ..syntax.nodes import walk
from .accumulate import Resolve


def run(fn: gast.FunctionDef, products: dict[int, tuple[str, str | int]], resolve: Resolve) -> bool:
    """Rewrite `fn` in place (see the module docstring); whether anything changed."""
    if not products:
        return False
    changed = False
    loads: dict[str, list[tuple[gast.BinOp, str]]] = {}  # name -> (product, t) reading it
    reads, stores = Counter(), Counter()
    assigns: dict[str, gast.Assign] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name):
            (reads if isinstance(node.ctx, gast.Load) else stores)[node.id] += 1
        elif (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
        ):
            assigns[node.targets[0].id] = node
        found = products.get(id(node))
        if found is None or not isinstance(node, gast.BinOp):
            continue
        t, y = found
        for side in ("left", "right"):
            operand, other = (
                getattr(node, side),
                getattr(node, "right" if side == "left" else "left"),
            )
            if isinstance(y, str) and not (isinstance(other, gast.Name) and other.id == y):
                continue
            if isinstance(y, int) and id(other) != y:
                continue  # y recorded as the id() of an expression of t's shape
            g = _spread_of(operand, t, resolve)
            if g is not None:
                setattr(node, side, g)
                changed = True
            elif isinstance(operand, gast.Name):
                loads.setdefault(operand.id, []).append((node, t))
    for b, uses in loads.items():
        stmt = assigns.get(b)
        if stmt is None or stores[b] != 1 or reads[b] != len(uses):
            continue
        ts = {t for _, t in uses}
        g = _spread_of(stmt.value, ts.pop(), resolve) if len(ts) == 1 else None
        if g is not None:
            stmt.value = g
            changed = True
    return changed


def _spread_of(node: gast.expr, t: str, resolve: Resolve) -> gast.expr | None:
    """G of `spread(G, t)`, else None."""
    if not (isinstance(node, gast.Call) and len(node.args) == 2 and not node.keywords):
        return None
    if resolve(node.func) is not runtime.spread:
        return None
    shaped = node.args[1]
    return node.args[0] if isinstance(shaped, gast.Name) and shaped.id == t else None
