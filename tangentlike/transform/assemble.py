"""The forward sweep and the generated functions.

Assumes: a planned Context. Guarantees: `build` returns the generated
FunctionDefs; the sites analyze/tbr.py chooses push the value they overwrite
(in the forward sweep) and pop it back (after their adjoint in the backward
sweep); a variable pushed at a site where it may still be unbound is bound to
None at function entry.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import tbr
from ..runtime import schedule
from ..syntax import nodes
from ..syntax.nodes import walk
from . import (
    argument_containers,
    checkpoints,
    checks,
    container_checks,
    signature,
    sweep,
    sweep_check,
)
from .adjoints import index_expr
from .context import Context
from .defined import Defined
from .reverse import Backward


class Forward:
    """The primal statements with pushes, split-call variants and loop counters."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def block(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            out.extend(nodes.located(s, stmt) for s in self.stmt(stmt))
        return out

    def push(self, name: str) -> gast.stmt:
        return nodes.expr_stmt(nodes.call(nodes.name(self.ctx.push), [nodes.name(name)]))

    def stmt(self, stmt: gast.stmt) -> list[gast.stmt]:
        ctx = self.ctx
        out: list[gast.stmt] = []
        if nodes.is_item_write(stmt):
            if id(stmt) in ctx.pushed:
                target = stmt.targets[0]
                y = target.value.id
                if y in ctx.container_writes:  # a list or dict: the old item, or no key
                    copy = nodes.call(
                        ctx.helper("saved_item"), [nodes.name(y), index_expr(target.slice)]
                    )
                else:
                    region = nodes.subscript(nodes.name(y), nodes.deepcopy(target.slice))
                    copy = nodes.call(ctx.np("copy"), [region])
                out.append(nodes.expr_stmt(nodes.call(nodes.name(ctx.push), [copy])))
            out.append(stmt)
            return out
        if isinstance(stmt, gast.Assign):
            if id(stmt) in ctx.selections:  # p[k] with k differentiated: p must select
                base, where = ctx.selections[id(stmt)]
                helper = nodes.name(ctx.namespace.bind("selects", runtime.selects, ctx.namer))
                check = nodes.call(helper, [nodes.name(base), nodes.const(where)])
                out.append(nodes.expr_stmt(check))
            if id(stmt) in ctx.pushed:
                out.append(self.push(stmt.targets[0].id))
            if ctx.stats and _makes_plan(ctx, stmt.value):
                stmt.value.args.append(nodes.name(ctx.stack))  # the plan reports to the Tape
            if id(stmt) in ctx.calls and id(stmt) not in ctx.recomputed:
                variant, _ = ctx.calls[id(stmt)]
                call = stmt.value
                value = gast.Call(
                    func=nodes.name(variant.fwd),
                    args=[nodes.name(ctx.stack), *call.args],
                    keywords=call.keywords,
                )
                stmt = nodes.located(nodes.assign(stmt.targets[0].id, value), stmt)
            out.append(stmt)
            return out
        if isinstance(stmt, gast.If):
            stmt.body = self.block(stmt.body) or [gast.Pass()]
            stmt.orelse = self.block(stmt.orelse)
            return [stmt]
        if isinstance(stmt, gast.For):
            if id(stmt) in ctx.pushed:
                out.append(self.push(stmt.target.id))
            if id(stmt) in ctx.checkpointed:
                plain = nodes.deepcopy(stmt.body)
                recorded = self.block(stmt.body)
                stmt.body = plain
                return out + checkpoints.forward(ctx, stmt, recorded)
            stmt.body = self.block(stmt.body)
            out.append(stmt)
            return out
        if isinstance(stmt, gast.While):
            counter, in_loop = ctx.counters[id(stmt)]
            increment = nodes.binop(nodes.name(counter), gast.Add(), nodes.const(1))
            out.append(nodes.assign(counter, nodes.const(0)))
            stmt.body = [*self.block(stmt.body), nodes.assign(counter, increment)]
            out.append(stmt)
            if in_loop:
                out.append(self.push(counter))
            return out
        return [stmt]


def _makes_plan(ctx: Context, value: gast.expr) -> bool:
    if not isinstance(value, gast.Call):
        return False
    callee = ctx.scope.resolve(value.func)
    return isinstance(callee, type) and issubclass(callee, schedule.Plan)


