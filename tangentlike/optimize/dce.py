"""Dead-code elimination on the top level of a generated function.

Assumes: a generated function (forward and backward sweeps in one body, or a
split half). Guarantees: a top-level assignment (or augmented assignment) is dropped only if
no later statement reads its target and `pure` says computing it has no side effects;
statements inside loops and branches are kept (the names they read count as
read), so a value the program returns is never lost. `b *= m` reads b: it keeps the
assignment of b alive, and goes itself when b is dead (generated code updates in
place only arrays no other name refers to).
"""

from __future__ import annotations

from collections.abc import Callable

import gast

from ..syntax import nodes


def drop_dead_assignments(
    code: list[gast.stmt], live: set[str], pure: Callable[[gast.expr], bool]
) -> list[gast.stmt]:
    kept: list[gast.stmt] = []
    live = set(live)
    for stmt in reversed(code):
        target = stmt.targets[0] if isinstance(stmt, gast.Assign) else getattr(stmt, "target", None)
        if (
            isinstance(stmt, (gast.Assign, gast.AugAssign))
            and isinstance(target, gast.Name)
            and target.id not in live
            and pure(stmt.value)
        ):
            continue  # `b *= m` with b dead afterwards is dead too
        live |= nodes.names_read(stmt)
        kept.append(stmt)
    return kept[::-1]


def run(fn: gast.FunctionDef, pure: Callable[[gast.expr], bool]) -> gast.FunctionDef:
    fn.body = drop_dead_assignments(fn.body, set(), pure)
    return fn
