"""Checkpointed loops, regions and calls in the reverse sweep.

Assumes: a planned Context whose `checkpointed` table names the loops
normalize.anf marked. Guarantees, for a checkpointed loop: the forward sweep
runs the body as written (no pushes) and saves the loop state (the variables
the body assigns that are bound before it or read before assigned in it)
before the steps the schedule keeps; the backward sweep drives the schedule:
it restores states, recomputes steps without recording, records one step (the
same forward code, with pushes, that a plain loop would run) and differentiates
it right away. A region (`with tl.checkpoint():`) is a one-step loop whose
state goes on the stack. A call of an `@tl.checkpoint` function runs the plain
function forward and its recording half just before its adjoint. The stack
discipline of the plain loop is kept step by step, so the gradient is the
plain loop's, to rounding.
"""

from __future__ import annotations

import builtins

import gast

from ..analyze import containers as container_analysis
from ..analyze import flow as flow_analysis
from ..syntax import nodes
from . import sweep
from .context import Context, LoopState


def plan_loops(ctx: Context) -> None:
    """Work out the state of each checkpointed loop; pre-bind what may be unbound."""
    for stmt in _loops(ctx.fn.body):
        if id(stmt) not in ctx.checkpointed:
            continue
        _check_effects(ctx, stmt)
        state = _state(ctx, stmt)
        ctx.carried[id(stmt)] = state
        bound = ctx.flow.bound_before[id(stmt)]
        ctx.prebound.update(n for n in state.names if n not in bound)


def _is_output(ctx: Context, stmt: gast.stmt) -> bool:
    """`print(...)`, `logging...(...)`, `warnings.warn(...)` as a statement: output only."""
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return False
    callee = ctx.scope.resolve(stmt.value.func)
    if callee is builtins.print:
        return True
    owner = getattr(callee, "__self__", None)
    module = getattr(callee, "__module__", None) or type(owner).__module__
    return module in ("logging", "warnings", "_warnings")


def _check_effects(ctx: Context, loop: gast.For) -> None:
    """A step runs again when recomputed: output is left out of the copies that recompute,
    other calls made for their effects would repeat them, so they are refused."""
    for stmt in _statements(loop.body):
        if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
            continue
        if _is_output(ctx, stmt) or container_analysis.mutation(stmt) is not None:
            continue
        kind = "block" if ctx.checkpointed[id(loop)].kind == "region" else "loop"
        raise ctx.error(
            stmt,
            f"a call made for its effects inside a checkpointed {kind}: recomputing the "
            f"{'block' if kind == 'block' else 'steps'} would repeat it",
            "move it out of the checkpointed part, or use its result (y = f(...))",
        )


def without_output(ctx: Context, stmts: list[gast.stmt]) -> list[gast.stmt]:
    """`stmts` without print/logging statements (in recomputed copies: output once)."""
    out = []
    for stmt in stmts:
        if _is_output(ctx, stmt):
            continue
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                setattr(stmt, field, without_output(ctx, inner) or [gast.Pass()])
        out.append(stmt)
    return out


def _loops(stmts: list[gast.stmt]):
    for stmt in stmts:
        if isinstance(stmt, gast.For):
            yield stmt
        for field in ("body", "orelse"):
            yield from _loops(getattr(stmt, field, None) or [])


def _state(ctx: Context, loop: gast.For) -> LoopState:
    """The loop-carried state: names the body binds or writes into that hold a value
    when a step starts (bound before the loop, or read before being assigned)."""
    written = {nodes.assigned_name(s) for s in _statements(loop.body) if nodes.is_item_write(s)}
    grown = {m[0] for s in _statements(loop.body) if (m := container_analysis.mutation(s))}
    stored = set().union(*(nodes.names_stored(s) for s in loop.body)) | written | grown
    stored.discard(loop.target.id)
    exposed = _read_before_assigned(loop)
    # a value from before the loop matters to the backward sweep of the code around it
    # only if that code mentions the name (compiler temporaries of the body never do)
    before = ctx.flow.maybe_bound_before[id(loop)] & _names_outside(ctx.fn.body, loop)
    state = sorted(stored & (exposed | before))
    return LoopState(
        state,
        frozenset(written & set(state)),
        frozenset(exposed),
        frozenset(grown & set(state)),
    )


