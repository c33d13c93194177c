"""Inline single-use temporaries into the statement that uses them.

`_h1 = x @ W` followed by `h = np.tanh(_h1)`, with `_h1` read nowhere else,
becomes `h = np.tanh(x @ W)`: it reads like hand-written NumPy, and the
intermediate array is freed as soon as it is consumed instead of living
until the function returns.

Assumes: a generated function. Guarantees: a compiler temporary is inlined
only when it is assigned once and read once in the whole function, that read
is in the very next statement of the same block (so no operand can change in
between), the next statement is a plain assignment, an update of a name (`b += v`),
an expression or a return,
the value is pure (operators and calls the caller vouches for), both come
from the same source line (so every line keeps its `# grad of` comment), and
the merged statement stays small (MAX_NODES expressions).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import gast

from ..syntax import nodes
from ..syntax.nodes import walk

MAX_NODES = 12  # keep inlined lines short enough to read


def run(fn: gast.FunctionDef, pure: Callable[[gast.expr], bool]) -> gast.FunctionDef:
    loads: Counter[str] = Counter()
    stores: Counter[str] = Counter()
    for node in walk(fn):
        if isinstance(node, gast.Name):
            (loads if isinstance(node.ctx, gast.Load) else stores)[node.id] += 1

    def candidate(stmt: gast.stmt) -> str | None:
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
            return None
        name = stmt.targets[0].id
        if not name.startswith(("_", "b_")):
            return None
        if loads[name] != 1 or stores[name] != 1 or not pure(stmt.value):
            return None
        return name

    def block(stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            for field in ("body", "orelse"):
                if isinstance(getattr(stmt, field, None), list) and not isinstance(
                    stmt, gast.FunctionDef
                ):
                    setattr(stmt, field, block(getattr(stmt, field)))
            # fold the previous statement(s) into this one while they feed it
            while out and _consumer(stmt):
                name = candidate(out[-1])
                if name is None or name not in nodes.names_read(stmt):
                    break
                if getattr(out[-1], "lineno", None) != getattr(stmt, "lineno", None):
                    break  # each source line keeps its own statements (and comment)
                merged = _Replace(name, out[-1].value).visit(nodes.deepcopy(stmt))
                if _size(merged) > MAX_NODES:
                    break
                out.pop()
                stmt = merged
            out.append(stmt)
        return out

    fn.body = block(fn.body)
    return fn


def _consumer(stmt: gast.stmt) -> bool:
    """A statement a temporary may be folded into: an assignment, an expression, a
    return, or an update `b += v` of a name (its value is computed before b changes)."""
    if isinstance(stmt, gast.AugAssign):
        return isinstance(stmt.target, gast.Name)
    return isinstance(stmt, (gast.Assign, gast.Expr, gast.Return))


def _size(stmt: gast.stmt) -> int:
    return sum(1 for n in walk(stmt) if isinstance(n, gast.expr))


class _Replace(gast.NodeTransformer):
    def __init__(self, name: str, value: gast.expr) -> None:
        self.name = name
        self.value = value

    def visit_Name(self, node: gast.Name) -> gast.expr:
        if node.id == self.name and isinstance(node.ctx, gast.Load):
            return self.value
        return node
