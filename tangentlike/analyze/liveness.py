"""Which names are read later, on A-normal form.

Assumes: A-normal form, where `name op= atom` may still appear (it reads and
rebinds name). Guarantees: `live_after(fn)[id(s)]`, for every simple statement
s (not If/For/While), holds the names some path from just after s reads before
rebinding them; the returned name is live at the end. A write into `y[index]`
reads y (the rest of y survives it). Never writes to the tree.
"""

from __future__ import annotations

from collections.abc import Callable

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


def live_after(
    fn: gast.FunctionDef, ignored: Callable[[gast.stmt], frozenset[str]] | None = None
) -> dict[int, Live]:
    """id(simple statement) -> the names live just after it; `ignored(stmt)`, when given:
    names a simple statement reads that do not count as read (analyze.shape_reads).

    A loop that can end early (normalize.jumps: `while _c1:` whose body ends by
    computing `_c1` again from `not _stop1`) runs no further round after its body
    set `_stop1 = True`: there, what the loop's head reads is not live (a `return`
    inside the loop reads nothing of the next round). The body is followed in two
    states, the flag True or False, each where it is possible; its last statement,
    `if _c3:` after `_c3 = not _stop1`, runs its body only where the flag is False."""
    out: dict[int, Live] = {}
    after: dict[int, frozenset[bool]] = {}  # id(statement in a flagged body) -> flag values
    tails: dict[str, gast.If] = {}  # flag -> the `if not flag:` ending its loop's body

    def block(stmts: list[gast.stmt], live: Live) -> Live:
        for stmt in reversed(stmts):
            live = one(stmt, live)
        return live

    def one(stmt: gast.stmt, live: Live) -> Live:
        if isinstance(stmt, gast.If):
            return block(stmt.body, live) | block(stmt.orelse, live) | nodes.names_read(stmt.test)
        if isinstance(stmt, (gast.For, gast.While)):
            return loop(stmt, live)
        out[id(stmt)] = live
        return simple(stmt, live, ignored)

    def loop(stmt: gast.For | gast.While, live: Live) -> Live:
        test = nodes.names_read(stmt.iter if isinstance(stmt, gast.For) else stmt.test)
        target = nodes.names_stored(stmt.target) if isinstance(stmt, gast.For) else set()
        flag = stop_flag(stmt)
        if flag is not None:
            _flag_values(stmt.body, frozenset({False}), flag, after)
            tails[flag] = stmt.body[-1]
        head = live | test  # the loop may run zero times, or once more
        while True:
            if flag is None:
                start = block(stmt.body, head)
            else:  # stopped: the loop ends after this round
                start = flagged(stmt.body, {True: live, False: head}, flag)[False]
            inside = (start - target) | test | live
            if inside <= head:
                return head
            head = head | inside

    def flagged(stmts: list[gast.stmt], live: dict[bool, Live], flag: str) -> dict[bool, Live]:
        """Backwards through a flagged loop's body: the live names per value of the flag."""
        for stmt in reversed(stmts):
            possible = after[id(stmt)]
            if isinstance(stmt, gast.If):
                body, orelse = flagged(stmt.body, live, flag), flagged(stmt.orelse, live, flag)
                test = nodes.names_read(stmt.test)
                if stmt is tails.get(flag):  # `if _c3:` with `_c3 = not _stop1` just before
                    live = {True: orelse[True] | test, False: body[False] | test}
                else:
                    live = {k: body[k] | orelse[k] | test for k in (True, False)}
                continue
            either = frozenset().union(*(live[k] for k in possible))
            if isinstance(stmt, (gast.For, gast.While)):
                before = loop(stmt, either)
                live = {True: before, False: before}
            elif flag in nodes.names_stored(stmt):  # the flag rebound
                out[id(stmt)] = either
                before = simple(stmt, either, ignored)
                live = {True: before, False: before}
            else:
                out[id(stmt)] = either
                live = {k: simple(stmt, live[k], ignored) for k in (True, False)}
        return live

    block(fn.body, frozenset())
    return out


def simple(
    stmt: gast.stmt, live: Live, ignored: Callable[[gast.stmt], frozenset[str]] | None = None
) -> Live:
    """The names live before a simple statement, from those live after it."""
    bound = binds(stmt)
    read = reads(stmt) - ignored(stmt) if ignored is not None else reads(stmt)
    return frozenset((live - {bound}) | read) if bound else frozenset(live | read)


def stop_flag(stmt: gast.stmt) -> str | None:
    """`_stop1` for `while _c1:` whose body ends `_c3 = not _stop1`, `if _c3: ... _c1 = ...`
    `else: _c1 = _c3` (normalize.jumps, then A-normal form): the loop runs again only
    where the flag is False, which it is when each round starts."""
    if not (isinstance(stmt, gast.While) and isinstance(stmt.test, gast.Name)):
        return None
    if len(stmt.body) < 2 or stmt.orelse:
        return None
    negate, last = stmt.body[-2], stmt.body[-1]
    if not (
        binds(negate) is not None
        and isinstance(negate.value, gast.UnaryOp)
        and isinstance(negate.value.op, gast.Not)
        and isinstance(negate.value.operand, gast.Name)
        and isinstance(last, gast.If)
        and isinstance(last.test, gast.Name)
        and last.test.id == binds(negate)
        and len(last.orelse) == 1
        and binds(last.orelse[0]) == stmt.test.id
        and isinstance(last.orelse[0].value, gast.Name)
        and last.orelse[0].value.id == last.test.id
    ):
        return None
    flag = negate.value.operand.id
    if any(flag in nodes.names_stored(s) for s in last.body):
        return None
    return flag


def _flag_values(
    stmts: list[gast.stmt], values: frozenset[bool], flag: str, into: dict[int, frozenset[bool]]
) -> frozenset[bool]:
    """Forwards: the values the flag may have just after each statement (into[id])."""
    for stmt in stmts:
        if isinstance(stmt, gast.If):
            values = _flag_values(stmt.body, values, flag, into) | _flag_values(
                stmt.orelse, values, flag, into
            )
        elif isinstance(stmt, (gast.For, gast.While)):
            if any(isinstance(n, gast.Name) and n.id == flag for n in nodes.walk(stmt)):
                values = frozenset({True, False})  # set (or read) in an inner loop
        elif flag in nodes.names_stored(stmt) or (
            isinstance(stmt, gast.AugAssign) and nodes.names_read(stmt.target) & {flag}
        ):
            value = stmt.value if binds(stmt) == flag else None
            known = isinstance(value, gast.Constant) and type(value.value) is bool
            values = frozenset({value.value}) if known else frozenset({True, False})
        into[id(stmt)] = values
    return values
