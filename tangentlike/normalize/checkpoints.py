"""Read checkpoint markers into loops the later stages know.

Assumes: the fence passed; runs before desugar. Guarantees: a
`with tl.checkpoint():` block becomes `for _ in region(range(1)): <block>`
(one step whose whole state is stored and recomputed); `tl.checkpointed(...)`
loops are kept as written, and with a default schedule every outermost `for`
loop that has no marker and no early exit gets `checkpointed(...)`; no loop
or region that must be checkpointed contains `break`, or `return`, and a
region contains no `continue` either (each raises, naming the line). With
`plain_loops`, `for t in tl.checkpointed(xs, ...)` becomes `for t in xs` (what it
does in Python) and no default schedule is added; regions stay.
`normalize.anf` turns the markers into `CheckpointedLoop` descriptions.
Invalidates: every analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

import gast

from .. import checkpoint as markers
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk


def region(iterable):
    """The marker of a `with tl.checkpoint():` block lowered to a one-step loop."""
    return iter(iterable)


@dataclass(frozen=True)
class CheckpointedLoop:
    """How the transform treats one `for` loop of A-normal form.

    kind: "binomial", "interval" or "region"; plan: the variable holding the
    schedule object (None for a region, which stores its state on the stack).
    """

    kind: str
    plan: str | None


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    scope: Scope,
    namespace: Namespace,
    namer: Namer,
    default: markers.Schedule | None = None,
    plain_loops: bool = False,
) -> gast.FunctionDef:
    default = None if plain_loops else default
    _Markers(parsed, scope, namespace, namer, default, plain_loops).block(fn.body, top=True)
    return fn


class _Markers:
    def __init__(
        self,
        parsed: ParsedFunction,
        scope: Scope,
        namespace: Namespace,
        namer: Namer,
        default: markers.Schedule | None,
        plain_loops: bool,
    ) -> None:
        self.parsed = parsed
        self.scope = scope
        self.namespace = namespace
        self.namer = namer
        self.default = default
        self.plain_loops = plain_loops

    def block(self, stmts: list[gast.stmt], top: bool) -> None:
        for i, stmt in enumerate(stmts):
            top_inside = False  # loops inside loops and regions are not outermost
            if isinstance(stmt, gast.With):
                stmts[i] = stmt = self.with_(stmt)
            elif isinstance(stmt, gast.For):
                marked = self.marked(stmt.iter)
                if marked and self.plain_loops:
                    stmt.iter = stmt.iter.args[0]  # what checkpointed() iterates
                elif marked:
                    self.check_exits(stmt, "a checkpointed loop", continue_ok=True)
                elif top and self.default is not None and not _exits(stmt.body, True):
                    stmt.iter = self.default_marker(stmt.iter)
            elif not isinstance(stmt, gast.While):
                top_inside = top
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    self.block(inner, top_inside)

    def marked(self, iterable: gast.expr) -> bool:
        if not isinstance(iterable, gast.Call):
            return False
        callee = self.scope.resolve(iterable.func)
        if callee is not markers.checkpointed:
            return False
        if len(iterable.args) != 1 or any(k.arg is None for k in iterable.keywords):
            raise self.parsed.error(
                iterable,
                "checkpointed() takes one iterable and the keyword snapshots= or every=",
                "write tl.checkpointed(range(T), snapshots=k) or tl.checkpointed(xs, every=n)",
            )
        given = {k.arg for k in iterable.keywords}
        if len(given) != 1 or not given <= {"snapshots", "every"}:
            raise self.parsed.error(
                iterable,
                f"checkpointed() takes exactly one of snapshots= or every=, not {sorted(given)}",
                "write tl.checkpointed(range(T), snapshots=k) or ...(range(T), every=n)",
            )
        return True

    def default_marker(self, iterable: gast.expr) -> gast.expr:
        name = self.namespace.bind("checkpointed", markers.checkpointed, self.namer)
        if isinstance(self.default, markers.Binomial):
            keyword = gast.keyword(arg="snapshots", value=nodes.const(self.default.snapshots))
        else:
            keyword = gast.keyword(arg="every", value=nodes.const(self.default.every))
        return nodes.located(gast.Call(nodes.name(name), [iterable], [keyword]), iterable)

    def with_(self, stmt: gast.With) -> gast.For:
        item = stmt.items[0]
        call = item.context_expr
        if (
            len(stmt.items) != 1
            or item.optional_vars is not None
            or not isinstance(call, gast.Call)
            or call.args
            or call.keywords
            or self.scope.resolve(call.func) is not markers.checkpoint
        ):
            raise self.parsed.error(
                stmt,
                "`with` is not supported yet (only `with tl.checkpoint():` is)",
                "move the with-block out of the differentiated function",
            )
        self.check_exits(stmt, "a `with tl.checkpoint()` block", continue_ok=False)
        marker = self.namespace.bind("checkpoint_region", region, self.namer)
        one = nodes.call(nodes.name("range"), [nodes.const(1)])
        loop = nodes.for_(self.namer.temp("once"), nodes.call(nodes.name(marker), [one]), [])
        loop.body = stmt.body
        return nodes.located(loop, stmt)

    def check_exits(self, stmt: gast.stmt, what: str, continue_ok: bool) -> None:
        for node, kind in _exit_nodes(stmt.body, continue_ok):
            raise self.parsed.error(
                node,
                f"`{kind}` inside {what} is not supported",
                "the schedule needs every step to run to its end: compute the trip count "
                "before the loop, or keep this loop out of the checkpoint",
            )


def _exits(stmts: list[gast.stmt], continue_ok: bool) -> bool:
    return any(True for _ in _exit_nodes(stmts, continue_ok))


def _exit_nodes(stmts: list[gast.stmt], continue_ok: bool):
    """`break`/`continue` that leave this block's loop, and any `return`."""
    for stmt in stmts:
        if isinstance(stmt, gast.Return):
            yield stmt, "return"
        elif isinstance(stmt, gast.Break):
            yield stmt, "break"
        elif isinstance(stmt, gast.Continue) and not continue_ok:
            yield stmt, "continue"
        elif isinstance(stmt, (gast.For, gast.While)):
            for node in walk(stmt):
                if isinstance(node, gast.Return):
                    yield node, "return"
            yield from _exit_nodes(stmt.orelse, continue_ok)
        else:
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    yield from _exit_nodes(inner, continue_ok)