def resolve_pops(code: list[gast.stmt], pushed: frozenset[int]) -> list[gast.stmt]:
    """Restores (transform/sweep.py) become their restore statement for sites that push and vanish
    otherwise; loops and branches left empty go too. Returns new lists."""
    out: list[gast.stmt] = []
    for stmt in code:
        if isinstance(stmt, sweep.Restore):
            if stmt.site in pushed:
                out.extend(nodes.located(s, stmt) for s in stmt.body)
            continue
        if isinstance(stmt, (gast.For, gast.While)):
            inner = resolve_pops(stmt.body, pushed)
            if inner:
                out.append(_with(stmt, body=inner))
            continue
        if isinstance(stmt, gast.If):
            body, orelse = resolve_pops(stmt.body, pushed), resolve_pops(stmt.orelse, pushed)
            body = [s for s in body if not isinstance(s, gast.Pass)]
            if body or orelse:
                out.append(_with(stmt, body=body or [gast.Pass()], orelse=orelse))
            continue
        out.append(stmt)
    return out


def _with(stmt: gast.stmt, **fields: object) -> gast.stmt:
    """A shallow copy of a compound statement with some fields replaced."""
    new = type(stmt)(**{f: fields.get(f, getattr(stmt, f)) for f in stmt._fields})
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(stmt, attr):
            setattr(new, attr, getattr(stmt, attr))
    return new


def read_by_backward(ctx: Context, code: list[gast.stmt]) -> set[str]:
    """Forward-sweep variables (the function's, and while-loop trip counts) `code` reads."""
    return tbr.primal_reads(ctx.fn, (name for name, _ in ctx.counters.values()), code)


