"""The builder of one forward-mode (jvp) module: an entry function and the forward
variants of the user functions it calls.

Per function, the same front half as reverse mode (pipeline.ModuleBuilder: parse ->
fence -> normalize -> in-place updates -> activity, operands, calls), then
transform.forward (the sweep form: a Step per statement with its tangent
statements), rendered, optimized and emitted like reverse mode's functions.

Signatures: the entry `jf(<f's parameters>, dx, ...)` returns `(f(...), J t)`, its
tangents checked on the way in (`runtime.forward.tangent_like`) and the output's on
the way out (`output_tangent`); a variant `_jvp_g(<g's parameters>, *, da=...)`
returns `(g(...), tangent)`. The tangents follow the positional parameters when f
has no defaults, *args or keyword-only parameters; otherwise they are keyword-only.
In vector mode (`width=True`) every tangent has a leading axis of k directions,
k read from the tangents passed in (`runtime.forward.width`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gast

from .analyze import activity as activity_analysis
from .analyze import calls, operands
from .analyze import flow as flow_analysis
from .emit import codegen
from .optimize import dce, inline
from .optimize.pure import pure
from .parse import origins
from .parse.source import ParsedFunction, parse_function
from .pipeline import ModuleBuilder, check_emitted
from .runtime import forward as fw
from .syntax import nodes
from .syntax.nodes import walk
from .transform import complex_gate, forward, plan, sweep
from .transform.context import Context, Variant
from .worklist import Worklist


@dataclass
class ForwardBuilder(ModuleBuilder):
    """Builds a jvp module (one direction, or k with `vector=True`)."""

    vector: bool = False
    callees: Worklist | None = None  # forward variants of callees (made in __post_init__)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.callees is None:
            self.callees = Worklist(self.namespace, self.recorder, make=self._callee)

    def jvp_entry(
        self, func: Callable, wrt: tuple[str, ...], param_types: dict[str, type] | None = None
    ) -> str:
        parsed = parse_function(func, self.recorder)
        for param, cls in (param_types or {}).items():
            self.note_type(parsed.func, param, cls)
        name = self.reserve("jvp_" + parsed.node.name)
        start = len(self.callees.queue)
        fn, ctx, block = self._forward(parsed, wrt, {})
        ret = fn.body[-1].value.id
        dret = nodes.name(ctx.tangent[ret]) if ret in ctx.active else nodes.const(None)
        width = [nodes.name(ctx.width)] if ctx.width else []
        out = nodes.call(ctx.helper(fw.output_tangent), [dret, nodes.name(ret), *width])
        entry: list[gast.stmt] = []
        if ctx.width:
            width = nodes.call(ctx.helper(fw.width), [nodes.name(ctx.tangent[p]) for p in wrt])
            entry.append(nodes.assign(ctx.width, width))
        for p in wrt:
            like = [nodes.name(ctx.tangent[p]), nodes.name(p), nodes.const(p)]
            like += [nodes.name(ctx.width)] if ctx.width else []
            entry.append(
                nodes.assign(ctx.tangent[p], nodes.call(ctx.helper(fw.tangent_like), like))
            )
        banner = nodes.comment("forward mode: each statement, then its tangent", "forward")
        body = [*entry, *self._prologue(ctx, fn, wrt, copy_given=False), banner]
        body += sweep.forward_code(block)
        body.append(nodes.return_(nodes.tuple_([nodes.name(ret), out])))
        entry_text = self._finish(
            name, fn, ctx, wrt, body, keyword_only=_has_extras(fn), parsed=parsed
        )
        self.functions.extend(self.callees.drain(start, [entry_text], self._variant))
        return name

    def _callee(self, parsed: ParsedFunction, active: tuple[str, ...], suffix: str):
        """The names of g's forward variant for `active` (requested by a caller): the
        function `_jvp_g` and the keyword taking each active parameter's tangent."""
        name = self.reserve(f"_jvp_{parsed.node.name}{suffix}")
        taken = {n.id for n in walk(parsed.node) if isinstance(n, gast.Name)}
        taken |= set(nodes.all_param_names(parsed.node))
        keywords = {}
        for p in active:
            kw, k = "d" + p, 1
            while kw in taken:
                k += 1
                kw = f"d{p}_{k}"
            taken.add(kw)
            keywords[p] = kw
        return forward.Callee(name, tuple(keywords.items()))

    def _variant(self, parsed: ParsedFunction, callee: forward.Callee) -> list[str]:
        """The text of a requested forward variant (built after its caller)."""
        keywords = dict(callee.keywords)
        active = tuple(keywords)
        name = callee.name
        fn, ctx, block = self._forward(parsed, active, keywords)
        ret = fn.body[-1].value.id
        if ret in ctx.active:
            dret: gast.expr = nodes.name(ctx.tangent[ret])
        else:
            dret = forward.zero_of(ctx, nodes.name(ret))
        entry: list[gast.stmt] = []
        if ctx.width:
            width = nodes.call(ctx.helper(fw.width), [nodes.name(ctx.tangent[p]) for p in active])
            entry.append(nodes.assign(ctx.width, width))
        banner = nodes.comment("forward mode: each statement, then its tangent", "forward")
        body = [*entry, *self._prologue(ctx, fn, active, copy_given=True), banner]
        body += sweep.forward_code(block)
        body.append(nodes.return_(nodes.tuple_([nodes.name(ret), dret])))
        if entry and not any(ctx.width in nodes.names_read(s) for s in body[1:]):
            body = body[1:]  # k unread: no directions counted
        return [self._finish(name, fn, ctx, active, body, keyword_only=True, parsed=parsed)]

    # -------------------------------------------------------------------------------
    def _forward(self, parsed: ParsedFunction, wrt: tuple[str, ...], given: dict[str, str]):
        """The function normalized and analyzed, its context, and its sweep form."""
        fn, namer, scope, _, _, _ = self._normalize(parsed, None)
        activity = activity_analysis.analyze(
            fn, wrt, scope, self.registry, form=origins.is_form(parsed.filename)
        )
        known = {p: t for (f, p), t in self.param_types.items() if f is parsed.func}
        operands.check(
            parsed, fn, activity.varied, activity.useful, scope, self.registry, known=known
        )
        calls.check(parsed, fn, activity, scope, self.registry, self.effects_of)
        self._refusals(parsed, fn, namer, scope, activity)
        namer.reserve(*given.values())
        tangent = {}
        for name in sorted(activity.active | set(wrt)):
            tangent[name] = given.get(name) or namer.exact("d" + name)
        ctx = forward.ForwardContext(
            parsed=parsed,
            fn=fn,
            scope=scope,
            registry=self.registry,
            namespace=self.namespace,
            namer=namer,
            activity=activity_analysis.Activity(
                activity.varied | set(wrt), activity.useful | set(wrt)
            ),
            tangent=tangent,
            variant=self.callees.request,
            width=namer.exact("k") if self.vector else None,
            owned=forward.owned_names(fn),
            complex_values=complex_gate.names(fn, scope, self.registry),
        )
        return fn, ctx, forward.transform(ctx, fn.body[:-1])

    def _refusals(self, parsed, fn, namer, scope, activity) -> None:
        """Refuse what reverse mode refuses for memory it cannot follow: writes into
        containers, lists shared while grown, writes into arrays shared with another
        name or the caller (transform.plan's checks, run on a copy, with no
        variant built and no name kept)."""
        saved = namer.snapshot()
        copy = nodes.deepcopy(fn)
        ctx = Context(
            parsed=parsed,
            fn=copy,
            scope=scope,
            registry=self.registry,
            namespace=self.namespace.copy(),
            namer=namer,
            activity=activity,
            flow=flow_analysis.analyze(copy, nodes.all_param_names(copy)),
            variants=_NoVariants(),
            effects_of=self.effects_of,
        )
        try:
            plan.plan(ctx)
        finally:
            namer.restore(saved)

    def _prologue(self, ctx, fn, wrt, copy_given: bool) -> list[gast.stmt]:
        """Zero tangents for active parameters not differentiated; owned copies of the
        given tangents the code writes into."""
        code: list[gast.stmt] = []
        for p in nodes.all_param_names(fn):
            if p in ctx.active and p not in wrt:
                code.append(nodes.assign(ctx.tangent[p], forward.zero_of(ctx, nodes.name(p))))
            elif p in wrt and p in ctx.owned:
                fresh = nodes.call(ctx.helper(fw.fresh_tangent), [nodes.name(ctx.tangent[p])])
                code.append(nodes.assign(ctx.tangent[p], fresh))
        return code

    def _finish(self, name, fn, ctx, wrt, body, keyword_only: bool, parsed: ParsedFunction) -> str:
        """The text of the generated function `name` (signature, optimized body)."""
        params = [p for p in nodes.param_names(fn)]
        args = nodes.arguments(params, [nodes.deepcopy(d) for d in fn.args.defaults])
        a = fn.args
        args.posonlyargs = []
        args.vararg = nodes.deepcopy(a.vararg)
        args.kwonlyargs = [nodes.deepcopy(k) for k in a.kwonlyargs]
        args.kw_defaults = [nodes.deepcopy(d) for d in a.kw_defaults]
        args.kwarg = nodes.deepcopy(a.kwarg)
        tangents = [nodes.name(ctx.tangent[p]) for p in wrt]
        if keyword_only:
            args.kwonlyargs += tangents
            args.kw_defaults += [None] * len(tangents)
        else:
            args.args += tangents
        generated = nodes.function_def(name, args, body)
        origin = codegen.Origin(parsed.basename, parsed.line_text)
        if self.optimize:
            dce.run(generated, lambda value, ctx=ctx: pure(ctx, value))
            inline.run(generated, lambda value, ctx=ctx: pure(ctx, value, helpers=True))
        text = codegen.function_source(generated, origin)
        check_emitted(generated, text)
        return text


def _has_extras(fn: gast.FunctionDef) -> bool:
    """Whether f's signature needs the tangents keyword-only (defaults, *args, ...)."""
    a = fn.args
    return bool(a.defaults or a.vararg or a.kwonlyargs or a.kwarg)


class _NoVariants:
    """Variant requests of the refusal checks: names only, nothing is built."""

    def request(self, func: object, active: tuple[str, ...]) -> Variant:
        return Variant("", "", active)
