"""Reverse mode: a forward sweep that saves, a backward sweep that applies rules.

Assumes: A-normal form (normalize.anf.check), activity and flow analyses of
that form. Guarantees: the backward sweep visits statements exactly in
reverse; a primal variable read by the backward sweep holds, when read, the
value it had right after the statement being differentiated (values the
forward sweep overwrites are pushed before the overwrite and popped after
the adjoint of that statement); adjoints are assigned at their first
contribution and accumulated after that, in place only where the adjoint's array
is the generated code's alone (transform/defined.py), materialised as zeros only
where control flow joins.

The stack is a plain list created per call; branch flags, range objects and
loop targets are ordinary saved variables; while-loop trip counts are pushed
after their loop when that loop runs inside another loop.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import containers as container_analysis
from ..syntax import nodes
from . import assignment, checkpoints, containers, sweep
from .adjoints import Adjoints, index_expr, pop_marker, popped
from .defined import Defined


class Backward(Adjoints):
    """Generates the backward sweep of a block given which adjoints are defined.

    Every site that may push leaves a Restore (transform/sweep.py); which sites push is decided
    from what this code reads, then `assemble.resolve_pops` turns markers into
    `x = _pop()` or drops them (one generation, no regeneration).
    """

    def block(self, stmts: list[gast.stmt], defined: Defined) -> tuple[sweep.Block, Defined]:
        """The records of `stmts` (source order), visited last to first from `defined`."""
        records: list[sweep.Node] = []
        for stmt in reversed(stmts):
            record, defined = self.record(stmt, defined)
            records.append(record)
        return tuple(reversed(records)), defined

    def record(self, stmt: gast.stmt, defined: Defined) -> tuple[sweep.Node, Defined]:
        if isinstance(stmt, gast.If):
            body, d1 = self.block(stmt.body, defined)
            orelse, d2 = self.block(stmt.orelse, defined)
            joined = d1.join(d2)
            unsure = self.ctx.flow.bound_before.get(id(stmt), frozenset())
            zeros = (  # run after the pops of the branch's statements
                self.zero_inits(joined.adjoints - d1.adjoints, unsure),
                self.zero_inits(joined.adjoints - d2.adjoints, unsure),
            )
            body_code = sweep.backward_code(body) + zeros[0]
            else_code = sweep.backward_code(orelse) + zeros[1]
            code = []
            if body_code or else_code:
                test = nodes.deepcopy(stmt.test)
                code = [nodes.if_(test, body_code or [gast.Pass()], else_code)]
            branch = sweep.Branch(stmt, tuple(code), body, orelse, (*zeros[0], *zeros[1]))
            return branch, joined
        if isinstance(stmt, (gast.For, gast.While)):
            code, defined, body = self.loop(stmt, defined)
            return sweep.Loop(stmt, tuple(code), body), defined
        code, defined = self.stmt(stmt, defined)
        return sweep.Step(stmt, tuple(code)), defined

    def stmt(self, stmt: gast.stmt, defined: Defined):
        """The backward code of a simple statement."""
        ctx = self.ctx
        if nodes.is_item_write(stmt):
            return self.item_write(stmt, defined)
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0].id
            code: list[gast.stmt] = []
            if isinstance(stmt.value, gast.Name) and stmt.value.id == target:
                return [pop_marker(stmt, popped(target, ctx))], defined  # x = x: the same
            if target in ctx.active:
                bt = ctx.adjoint[target]
                if id(stmt) in ctx.calls and bt not in defined:
                    code.append(self.zeros(target))
                    defined = defined.assigned(bt)
                if bt in defined:
                    part, defined = assignment.adjoint_of(self, stmt, defined)
                    code.extend(part)
                defined = defined.without(bt)
            code.append(pop_marker(stmt, popped(target, ctx)))
            return code, defined
        if container_analysis.mutation(stmt) is not None:
            return containers.mutate(self, stmt, defined)
        return [], defined

    def item_write(self, stmt: gast.Assign, defined: Defined):
        """`y[index] = v`: v gets the adjoint of the written region, the old y the rest;
        then the overwritten values are put back."""
        ctx = self.ctx
        target = stmt.targets[0]
        y, value = target.value.id, stmt.value
        index = index_expr(target.slice)
        if y in ctx.container_writes:
            return self.container_write(stmt, defined)
        code: list[gast.stmt] = []
        by = ctx.adjoint.get(y)
        if by is not None and by in defined:
            helper = ctx.namespace.bind("unsetitem", runtime.unsetitem, ctx.namer)
            region = ctx.namer.temp("b" + y.lstrip("_"))
            split = nodes.call(nodes.name(helper), [nodes.name(by), index])
            pair = nodes.tuple_([nodes.name(by, store=True), nodes.name(region, store=True)], True)
            code.append(nodes.assign(pair, split))
            defined = defined.owning(by)
            if isinstance(value, gast.Name) and value.id in ctx.active:
                helper = ctx.namespace.bind("unbroadcast", runtime.unbroadcast, ctx.namer)
                contribution = nodes.call(nodes.name(helper), [nodes.name(region), value])
                more, defined = self.accumulate(value.id, contribution, defined)
                code.extend(more)
        restore = gast.Subscript(
            value=nodes.name(y), slice=nodes.deepcopy(target.slice), ctx=gast.Store()
        )
        code.append(pop_marker(stmt, nodes.assign(restore, nodes.call(nodes.name(ctx.pop), []))))
        return code, defined

    def container_write(self, stmt: gast.Assign, defined: Defined):
        """`out[key] = v` into a list or dict the function made (transform/container_writes.py):
        v gets the adjoint held at key, which is zero before the write; then the old item
        (or the key's absence) is put back."""
        ctx = self.ctx
        target = stmt.targets[0]
        y, value, key = target.value.id, stmt.value, index_expr(target.slice)
        code: list[gast.stmt] = []
        by = ctx.adjoint.get(y)
        receives = isinstance(value, gast.Name) and value.id in ctx.active
        if by is not None and by in defined:
            piece = ctx.namer.temp("b" + value.id.lstrip("_")) if receives else "_"
            pair = nodes.tuple_([nodes.name(by, store=True), nodes.name(piece, store=True)], True)
            taken = nodes.call(
                ctx.helper("take_item"), [nodes.name(by), key, nodes.deepcopy(value)]
            )
            code.append(nodes.assign(pair, taken))
            if receives:
                more, defined = self.accumulate(value.id, nodes.name(piece), defined)
                code.extend(more)
        restore = nodes.call(
            ctx.helper("restore_item"),
            [nodes.name(y), index_expr(target.slice), nodes.call(nodes.name(ctx.pop), [])],
        )
        code.append(pop_marker(stmt, nodes.expr_stmt(restore)))
        return code, defined

    def fresh_zeros(self, adjoints: frozenset[str], tracked: bool = True) -> frozenset[str]:
        """The `adjoints` whose zeros (`np.zeros_like(p)`, before a loop) are float arrays
        (or 0-d ones) of their own: of parameters checked to be floats (Context.checked)."""
        if not tracked:
            return frozenset()
        by_adjoint = {b: p for p, b in self.ctx.adjoint.items()}
        return frozenset(
            b
            for b in adjoints
            if by_adjoint[b] in self.ctx.checked and by_adjoint[b] not in self.ctx.structured
        )

    def loop(self, stmt: gast.For | gast.While, defined: Defined):
        """The backward code of a loop, the Defined before it, the records of its body."""
        ctx = self.ctx
        saved = ctx.namer.snapshot()
        tracked = id(stmt) not in ctx.checkpointed  # recomputed: ownership not tracked
        if not tracked:
            defined = defined.unowned()
        entry = defined
        while True:
            ctx.namer.restore(saved)
            records, end = self.block(stmt.body, entry)
            adjoints = entry.adjoints | end.adjoints
            # owned at a step's start: owned before the loop (or zeroed before it: a new
            # array) and at the end of the step before. Each time more adjoints are defined,
            # start again from the first; then shrink to a fixpoint.
            first = defined.owned | self.fresh_zeros(adjoints - defined.adjoints, tracked)
            if adjoints != entry.adjoints:
                entry = Defined(adjoints, first)
                continue
            owned = end.owned & entry.owned
            if owned == entry.owned:
                break
            entry = Defined(adjoints, owned)
        body = sweep.backward_code(records)
        body += self.zero_inits(entry.adjoints - end.adjoints)
        code = self.zero_inits(entry.adjoints - defined.adjoints)
        if id(stmt) in ctx.checkpointed and not checkpoints.adjoint_work(body):
            del ctx.checkpointed[id(stmt)]  # nothing to differentiate: a plain loop
        if id(stmt) in ctx.checkpointed:
            code += checkpoints.backward(ctx, stmt, body)
            if ctx.checkpointed[id(stmt)].kind != "region":
                code.append(pop_marker(stmt, popped(stmt.target.id, ctx)))
            return code, entry, records
        if isinstance(stmt, gast.For):
            if body:
                reversed_ = nodes.call(nodes.name(self.builtin("reversed")), [stmt.iter])
                code.append(
                    gast.For(
                        target=nodes.deepcopy(stmt.target),
                        iter=reversed_,
                        body=body,
                        orelse=[],
                        type_comment=None,
                    )
                )
            code.append(pop_marker(stmt, popped(stmt.target.id, ctx)))
        else:
            counter, in_loop = ctx.counters[id(stmt)]
            if in_loop:
                code.append(popped(counter, ctx))
            if body:
                rng = nodes.call(nodes.name(self.builtin("range")), [nodes.name(counter)])
                code.append(nodes.for_(ctx.namer.temp("k"), rng, body))
        return code, entry, records
