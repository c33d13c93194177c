"""Which names are read later, on A-normal form.

Assumes: A-normal form, where `name op= atom` may still appear (it reads and
rebinds name). Guarantees: `live_after(fn)[id(s)]`, for every simple statement
s (not If/For/While), holds the names some path from just after s reads before
rebinding them; the returned name is live at the end. A write into `y[index]`
reads y (the rest of y survives it). Never writes to the tree.
"""

from __future__ import annotations

import gast

from ..syntax import nodes

Live = frozenset[str]


def reads(stmt: gast.stmt) -> set[str]:
    """The names a simple statement reads (`z op= v` reads z too)."""
    found = nodes.names_read(stmt)
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
        found.add(stmt.target.id)
    if nodes.is_item_write(stmt):
        found.add(nodes.assigned_name(stmt))
    return found


def binds(stmt: gast.stmt) -> str | None:
    """The name a simple statement rebinds as a whole (not `y[i] = v`, not `z op= v`)."""
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None


def live_after(fn: gast.FunctionDef) -> dict[int, Live]:
    """id(simple statement) -> the names live just after it."""
    out: dict[int, Live] = {}

    def block(stmts: list[gast.stmt], live: Live) -> Live:
        for stmt in reversed(stmts):
            live = one(stmt, live)
        return live

    def one(stmt: gast.stmt, live: Live) -> Live:
        if isinstance(stmt, gast.If):
            return block(stmt.body, live) | block(stmt.orelse, live) | nodes.names_read(stmt.test)
        if isinstance(stmt, (gast.For, gast.While)):
            test = nodes.names_read(stmt.iter if isinstance(stmt, gast.For) else stmt.test)
            target = nodes.names_stored(stmt.target) if isinstance(stmt, gast.For) else set()
            head = live | test  # the loop may run zero times, or once more
            while True:
                inside = (block(stmt.body, head) - target) | test | live
                if inside <= head:
                    return head
                head = head | inside
        out[id(stmt)] = live
        bound = binds(stmt)
        return frozenset((live - {bound}) | reads(stmt)) if bound else frozenset(live | reads(stmt))

    block(fn.body, frozenset())
    return out