def build(
    ctx: Context,
    *,
    name: str,
    split: tuple[str, str] | None,
    wrt: tuple[str, ...],
    seed: str,
    seed_default: object,
    preserve_result: bool,
    scalar_check: str | None,
    seed_check: str | None = None,
    single: bool = True,
) -> list[gast.FunctionDef]:
    """Generate the gradient function (or, with `split`, its forward and backward halves).

    `scalar_check` / `seed_check` name the function and its return statement for the
    check after the forward sweep: a scalar output (grad), or a seed of the output's
    structure and shape (vjp). `single`: one gradient is returned as it is; else a tuple
    of them, also of one (`wrt=(0,)`: the generated code returns what the caller gets,
    so that differentiating it again sees the same structure)."""
    fn = ctx.fn
    body, ret = fn.body[:-1], fn.body[-1].value.id
    defined0 = Defined(frozenset({ctx.adjoint[ret]}) if ret in ctx.active else frozenset())
    block, defined = Backward(ctx).block(body, defined0)  # the sweep form's records
    marked = sweep.backward_code(block)
    if ctx.checks:  # debug mode: the sweep form's invariants, then checks in the code
        sweep_check.backward(marked, fn, ctx.checkpointed)
    checks.contributions(ctx, marked, split is not None)  # debug mode: before saving
    grads = []
    entry = argument_containers.entry_like(fn, ctx.scope)  # a list or dict written into
    params = set(nodes.all_param_names(fn))
    aliases = _entry_aliases(ctx, marked, block, wrt, entry) if split is None else {}
    entry = {**entry, **aliases}
    for p in wrt:
        b = ctx.adjoint.get(p)
        reached = b is not None and b in defined
        if split is None:
            # the caller's gradient: the argument's structure, shape and float dtype
            value = nodes.name(b) if reached else nodes.const(None)
            helper = checks.helper(ctx, "gradient_like")
            like = nodes.name(entry.get(p, p))  # the argument's structure as on entry
            grads.append(nodes.call(helper, [value, like, nodes.const(p)]))
        elif reached:
            grads.append(nodes.name(b))
        else:  # not reached: zeros, or None for a list or dict (any structure, even ragged)
            grads.append(nodes.call(ctx.helper("zeros_of"), [nodes.name(p)]))
    # the gradients of unreached arguments read the arguments after the whole backward
    # sweep: their original values must be back by then
    final = set().union(*map(nodes.names_read, grads)) & params
    pushed = _pushes(ctx, marked, block, final)
    ctx.pushed = pushed
    bwd_code = resolve_pops(marked, ctx.pushed)
    # a split backward half gets its state from the forward half: everything it reads,
    # including the arguments whose zero gradients it returns
    reads = read_by_backward(ctx, bwd_code) | final
    fwd_code = Forward(ctx).block(body)
    fwd_code = [
        *(nodes.located(nodes.assign(a, nodes.name(p)), fn) for p, a in aliases.items()),
        *fwd_code,
    ]
    bwd_code = checkpoints.fill_copies(ctx, bwd_code)

    grad_value = grads[0] if len(grads) == 1 and single else nodes.tuple_(grads)

    params = nodes.param_names(fn)
    unbound = sorted(set(tbr.unbound_saved(ctx.flow, ctx.pushed)) | ctx.prebound)
    pre = [nodes.located(nodes.assign(n, nodes.const(None)), fn) for n in unbound]
    uses_stack = (
        bool(ctx.pushed)
        or bool(ctx.calls)
        or any(c[1] for c in ctx.counters.values())
        or bool(ctx.checkpointed)
        or ctx.stats
    )
    if split is None:
        setup = _stack_setup(ctx, uses_stack, fwd_code, bwd_code)
        check = [] if scalar_check is None else _scalar_check(ctx, ret, scalar_check)
        if seed_check is not None:
            seed_like = checks.helper(ctx, "seed_like")
            args = [nodes.name(seed), nodes.name(ret), nodes.const(seed_check)]
            check.append(nodes.assign(seed, nodes.call(seed_like, args)))
        value: gast.expr = nodes.name(ret)
        if preserve_result and (_assigns(bwd_code, ret) or _writes_memory(ctx, bwd_code)):
            kept = ctx.namer.temp(ret)  # the backward sweep restores `ret`: keep its final value
            final_value: gast.expr = nodes.name(ret)
            if _writes_memory(ctx, bwd_code):  # ... or memory `ret` may share: keep a copy
                helper = ctx.helper("kept_apart")
                final_value = nodes.call(helper, [nodes.name(ret), nodes.const(False)])
            check.append(nodes.located(nodes.assign(kept, final_value), fn.body[-1]))
            value = nodes.name(kept)
        result = nodes.tuple_([value, grad_value]) if preserve_result else grad_value
        body_out = [
            *setup,
            *pre,
            *_banner("forward", fwd_code),
            *check,
            *_banner("backward", bwd_code),
            nodes.return_(result),
        ]
        stats_stack = ctx.stack if ctx.stats else None
        defaults = [nodes.deepcopy(d) for d in fn.args.defaults]
        args = signature.entry(ctx.parsed.node, params, defaults, seed, seed_default, stats_stack)
        return [nodes.function_def(name, args, body_out)]

    fwd_name, bwd_name = split
    state = sorted(reads)
    exit_pre = [
        nodes.located(nodes.assign(n, nodes.const(None)), fn)
        for n in state
        if n not in ctx.flow.bound_at_exit and n not in unbound
    ]
    fwd_body = [*_push_setup(ctx, fwd_code), *pre, *exit_pre, *_banner("forward", fwd_code)]
    if state:
        fwd_body.append(
            nodes.expr_stmt(
                nodes.call(
                    nodes.attribute(nodes.name(ctx.stack), "append"),
                    [nodes.tuple_([nodes.name(n) for n in state])],
                )
            )
        )
    fwd_body.append(nodes.return_(nodes.name(ret)))
    defaults = [nodes.deepcopy(d) for d in fn.args.defaults]
    fwd_args = signature.forward_half(ctx.parsed.node, ctx.stack, params, defaults)
    bwd_body: list[gast.stmt] = []
    if state:
        target = nodes.tuple_([nodes.name(n, store=True) for n in state], store=True)
        pop_state = nodes.call(nodes.attribute(nodes.name(ctx.stack), "pop"), [])
        bwd_body.append(nodes.assign(target, pop_state))
    bwd_body += [
        *_push_setup(ctx, bwd_code),  # checkpointed parts record again in the backward sweep
        *_pop_setup(ctx, bwd_code),
        *_banner("backward", bwd_code),
        nodes.return_(grad_value),
    ]
    bwd_args = signature.backward_half(ctx.stack, seed)
    return [
        nodes.function_def(fwd_name, fwd_args, fwd_body),
        nodes.function_def(bwd_name, bwd_args, bwd_body),
    ]


def _pushes(ctx: Context, marked: list[gast.stmt], block: list, final: set[str]) -> frozenset[int]:
    """The sites that push (analyze/tbr.py), `final` the parameters read after the
    backward sweep. A restore kept inside a branch or loop reads its test or trip count:
    saving one value can make the backward sweep read more, so choose to a fixpoint."""
    pushed: frozenset[int] = frozenset()
    while True:
        reads = read_by_backward(ctx, resolve_pops(marked, pushed)) | final
        undone, lists = container_checks.restored(ctx, reads)  # list appends undone backward
        more = tbr.pushed_sites(ctx.fn, ctx.flow, block, reads | lists, final)
        more |= undone | pushed
        if more == pushed:
            return pushed
        pushed = more


