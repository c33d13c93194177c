"""Reverse mode: a forward sweep that saves, a backward sweep that applies rules.

Assumes: A-normal form (normalize.anf.check), activity and flow analyses of
that form. Guarantees: the backward sweep visits statements exactly in
reverse; a primal variable read by the backward sweep holds, when read, the
value it had right after the statement being differentiated (values the
forward sweep overwrites are pushed before the overwrite and popped after
the adjoint of that statement); adjoints are assigned at their first
contribution and accumulated out of place after that, materialised as zeros
only where control flow joins.

The stack is a plain list created per call; branch flags, range objects and
loop targets are ordinary saved variables; while-loop trip counts are pushed
after their loop when that loop runs inside another loop.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import alias_messages
from ..analyze import aliases as alias_analysis
from ..analyze import containers as container_analysis
from ..analyze.activity import data_operands, user_function
from ..analyze.calls import bind_call
from ..checkpoint import is_checkpointed
from ..errors import UnknownFunctionError
from ..rules import unknown
from ..rules.template import bind_arguments, instantiate
from ..syntax import nodes
from ..syntax.names import Namer
from . import checkpoints, checks, container_checks, containers, sweep
from .context import Context
from .defined import Defined

# ---------------------------------------------------------------------------
# Planning: adjoint names, user-function calls, loop counters


def plan(ctx: Context) -> None:
    """Name adjoints and while counters; choose split variants for active user calls."""
    for name in sorted(ctx.active):
        ctx.adjoint[name] = ctx.namer.exact("b" + name)
    ctx.structured = container_analysis.structured(
        ctx.fn,
        lambda call: user_function(ctx.scope.resolve(call.func), ctx.registry),
        lambda call: ctx.registry.makes_sequence(ctx.scope.resolve(call.func)),
        lambda call: containers.sequence_arguments(ctx, call),
    )
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
        )

    def visit(stmts: list[gast.stmt], in_loop: bool) -> None:
        for stmt in stmts:
            if nodes.is_item_write(stmt):
                check_item_write(ctx, aliases, stmt)
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
    active = tuple(
        p for p, v in bound.arguments.items() if isinstance(v, gast.Name) and v.id in ctx.active
    )
    if active:
        ctx.calls[id(stmt)] = (ctx.variant(callee, active), dict(bound.arguments))
        if is_checkpointed(callee):
            ctx.recomputed.add(id(stmt))


def check_item_write(ctx: Context, aliases: alias_analysis.Aliases, stmt: gast.Assign) -> None:
    """Refuse `y[i] = v` when y may share memory with an argument or a global (the write
    changes the caller's array), or with another name read after the write (analyze.aliases:
    the same analysis decides `y op= v`, so the two agree)."""
    y = nodes.assigned_name(stmt)
    shared = aliases.live_sharers(stmt, y, skip=(y,))
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
        if effects is None:
            continue
        bound = alias_analysis.bound_arguments(callee, stmt.value)
        read = aliases.before[id(stmt)].read
        for param, mutation in effects.mutated:
            for atom in bound.get(param, []):
                arg = getattr(atom, "id", None)
                if arg is not None and aliases.roots(stmt, arg) & read:
                    raise alias_messages.inactive_call_refusal(
                        ctx.parsed, stmt, callee, param, mutation, arg
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


# ---------------------------------------------------------------------------
# Backward sweep


class Backward:
    """Generates the backward sweep of a block given which adjoints are defined.

    Every site that may push leaves a Restore (transform/sweep.py); which sites push is decided
    from what this code reads, then `assemble.resolve_pops` turns markers into
    `x = _pop()` or drops them (one generation, no regeneration).
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def block(self, stmts: list[gast.stmt], defined: Defined) -> tuple[list[gast.stmt], Defined]:
        code: list[gast.stmt] = []
        for stmt in reversed(stmts):
            part, defined = self.stmt(stmt, defined)
            self.ctx.backward_parts[id(stmt)] = part
            code.extend(nodes.located(s, stmt) for s in part)
        return code, defined

    def stmt(self, stmt: gast.stmt, defined: Defined):
        ctx = self.ctx
        if nodes.is_item_write(stmt):
            return self.item_write(stmt, defined)
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0].id
            code: list[gast.stmt] = []
            if target in ctx.active:
                bt = ctx.adjoint[target]
                if id(stmt) in ctx.calls and bt not in defined:
                    code.append(self.zeros(target))
                    defined = defined.assigned(bt)
                if bt in defined:
                    part, defined = self.adjoint_of(stmt, defined)
                    code.extend(part)
                defined = defined.without(bt)
            code.append(pop_marker(stmt, popped(target, ctx)))
            return code, defined
        if isinstance(stmt, gast.If):
            body, d1 = self.block(stmt.body, defined)
            orelse, d2 = self.block(stmt.orelse, defined)
            joined = d1.join(d2)
            unsure = ctx.flow.bound_before.get(id(stmt), frozenset())
            zeros = (
                self.zero_inits(joined.adjoints - d1.adjoints, unsure),
                self.zero_inits(joined.adjoints - d2.adjoints, unsure),
            )
            self.ctx.join_zeros[id(stmt)] = zeros[0] + zeros[1]  # read after the branch's pops
            body += zeros[0]
            orelse += zeros[1]
            if not body and not orelse:
                return [], joined
            return [nodes.if_(nodes.deepcopy(stmt.test), body or [gast.Pass()], orelse)], joined
        if isinstance(stmt, (gast.For, gast.While)):
            return self.loop(stmt, defined)
        if container_analysis.mutation(stmt) is not None:
            return containers.mutate(self, stmt, defined, pop_marker)
        return [], defined

    def item_write(self, stmt: gast.Assign, defined: Defined):
        """`y[index] = v`: v gets the adjoint of the written region, the old y the rest;
        then the overwritten values are put back."""
        ctx = self.ctx
        target = stmt.targets[0]
        y, value = target.value.id, stmt.value
        index = _index_expr(target.slice)
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

    def loop(self, stmt: gast.For | gast.While, defined: Defined):
        ctx = self.ctx
        saved = ctx.namer.snapshot()
        defined = defined.unowned()  # ownership is not tracked around loops
        entry = defined
        while True:
            ctx.namer.restore(saved)
            body, end = self.block(stmt.body, entry)
            if end.adjoints <= entry.adjoints:
                break
            entry = entry.union(end)
        body += self.zero_inits(entry.adjoints - end.adjoints)
        code = self.zero_inits(entry.adjoints - defined.adjoints)
        if id(stmt) in ctx.checkpointed and not checkpoints.adjoint_work(body):
            del ctx.checkpointed[id(stmt)]  # nothing to differentiate: a plain loop
        if id(stmt) in ctx.checkpointed:
            code += checkpoints.backward(ctx, stmt, body)
            if ctx.checkpointed[id(stmt)].kind != "region":
                code.append(pop_marker(stmt, popped(stmt.target.id, ctx)))
            return code, entry
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
        return code, entry

    def builtin(self, name: str) -> str:
        import builtins

        return self.ctx.namespace.bind(name, getattr(builtins, name), self.ctx.namer)

    def zeros(self, name: str) -> gast.stmt:
        if name in self.ctx.structured:
            value = nodes.call(containers.helper(self, "zeros_of"), [nodes.name(name)])
            return nodes.assign(self.ctx.adjoint[name], value)
        value = nodes.call(self.ctx.np("zeros_like"), [nodes.name(name)])
        return nodes.assign(self.ctx.adjoint[name], value)

    def zero_inits(
        self, adjoints: frozenset[str], bound: frozenset[str] | None = None
    ) -> list[gast.stmt]:
        """Zero adjoints where control flow joins. `bound`: the primals surely bound there
        (None: all); a primal that may be unbound on this path is bound to None at entry
        and its zero is `zeros_of` (None for None): no code reads the adjoint of a value
        that was never bound."""
        by_adjoint = {b: p for p, b in self.ctx.adjoint.items()}
        out = []
        for b in sorted(adjoints):
            primal = by_adjoint[b]
            if bound is None or primal in bound or primal in self.ctx.structured:
                out.append(self.zeros(primal))
            else:
                self.ctx.prebound.add(primal)
                zero = nodes.call(containers.helper(self, "zeros_of"), [nodes.name(primal)])
                out.append(nodes.assign(b, zero))
        return out

    # -- one assignment ---------------------------------------------------------
    def adjoint_of(self, stmt: gast.Assign, defined: Defined):
        ctx = self.ctx
        target, value = stmt.targets[0].id, stmt.value
        bt = ctx.adjoint[target]
        if id(stmt) not in ctx.calls and not (
            set(data_operands(value, ctx.scope, ctx.registry)) & ctx.active
        ):
            return [], defined  # e.g. `out = np.zeros(n)` before writes into out
        if isinstance(value, gast.Name):
            return self.contribute(value, nodes.name(bt), defined)
        if isinstance(value, (gast.Constant, gast.Attribute)) and not nodes.names_read(value) & (
            ctx.activity.varied
        ):
            return [], defined  # a literal or a global: nothing to propagate
        if isinstance(value, (gast.Tuple, gast.List, gast.Dict)):
            return containers.literal(self, value, bt, defined)
        if id(stmt) in ctx.calls:
            return self.call_variant(stmt, defined)
        if isinstance(value, gast.BinOp) and (
            isinstance(value.op, (gast.Add, gast.Mult))
            and any(containers.may_hold_container(ctx, o) for o in (value.left, value.right))
        ):
            return containers.arithmetic(self, value, bt, defined)
        if isinstance(value, gast.BinOp):
            rule = ctx.registry.lookup(type(value.op))
            bindings = {"x": value.left, "y": value.right}
            what = f"the operator {type(value.op).__name__}"
        elif isinstance(value, gast.UnaryOp):
            rule = ctx.registry.lookup(type(value.op))
            bindings = {"x": value.operand}
            what = f"the operator {type(value.op).__name__}"
        elif isinstance(value, gast.Call):
            callee = ctx.scope.resolve(value.func)
            rule = ctx.registry.lookup(callee)
            what = getattr(callee, "__qualname__", None) or getattr(
                callee, "__name__", repr(callee)
            )
            if rule is None:
                what, hint = unknown.message(callee, ctx.registry, ctx.parsed.func.__qualname__)
                raise UnknownFunctionError(what, ctx.parsed.location(value), hint=hint)
            keywords = {k.arg: k.value for k in value.keywords}
            bindings = bind_arguments(rule, value.args, keywords)
        elif isinstance(value, gast.Subscript) and ctx.registry.concatenates(
            ctx.scope.resolve(value.value)
        ):
            return self.concatenation(value, bt, defined)
        elif isinstance(value, gast.Subscript) and not isinstance(value.value, gast.Name):
            raise ctx.error(  # analyze.operands refuses these first
                value,
                "differentiating through this subscript is not supported",
                "index a local array, list, tuple or dict",
            )
        elif (
            isinstance(value, gast.Subscript)
            and isinstance(value.value, gast.Name)
            and value.value.id in ctx.structured
        ):
            return containers.read(self, value, bt, defined, _index_expr(value.slice))
        elif isinstance(value, gast.Subscript):
            helper = ctx.namespace.bind("unsubscript", runtime.unsubscript, ctx.namer)
            contribution = nodes.call(
                nodes.name(helper),
                [nodes.name(bt), nodes.deepcopy(value.value), _index_expr(value.slice)],
            )
            return self.contribute(value.value, contribution, defined)
        else:
            raise ctx.error(
                value,
                f"differentiating through {type(value).__name__} values is not supported yet",
                "compute the value with NumPy operations on arrays",
            )
        if rule is None:
            raise ctx.error(value, f"{what} has no derivative rule", "rewrite the expression")
        instance = instantiate(rule, bindings, nodes.name(target), bt, ctx.namer, ctx.namespace)
        stmts = [
            s
            for s in _hoist_contributions(instance.stmts, ctx.namer)
            if not _is_contribution(s) or self.receives(instance.bindings[s.targets[0].slice.id])
        ]
        if rule.origin == "user":
            checks.user_rule(ctx, rule, instance.bindings, stmts, stmt)
        if rule.elementwise:
            for s in stmts:
                if _is_contribution(s):
                    s.value = self.without_identity_unbroadcast(stmt, s.value, bt)
        handed_over = rule.elementwise and bt in defined.owned and _update_in_place(stmts, bt)
        code: list[gast.stmt] = []
        for s in stmts:
            if _is_contribution(s):
                part, defined = self.contribute(
                    instance.bindings[s.targets[0].slice.id],
                    s.value,
                    defined,
                    owned=handed_over and bt in nodes.names_read(s.value),
                )
                code.extend(part)
            else:
                code.append(s)
        return _drop_dead_temps(code, set(ctx.adjoint.values())), defined

    def concatenation(self, value: gast.Subscript, bt: str, defined: Defined):
        """`t = np.r_[a, 0:3, b]`: each item gets its piece of bt along the axis."""
        items = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
        helper = self.ctx.namespace.bind(
            "unconcatenate_index", runtime.unconcatenate_index, self.ctx.namer
        )
        pieces = nodes.call(
            nodes.name(helper),
            [
                nodes.name(bt),
                nodes.deepcopy(value.value),
                nodes.tuple_([_index_expr(e) for e in items]),
            ],
        )
        binding = nodes.tuple_([nodes.deepcopy(e) for e in items])
        return self.contribute(binding, pieces, defined)

    def without_identity_unbroadcast(self, stmt: gast.Assign, value: gast.expr, bt: str):
        """`unbroadcast(g * m, x)` -> `g * m` when x has the result's shape already (then
        the backward sweep need not read x, nor the forward sweep save it)."""
        if not (
            isinstance(value, gast.Call)
            and isinstance(value.func, gast.Name)
            and self.ctx.namespace.objects.get(value.func.id) is runtime.unbroadcast
            and len(value.args) == 2
            and isinstance(value.args[1], gast.Name)
            and bt in nodes.names_read(value.args[0])
            and self.ctx.shapes.same(stmt, value.args[1].id)
        ):
            return value
        return value.args[0]

    def receives(self, binding: gast.expr) -> bool:
        """Whether a contribution to `binding` reaches an active variable (`contribute`
        delivers it, or refuses a binding it cannot deliver to)."""
        return bool(nodes.names_read(binding) & self.ctx.active)

    def contribute(
        self, binding: gast.expr, value: gast.expr, defined: Defined, owned: bool = False
    ):
        """Add `value` to the adjoint of the variable(s) in `binding`.

        `owned`: value's array belongs to this code alone (an adjoint updated in
        place that dies here), so the adjoint receiving it may be updated in place.
        """
        ctx = self.ctx
        if isinstance(binding, gast.Name):
            if binding.id not in ctx.active:
                return [], defined
            return self.accumulate(binding.id, value, defined, owned)
        if isinstance(binding, (gast.List, gast.Tuple)):
            for e in binding.elts:
                if not isinstance(e, gast.Name) and nodes.names_read(e) & ctx.active:
                    return self.contribute(e, value, defined)  # refused below
            targets = [
                (i, e.id)
                for i, e in enumerate(binding.elts)
                if isinstance(e, gast.Name) and e.id in ctx.active
            ]
            if not targets:
                return [], defined
            parts = ctx.namer.temp("parts")
            code = [nodes.assign(parts, value)]
            for i, name in targets:
                piece = nodes.subscript(nodes.name(parts), nodes.const(i))
                more, defined = self.accumulate(name, piece, defined)
                code.extend(more)
            return code, defined
        if nodes.names_read(binding) & ctx.active:  # a form A-normal form does not make
            raise ctx.error(
                binding,
                "differentiating through this expression is not supported",
                "assign it to a variable first",
            )
        return [], defined  # a literal or a global: it has no adjoint

    def accumulate(self, name: str, value: gast.expr, defined: Defined, owned: bool = False):
        b = self.ctx.adjoint[name]
        if name in self.ctx.structured:  # may be a list or dict: `+` would concatenate
            if b in defined:
                value = nodes.call(containers.helper(self, "add"), [nodes.name(b), value])
            return [nodes.assign(b, value)], defined.assigned(b)
        if b in defined:
            value = nodes.binop(nodes.name(b), gast.Add(), value)
        return [nodes.assign(b, value)], defined.assigned(b, owned or self.allocates(value))

    def allocates(self, value: gast.expr) -> bool:
        """Whether `value` is certainly a new array no other name refers to."""
        if isinstance(value, gast.BinOp):
            return True
        if isinstance(value, gast.UnaryOp):
            return isinstance(value.op, gast.USub)
        if isinstance(value, gast.Call) and isinstance(value.func, gast.Name):
            helper = self.ctx.namespace.objects.get(value.func.id)
            return helper in (runtime.matmul_vjp_a, runtime.matmul_vjp_b)
        return False

    def call_variant(self, stmt: gast.Assign, defined: Defined):
        ctx = self.ctx
        variant, arguments = ctx.calls[id(stmt)]
        bt = ctx.adjoint[stmt.targets[0].id]
        call = nodes.call(nodes.name(variant.bwd), [nodes.name(ctx.stack), nodes.name(bt)])
        names = [arguments[p].id for p in variant.active]
        code: list[gast.stmt] = []
        if id(stmt) in ctx.recomputed:
            code.append(checkpoints.recompute_call(ctx, stmt, variant.fwd))
        if len(names) == 1:
            more, defined = self.accumulate(names[0], call, defined)
            return code + more, defined
        temps = [ctx.namer.temp("g" + n.lstrip("_")) for n in names]
        code.append(
            nodes.assign(nodes.tuple_([nodes.name(t, store=True) for t in temps], store=True), call)
        )
        for n, t in zip(names, temps, strict=True):
            more, defined = self.accumulate(n, nodes.name(t), defined)
            code.extend(more)
        return code, defined


