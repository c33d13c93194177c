"""Planning the reverse transform of one function: read-only facts before any visit.

Assumes: A-normal form (normalize.anf.check), activity and flow analyses of that
form, a Context. Guarantees: every active variable has an adjoint name, every
while loop a trip counter, every call of a user function with an active argument
its split variant (requested from the driver: built after this function), every
checkpointed loop its state; item writes and calls that write into shared memory
are refused (analyze/aliases.py) before any code is generated.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import alias_messages
from ..analyze import aliases as alias_analysis
from ..analyze import containers as container_analysis
from ..analyze.activity import user_function
from ..analyze.calls import active_parameters, bind_call
from ..checkpoint import is_checkpointed
from ..parse import form_words, origins
from ..syntax import nodes
from ..syntax.nodes import walk
from . import (
    argument_copies,
    checkpoints,
    complex_gate,
    container_checks,
    container_writes,
    containers,
)
from .context import Context


def plan(ctx: Context) -> None:
    """Name adjoints and while counters; choose split variants for active user calls."""
    for name in sorted(ctx.active):
        ctx.adjoint[name] = ctx.namer.exact("b" + name)
    ctx.structured = container_analysis.structured(
        ctx.fn,
        lambda call: user_function(ctx.scope.resolve(call.func), ctx.registry),
        lambda call: ctx.registry.makes_sequence(ctx.scope.resolve(call.func)),
        lambda call: containers.sequence_arguments(ctx, call),
        shares_structure=lambda call: containers.shared_structure(ctx, call),
        none_is_structured=origins.is_form(ctx.parsed.filename),
        arrays_given=ctx.array_params,
        no_containers=argument_copies.own_copies(ctx.fn, ctx.scope),
        checked_params=argument_copies.checked_params(ctx.fn, ctx.scope),
    )
    ctx.container_writes = container_writes.find(ctx)
    container_checks.check(ctx)
    aliases = None
    if any(
        nodes.is_item_write(s) or _calls_user(ctx, s) for s in containers.statements(ctx.fn.body)
    ):
        aliases = alias_analysis.analyze(
            ctx.fn,
            ctx.scope,
            ctx.registry,
            ctx.effects_of,
            ctx.structured,
            reads=lambda stmt: _read_by_backward(ctx, stmt),
            form=form_words.in_form(ctx.parsed),
        )

    def visit(stmts: list[gast.stmt], in_loop: bool) -> None:
        for stmt in stmts:
            if nodes.is_item_write(stmt):
                if nodes.assigned_name(stmt) not in ctx.container_writes:
                    check_item_write(ctx, aliases, stmt)  # into an array
            elif isinstance(stmt, gast.Assign):
                if isinstance(stmt.value, gast.Call) and stmt.targets[0].id in ctx.active:
                    plan_call(ctx, stmt)
            elif isinstance(stmt, gast.If):
                visit(stmt.body, in_loop)
                visit(stmt.orelse, in_loop)
            elif isinstance(stmt, gast.For):
                visit(stmt.body, True)
            elif isinstance(stmt, gast.While):
                ctx.counters[id(stmt)] = (ctx.namer.temp("n"), in_loop)
                visit(stmt.body, True)

    visit(ctx.fn.body, False)
    ctx.complex_values = complex_gate.names(ctx.fn, ctx.scope, ctx.registry)
    complex_gate.check(ctx, ctx.complex_values)
    if aliases is not None:
        check_calls_that_write(ctx, aliases)
    checkpoints.plan_loops(ctx)


def plan_call(ctx: Context, stmt: gast.Assign) -> None:
    call = stmt.value
    callee = ctx.scope.resolve(call.func)
    if ctx.registry.lookup(callee) is not None or not user_function(callee, ctx.registry):
        return
    try:
        bound = bind_call(callee, call)  # with *seq/**mapping: the arguments before them
    except TypeError as err:
        raise ctx.error(
            call,
            f"this call to {callee.__qualname__} does not match its signature: {err}",
            "fix the arguments",
        ) from None
    active = active_parameters(bound, ctx.active)
    if active:
        ctx.calls[id(stmt)] = (ctx.variants.request(callee, active), dict(bound.arguments))
        if is_checkpointed(callee):
            ctx.recomputed.add(id(stmt))


def check_item_write(ctx: Context, aliases: alias_analysis.Aliases, stmt: gast.Assign) -> None:
    """Refuse `y[i] = v` when y may share memory with an argument or a global (the write
    changes the caller's array), or with another name read after the write (analyze.aliases:
    the same analysis decides `y op= v`, so the two agree) but for the names
    transform.view_updates asks at run time to share none of the memory the write
    changes (`runtime.untouched`, marked on the write)."""
    y = nodes.assigned_name(stmt)
    asked = getattr(stmt, "untouched", ())  # asked at run time to share none of it
    shared = [n for n in aliases.live_sharers(stmt, y, skip=(y,)) if n not in asked]
    outside = [str(r[1]) for r in aliases.global_roots(stmt, y)]
    if y not in aliases.locals:
        outside.insert(0, y)  # a global array itself (`np.add(a, b, out=G)`)
    if aliases.params_of(stmt, y) or outside or shared:
        named = [(n, nodes.name(n)) for n in [*outside, *shared]]
        raise alias_messages.item_write_refusal(ctx.parsed, aliases, stmt, y, named)


def check_calls_that_write(ctx: Context, aliases: alias_analysis.Aliases) -> None:
    """A call that runs the user's own function (no split variant: its result carries no
    gradient) may change an argument in place for real; the backward sweep must not have
    read that memory before (transform.in_place checked what the program reads after)."""
    for stmt in containers.statements(ctx.fn.body):
        if id(stmt) in ctx.calls or not _calls_user(ctx, stmt):
            continue
        callee = ctx.scope.resolve(stmt.value.func)
        effects = ctx.effects_of(callee)
        if effects is None:  # it may write what it gets anywhere: none of it differentiated
            # a varied value, even one that reaches the output by no path the analysis sees
            # (`copy_in(y, x * 2.0)` may write it into y, which does)
            given = [a.id for a in walk(stmt.value) if isinstance(a, gast.Name)]
            varied = [a for a in given if a in ctx.activity.varied]
            if varied and not runtime.owns(callee):  # a check of generated code's own
                raise alias_messages.unknown_call_refusal(
                    ctx.parsed, aliases, stmt, callee, varied[0]
                )
            continue
        bound = alias_analysis.bound_arguments(callee, stmt.value)
        read = aliases.before[id(stmt)].read
        for param, mutation in effects.mutated:
            for atom in bound.get(param, []):
                arg = getattr(atom, "id", None)
                if arg is not None and aliases.roots(stmt, arg) & read:
                    raise alias_messages.inactive_call_refusal(
                        ctx.parsed, aliases, stmt, callee, param, mutation, arg
                    )


def _calls_user(ctx: Context, stmt: gast.stmt) -> bool:
    """`t = g(...)` or `g(...)` with g a function differentiated through its source."""
    return (
        isinstance(stmt, (gast.Assign, gast.Expr))
        and isinstance(stmt.value, gast.Call)
        and not nodes.is_item_write(stmt)
        and user_function(ctx.scope.resolve(stmt.value.func), ctx.registry)
    )


def _read_by_backward(ctx: Context, stmt: gast.stmt) -> bool:
    """Whether the backward sweep may read the values `stmt` reads: its adjoint's
    statements read them (an assignment to an active variable)."""
    return (
        isinstance(stmt, gast.Assign)
        and isinstance(stmt.targets[0], gast.Name)
        and stmt.targets[0].id in ctx.active
    )