def _entry_aliases(
    ctx: Context, marked: list[gast.stmt], block: list, wrt: tuple[str, ...], entry: dict
) -> dict[str, str]:
    """Parameter p -> `_p_at_entry1`, a second name of the object p is bound to on entry,
    for the differentiated parameters the function rebinds (without an entry copy) and
    the backward sweep need not restore otherwise. The gradient's `gradient_like`
    reads p's structure from the alias: without it, the sweep would push p at every
    rebinding only to give p back at the end. The alias is the object p's restores
    would give back (arguments are never written into: transform/plan.py refuses it;
    lists and dicts written into have their entry copy, `entry_like`)."""
    fn = ctx.fn
    params = set(nodes.all_param_names(fn))
    stored = set().union(set(), *map(nodes.names_stored, fn.body))
    rebound = [p for p in wrt if p in stored and p in params and p not in entry]
    if not rebound:
        return {}
    # the other parameters' gradients read them at the end (zeros_of, gradient_like)
    pushed = _pushes(ctx, marked, block, params - set(rebound))
    restored = {s.name for s in ctx.flow.sites if id(s.stmt) in pushed}
    return {p: ctx.namer.temp(f"{p}_at_entry") for p in rebound if p not in restored}


def _assigns(code: list[gast.stmt], name: str) -> bool:
    return any(name in nodes.names_stored(s) for s in code)


def _writes_memory(ctx: Context, code: list[gast.stmt]) -> bool:
    """Whether `code` may write into arrays: a restore by index (`M[...] = _pop()`), a
    container's item restored, or a call of a generated backward half or recomputation
    (a name of the module's own, `_bwd_h`), which may restore its own arrays."""
    for node in walk(gast.Module(body=code, type_ignores=[])):
        if isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Store):
            return True
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            name = node.func.id
            if name == "restore_item" or (name.startswith("_") and name != ctx.pop):
                return True
    return False


def _uses(code: list[gast.stmt], name: str) -> bool:
    return any(name in nodes.names_read(s) for s in code)


def _stack_setup(
    ctx: Context, uses_stack: bool, fwd: list[gast.stmt], bwd: list[gast.stmt]
) -> list[gast.stmt]:
    if not uses_stack:
        return []
    # with stats the caller passes a measuring stack (schedule.Tape) as a keyword
    out = [] if ctx.stats else [nodes.assign(ctx.stack, gast.List(elts=[], ctx=gast.Load()))]
    return out + _push_setup(ctx, fwd + bwd) + _pop_setup(ctx, bwd)


def _push_setup(ctx: Context, code: list[gast.stmt]) -> list[gast.stmt]:
    if not _uses(code, ctx.push):
        return []
    return [nodes.assign(ctx.push, nodes.attribute(nodes.name(ctx.stack), "append"))]


def _pop_setup(ctx: Context, code: list[gast.stmt]) -> list[gast.stmt]:
    if not _uses(code, ctx.pop):
        return []
    return [nodes.assign(ctx.pop, nodes.attribute(nodes.name(ctx.stack), "pop"))]


def _banner(sweep_: str, code: list[gast.stmt]) -> list[gast.stmt]:
    """`# forward sweep` / `# backward sweep` and the sweep's code."""
    return [nodes.comment(f"{sweep_} sweep", sweep_), *code]


def _scalar_check(ctx: Context, ret: str, what: str) -> list[gast.stmt]:
    """The check that the output is a scalar; none where the shape analysis knows it is
    (a full reduction, a number: then nothing but the check reads the output in grad,
    and the statements computing it can go)."""
    if ctx.shapes.scalar(ctx.fn.body[-1], ret):
        return []
    message = f"{what}: grad needs a scalar output; use vjp"
    error = nodes.call(nodes.name("ValueError"), [nodes.const(message)])
    # np.ndim of a dict is 0, and of a tuple of arrays of different shapes an error
    kinds = nodes.tuple_([nodes.name("tuple"), nodes.name("list"), nodes.name("dict")])
    container = nodes.call(nodes.name("isinstance"), [nodes.name(ret), kinds])
    test = gast.BoolOp(
        op=gast.Or(), values=[container, nodes.call(ctx.np("ndim"), [nodes.name(ret)])]
    )
    return [nodes.if_(test, [gast.Raise(exc=error, cause=None)], [])]