def pop_marker(site: gast.stmt, restore: gast.stmt) -> gast.stmt:
    """`restore` (e.g. `x = _pop()`), kept only if the site turns out to push
    (transform/sweep.py: Restore, resolved by assemble.resolve_pops)."""
    return sweep.restore(site, restore)


def popped(target: str, ctx: Context) -> gast.stmt:
    return nodes.assign(target, nodes.call(nodes.name(ctx.pop), []))


_IN_PLACE_OPS = (gast.Mult, gast.Div, gast.Add, gast.Sub)


def _update_in_place(stmts: list[gast.stmt], g: str) -> bool:
    """Rewrite the one contribution `d[p] = g * m` (maybe inside unbroadcast) as `g *= m`
    followed by `d[p] = g`, when g (an owned adjoint that dies here) is read only there.

    Only for elementwise rules: there m broadcasts to the result's shape, which is g's.
    """
    reads = sum(
        1
        for s in stmts
        for n in gast.walk(s)
        if isinstance(n, gast.Name) and n.id == g and isinstance(n.ctx, gast.Load)
    )
    if reads != 1:
        return False
    for i, s in enumerate(stmts):
        if not _is_contribution(s):
            continue
        holder, field = s, "value"
        value = s.value
        if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.BinOp):
            holder, field, value = value.args, 0, value.args[0]
        if (
            isinstance(value, gast.BinOp)
            and isinstance(value.op, _IN_PLACE_OPS)
            and isinstance(value.left, gast.Name)
            and value.left.id == g
        ):
            target = nodes.name(g, store=True)
            update = gast.AugAssign(target=target, op=value.op, value=value.right)
            if field == "value":
                s.value = nodes.name(g)
            else:
                holder[field] = nodes.name(g)
            stmts.insert(i, nodes.located(update, s))
            return True
    return False