def _names_outside(stmts: list[gast.stmt], loop: gast.For) -> set[str]:
    """Names read or bound anywhere in `stmts` except in the body of `loop`."""
    names: set[str] = set()
    for stmt in stmts:
        if stmt is loop:
            names |= nodes.names_read(loop.iter) | {loop.target.id}
            continue
        header = [getattr(stmt, f) for f in ("test", "iter", "target") if hasattr(stmt, f)]
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            for part in header:
                names |= nodes.names_read(part) | nodes.names_stored(part)
            names |= _names_outside(stmt.body, loop) | _names_outside(stmt.orelse, loop)
        else:
            names |= nodes.names_read(stmt) | nodes.names_stored(stmt)
            if nodes.is_item_write(stmt):
                names.add(nodes.assigned_name(stmt))
    return names


def _statements(stmts: list[gast.stmt]):
    for stmt in stmts:
        yield stmt
        for field in ("body", "orelse"):
            yield from _statements(getattr(stmt, field, None) or [])


def _read_before_assigned(loop: gast.For) -> set[str]:
    """Names a step may read before it assigns them (definite assignment from step entry)."""
    step = gast.FunctionDef(
        name="step",
        args=nodes.arguments([]),
        body=loop.body,
        decorator_list=[],
        returns=None,
        type_comment=None,
        type_params=[],
    )
    local = flow_analysis.analyze(step, [loop.target.id])
    exposed: set[str] = set()
    for stmt in _statements(loop.body):
        if isinstance(stmt, (gast.Assign, gast.Expr, gast.Assert)):
            reads = nodes.names_read(stmt)
        elif isinstance(stmt, (gast.If, gast.While)):
            reads = nodes.names_read(stmt.test)
        elif isinstance(stmt, gast.For):
            reads = nodes.names_read(stmt.iter)
        else:
            reads = set()
        exposed |= reads - local.bound_before[id(stmt)]
    return exposed


# ---------------------------------------------------------------------------
# Generated code


def state_value(ctx: Context, loop: gast.For) -> gast.expr:
    """`(h, np.copy(y), list(xs))`: the state as a tuple, what steps change in place copied."""
    loop_state = ctx.carried[id(loop)]
    return nodes.tuple_([_copied(ctx, loop_state, n) for n in loop_state.names])


def _copied(ctx: Context, state: LoopState, name: str) -> gast.expr:
    """`name`, or a copy of it when the steps change it in place."""
    if name in state.lists:
        list_ = ctx.namespace.bind("list", builtins.list, ctx.namer)
        return nodes.call(nodes.name(list_), [nodes.name(name)])
    if name in state.copies and name in ctx.container_writes:
        return nodes.call(ctx.helper("copied"), [nodes.name(name)])
    if name in state.copies:
        return nodes.call(ctx.np("copy"), [nodes.name(name)])
    return nodes.name(name)


def restore_state(ctx: Context, loop: gast.For, value: gast.expr) -> list[gast.stmt]:
    """`h, y = <value>` and a fresh copy of each array the steps write into."""
    loop_state = ctx.carried[id(loop)]
    if not loop_state.names:
        return []
    target = nodes.tuple_([nodes.name(n, store=True) for n in loop_state.names], store=True)
    out = [nodes.assign(target, value)]
    for n in sorted(loop_state.copies | loop_state.lists):
        out.append(nodes.assign(n, _copied(ctx, loop_state, n)))
    return out


def forward(ctx: Context, loop: gast.For, recorded: list[gast.stmt]) -> list[gast.stmt]:
    """The forward sweep of a checkpointed loop, given its (plain) body as written.

    `recorded` is the body as a plain loop's forward sweep would run it (with
    pushes): the backward sweep runs it for one step at a time.
    """
    spec = ctx.checkpointed[id(loop)]
    plain = loop.body
    ctx.recorded[id(loop)] = without_output(ctx, recorded)
    if spec.kind == "region":
        state = ctx.carried[id(loop)].names
        push = nodes.call(nodes.name(ctx.push), [state_value(ctx, loop)])
        note = _banner("forward: a checkpointed block, not recorded (its inputs are)", "forward")
        return [
            note,
            *([nodes.expr_stmt(push)] if state else []),
            *plain,
            _banner("forward", "forward"),
        ]
    index, plan = loop.target.id, nodes.name(spec.plan)
    save = nodes.call(nodes.attribute(plan, "save"), [nodes.name(index), state_value(ctx, loop)])
    kept = gast.Compare(
        left=nodes.name(index), ops=[gast.In()], comparators=[nodes.attribute(plan, "kept")]
    )
    body = [nodes.if_(kept, [nodes.expr_stmt(save)], []), *plain]
    return [nodes.for_(index, nodes.deepcopy(loop.iter), body)]


