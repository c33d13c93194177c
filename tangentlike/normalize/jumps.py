"""Lower `break`, `continue` and early `return` to flags and structured control flow.

Assumes: desugar ran (loop targets are names). Guarantees: no Break or Continue,
no loop `else` (it runs after the loop unless the break flag is set), and a
single `return` as the last statement. A jump sets flags; the statements
it skips are wrapped in `if not <flag>:`; a loop that can break becomes a
`while` whose condition also tests the flag (so the backward sweep replays the
iterations that ran, counted like any while loop). Evaluation order and the
values computed are those of the original program.
Invalidates: every analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

import gast

from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.nodes import walk


@dataclass
class _Loop:
    skip: str  # set when the rest of this iteration must not run
    stop: str | None  # set when the loop must end (break, or return inside it)


def run(fn: gast.FunctionDef, namer: Namer) -> gast.FunctionDef:
    returns = [n for n in walk(fn) if isinstance(n, gast.Return)]
    early = not (len(returns) == 1 and fn.body and fn.body[-1] is returns[0])
    loops_jump = any(
        isinstance(n, (gast.Break, gast.Continue))
        or (isinstance(n, (gast.For, gast.While)) and n.orelse)
        for n in walk(fn)
    )
    if not early and not loops_jump:
        return fn
    lowering = _Lowering(namer, early, fn)
    body = lowering.block(fn.body, None)
    if early:
        start = [
            nodes.located(nodes.assign(lowering.result, nodes.const(None)), fn),
            nodes.located(nodes.assign(lowering.returned, nodes.const(False)), fn),
        ]
        end = nodes.located(nodes.return_(nodes.name(lowering.result)), returns[-1])
        body = [*start, *body, end]
    fn.body = body
    return fn


class _Lowering:
    def __init__(self, namer: Namer, early: bool, fn: gast.FunctionDef) -> None:
        self.namer = namer
        self.early = early
        self.result = namer.exact(fn.name) if early else ""
        self.returned = namer.temp("returned") if early else ""

    def block(self, stmts: list[gast.stmt], loop: _Loop | None) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for i, stmt in enumerate(stmts):
            lowered, may_jump = self.stmt(stmt, loop)
            out.extend(nodes.located(s, stmt) for s in lowered)
            if may_jump and i + 1 < len(stmts):
                rest = self.block(stmts[i + 1 :], loop)
                if rest:
                    flag = loop.skip if loop is not None else self.returned
                    guard = gast.UnaryOp(op=gast.Not(), operand=nodes.name(flag))
                    out.append(nodes.located(nodes.if_(guard, rest), stmts[i + 1]))
                return out
        return out

    def set_flags(self, *names: str) -> list[gast.stmt]:
        return [nodes.assign(n, nodes.const(True)) for n in names]

    def stmt(self, stmt: gast.stmt, loop: _Loop | None) -> tuple[list[gast.stmt], bool]:
        if isinstance(stmt, gast.Return) and self.early:
            out = [nodes.assign(self.result, stmt.value), *self.set_flags(self.returned)]
            if loop is not None:
                out += self.set_flags(loop.skip, loop.stop)
            return out, True
        if isinstance(stmt, gast.Break):
            return self.set_flags(loop.skip, loop.stop), True
        if isinstance(stmt, gast.Continue):
            return self.set_flags(loop.skip), True
        if isinstance(stmt, gast.If):
            may = self.jumps(stmt.body + stmt.orelse)
            stmt.body = self.block(stmt.body, loop) or [gast.Pass()]
            stmt.orelse = self.block(stmt.orelse, loop)
            return [stmt], may
        if isinstance(stmt, (gast.For, gast.While)):
            orelse, stmt.orelse = stmt.orelse, []
            returns = self.early and any(isinstance(n, gast.Return) for n in walk(stmt))
            out, stop = self.loop(stmt)
            if returns and loop is not None:
                out.append(
                    nodes.if_(nodes.name(self.returned), self.set_flags(loop.skip, loop.stop))
                )
            if orelse:  # runs when the loop ends without break; may jump in the outer loop
                returns = returns or self.jumps(orelse)  # before lowering removes the jumps
                lowered = self.block(orelse, loop)
                if stop is not None:
                    not_stopped = gast.UnaryOp(op=gast.Not(), operand=nodes.name(stop))
                    lowered = [nodes.if_(not_stopped, lowered or [gast.Pass()])]
                out.extend(nodes.located(s, orelse[0]) for s in lowered)
            return out, returns
        return [stmt], False

    def jumps(self, stmts: list[gast.stmt]) -> bool:
        """Whether these statements can jump out of the current block (not from inner loops)."""
        for stmt in stmts:
            for node in _walk_outside_loops(stmt):
                if isinstance(node, (gast.Break, gast.Continue)):
                    return True
                if isinstance(node, gast.Return) and self.early:
                    return True
                if (  # a loop, at any depth of ifs, with a return inside: it leaves this one too
                    isinstance(node, (gast.For, gast.While))
                    and self.early
                    and any(isinstance(n, gast.Return) for n in walk(node))
                ):
                    return True
        return False

    def loop(self, stmt: gast.For | gast.While) -> tuple[list[gast.stmt], str | None]:
        """The lowered loop, and the flag set when it ended by break (or return)."""
        breaks = any(
            isinstance(n, gast.Break) for s in stmt.body for n in _walk_outside_loops(s)
        ) or (self.early and any(isinstance(n, gast.Return) for n in walk(stmt)))
        if not self.jumps(stmt.body):
            stmt.body = self.block(stmt.body, _Loop("", None))
            return [stmt], None
        ctx = _Loop(self.namer.temp("skip"), self.namer.temp("stop") if breaks else None)
        body = [nodes.assign(ctx.skip, nodes.const(False)), *self.block(stmt.body, ctx)]
        if ctx.stop is None:
            stmt.body = body
            return [stmt], None
        not_stopped = gast.UnaryOp(op=gast.Not(), operand=nodes.name(ctx.stop))
        start = [nodes.assign(ctx.stop, nodes.const(False))]
        if isinstance(stmt, gast.While):
            forever = isinstance(stmt.test, gast.Constant) and stmt.test.value is True
            stmt.test = (
                not_stopped
                if forever  # `while True:` left by `break`
                else gast.BoolOp(op=gast.And(), values=[not_stopped, stmt.test])
            )
            stmt.body = body
            return [*start, stmt], ctx.stop
        seq, k, at = self.namer.temp("seq"), self.namer.temp("k"), self.namer.temp("at")
        length = nodes.call(nodes.name("len"), [nodes.name(seq)])
        more = gast.Compare(left=nodes.name(k), ops=[gast.Lt()], comparators=[length])
        # the item's position in a name of its own, never rebound in the body: the item
        # stays a known view seq[at] of an array (analyze.aliases), so that an update
        # `item op= v` can be written into the array (transform.in_place)
        position = nodes.assign(at, nodes.name(k))
        item = nodes.assign(stmt.target.id, nodes.subscript(nodes.name(seq), nodes.name(at)))
        step = nodes.assign(k, nodes.binop(nodes.name(at), gast.Add(), nodes.const(1)))
        loop = nodes.while_(
            gast.BoolOp(op=gast.And(), values=[not_stopped, more]), [position, item, step, *body]
        )
        return [
            *start,
            nodes.assign(seq, stmt.iter),
            nodes.assign(k, nodes.const(0)),
            loop,
        ], ctx.stop


def _walk_outside_loops(stmt: gast.stmt):
    """Nodes of `stmt`, not descending into the bodies of loops nested inside it."""
    yield stmt
    if isinstance(stmt, (gast.For, gast.While)):
        for child in stmt.orelse:  # a loop's else runs in the enclosing loop
            yield from _walk_outside_loops(child)
        return
    for child in gast.iter_child_nodes(stmt):
        if isinstance(child, gast.stmt):
            yield from _walk_outside_loops(child)
        else:
            yield child