def _index_expr(index: gast.expr) -> gast.expr:
    """A subscript index as a runtime value (slices become slice(...) calls)."""
    if isinstance(index, gast.Slice):
        parts = [index.lower, index.upper, index.step]
        args = [nodes.deepcopy(p) if p is not None else nodes.const(None) for p in parts]
        return nodes.call(nodes.name("slice"), args)
    if isinstance(index, gast.Tuple):
        return nodes.tuple_([_index_expr(e) for e in index.elts])
    return nodes.deepcopy(index)


def _is_contribution(stmt: gast.stmt) -> bool:
    if not isinstance(stmt, gast.Assign):
        return False
    t = stmt.targets[0]
    return isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) and t.value.id == "d"


def _hoist_contributions(stmts: list[gast.stmt], namer: Namer) -> list[gast.stmt]:
    """Move `d[p] = v` out of runtime ifs: each branch assigns a temporary instead."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if not isinstance(stmt, gast.If):
            out.append(stmt)
            continue
        params = sorted(
            {
                n.targets[0].slice.id
                for n in gast.walk(stmt)
                if isinstance(n, gast.Assign) and _is_contribution(n)
            }
        )
        temps = {p: namer.temp("d" + p) for p in params}
        out.append(_RenameContributions(temps).visit(stmt))
        for p in params:
            target = nodes.subscript(nodes.name("d"), nodes.name(p))
            target.ctx = gast.Store()
            out.append(nodes.assign(target, nodes.name(temps[p])))
    return out


class _RenameContributions(gast.NodeTransformer):
    """`d[p] = v` -> `<temp for p> = v`."""

    def __init__(self, temps: dict[str, str]) -> None:
        self.temps = temps

    def visit_Assign(self, node: gast.Assign) -> gast.Assign:
        if _is_contribution(node):
            return nodes.assign(self.temps[node.targets[0].slice.id], node.value)
        return node


def _drop_dead_temps(code: list[gast.stmt], keep: set[str]) -> list[gast.stmt]:
    """Remove template temporaries that no kept statement reads."""
    out: list[gast.stmt] = []
    live: set[str] = set()
    for stmt in reversed(code):
        if (
            isinstance(stmt, gast.Assign)
            and isinstance(stmt.targets[0], gast.Name)
            and stmt.targets[0].id not in keep
            and stmt.targets[0].id not in live
        ):
            continue
        live |= nodes.names_read(stmt)
        out.append(stmt)
    return out[::-1]