def backward(ctx: Context, loop: gast.For, adjoint: list[gast.stmt]) -> list[gast.stmt]:
    """The backward sweep of a checkpointed loop, given the adjoint of one step."""
    spec = ctx.checkpointed[id(loop)]
    ctx.plain[id(loop)] = without_output(ctx, nodes.deepcopy(loop.body))
    record = _marker(ctx, loop, "record")
    if spec.kind == "region":
        state = ctx.carried[id(loop)].names
        pop = nodes.call(nodes.name(ctx.pop), [])
        restore = restore_state(ctx, loop, pop) if state else []
        again = _banner("forward: the checkpointed block again, recorded", "forward")
        return [
            *restore,
            again,
            record,
            _banner("backward: the block's adjoint", "backward"),
            *adjoint,
        ]
    index, plan = loop.target.id, nodes.name(spec.plan)
    act = ctx.namer.temp("act")
    save = nodes.call(nodes.attribute(plan, "save"), [nodes.name(index), state_value(ctx, loop)])
    load = nodes.call(nodes.attribute(plan, "load"), [nodes.name(index)])
    cases = [
        (
            "advance",
            [_banner("forward: step again, not recorded", "forward"), _marker(ctx, loop, "plain")],
        ),
        ("save", [nodes.expr_stmt(save)]),
        ("restore", restore_state(ctx, loop, load) or [gast.Pass()]),
        ("record", [_banner("forward: step again, recorded", "forward"), record]),
    ]
    chain: list[gast.stmt] = [_banner("backward: the step's adjoint", "backward"), *adjoint]
    for what, body in reversed(cases):
        test = gast.Compare(left=nodes.name(act), ops=[gast.Eq()], comparators=[nodes.const(what)])
        chain = [nodes.if_(test, body or [gast.Pass()], chain)]
    target = nodes.tuple_([nodes.name(act, store=True), nodes.name(index, store=True)], True)
    reversal = nodes.call(nodes.attribute(plan, "reversal"), [])
    driver = gast.For(target=target, iter=reversal, body=chain, orelse=[], type_comment=None)
    return [driver]


def _banner(text: str, sweep_: str) -> gast.stmt:
    """A comment line in the generated code, saying which sweep the statements after
    it belong to (emit.codegen)."""
    return nodes.comment(text, sweep_)


def adjoint_work(code: list[gast.stmt]) -> bool:
    """Whether backward code does more than restore values (sweep.Restore) and copy
    steps (sweep.StepCopy)."""
    for stmt in code:
        if isinstance(stmt, (sweep.Restore, sweep.StepCopy)):
            continue
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            if adjoint_work(stmt.body) or adjoint_work(stmt.orelse):
                return True
            continue
        return True
    return False


def _marker(ctx: Context, loop: gast.For, kind: str) -> gast.stmt:
    """Stands for a copy of the body (`plain` or `record`ing) until the forward sweep
    is built. Meanwhile it reads the step's inputs, so that the values the backward
    sweep needs are known: what a step assigns before reading it is recomputed."""
    inputs = nodes.tuple_([nodes.name(n) for n in sorted(ctx.carried[id(loop)].inputs)])
    return sweep.step_copy(loop, kind == "record", inputs)


def fill_copies(ctx: Context, code: list[gast.stmt]) -> list[gast.stmt]:
    """Replace each marker by its copy of the loop body."""
    out: list[gast.stmt] = []
    for stmt in code:
        if isinstance(stmt, sweep.StepCopy):
            out.extend((ctx.recorded if stmt.recorded else ctx.plain)[stmt.loop])
            continue
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                setattr(stmt, field, fill_copies(ctx, inner))
        out.append(stmt)
    return out


def recompute_call(ctx: Context, stmt: gast.Assign, fwd: str) -> gast.stmt:
    """`_fwd_g(_stack, *args)`: an `@tl.checkpoint` callee, recorded again before its adjoint."""
    call = stmt.value
    again = gast.Call(
        func=nodes.name(fwd),
        args=[nodes.name(ctx.stack), *nodes.deepcopy(call.args)],
        keywords=nodes.deepcopy(call.keywords),
    )
    return nodes.expr_stmt(again)
