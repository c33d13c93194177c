"""The builder of one generated module; the only module that imports every stage.

Per function (`ModuleBuilder._prepare`, then `entry`/`_variant` and `_emit`), in order:
parse -> fence -> comprehensions -> desugar -> jumps -> anf -> in-place updates (with the effects
of the callees on their arguments) -> activity, operands, flow -> plan -> assemble
(forward and backward sweeps) -> dead code -> inline -> emit; `render` and
compile/loader then make the module. Planning a function requests the split
variants of the user functions it calls (`Worklist.request`: names reserved, request
queued); `entry` builds the queue after the entry function, each variant once, and
lays the module out with every function after the variants it requested.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
from dataclasses import dataclass, field

import gast

from .analyze import activity as activity_analysis
from .analyze import calls, operands
from .analyze import flow as flow_analysis
from .analyze import shapes as shape_analysis
from .analyze.activity import user_function
from .analyze.effects import Effects, Summaries
from .checkpoint import Schedule, is_checkpointed
from .emit import codegen, module_check, roundtrip
from .emit.module import ModuleText, render
from .errors import TangentlikeError
from .job import Job
from .normalize import (
    anf,
    checkpoints,
    closure_calls,
    closures,
    comprehensions,
    desugar,
    helper_calls,
    jumps,
    jvp_calls,
    methods,
    nested_grads,
    strict_zips,
    vectorized,
)
from .optimize import (
    accumulate,
    dce,
    differences,
    doubles,
    fresh,
    inline,
    numbers,
    restores,
    spreads,
)
from .optimize.pure import pure
from .parse import fence, origins
from .parse.generated import runtime_helper
from .parse.record import Recorder
from .parse.resolve import MISSING, Scope
from .parse.source import ParsedFunction, parse_function, unwrap
from .rules.registry import Registry
from .syntax import nodes
from .syntax.names import Namer
from .syntax.namespace import Namespace
from .syntax.nodes import walk
from .transform import assemble, checks, in_place, plan, sweep_check
from .transform import checkpoints as transform_checkpoints
from .transform.context import Context, Variant
from .worklist import Worklist, reserve

log = logging.getLogger("tangentlike")


@dataclass
class ModuleBuilder:
    """Builds one generated module: an entry function and split variants of callees."""

    registry: Registry
    # the gradient asked for; None: a builder that only normalizes and analyses (the
    # effect summaries of callees, tests of stages), with the default options
    job: Job | None = None
    namespace: Namespace = field(default_factory=Namespace)
    functions: list[str] = field(default_factory=list)
    variants: Worklist | None = None  # callee variants to build (made in __post_init__)
    parsed: list[ParsedFunction] = field(default_factory=list)
    # what the build resolves and parses: the guards and disk-cache manifest come from it
    recorder: Recorder = field(default_factory=Recorder)
    # (function, parameter) -> the class of its value: `self` of a bound method, receivers
    param_types: dict[tuple[object, str], type] = field(default_factory=dict)
    summaries: Summaries = field(default_factory=Summaries)  # effects of user functions

    def __post_init__(self) -> None:
        if self.variants is None:
            self.variants = Worklist(self.namespace, self.recorder)

    @property
    def optimize(self) -> bool:
        return self.job is None or self.job.optimize

    @property
    def checkpoint(self) -> Schedule | None:
        """The schedule for the entry function's outermost loops."""
        return None if self.job is None else self.job.checkpoint

    @property
    def stats(self) -> bool:
        """Record pushes and bytes on a measuring stack (schedule.Tape)."""
        return self.job is not None and self.job.stats

    @property
    def checks(self) -> bool:
        """Debug mode: the generated code checks itself (transform.checks)."""
        return self.job is not None and self.job.checks

    def reserve(self, preferred: str) -> str:
        return reserve(self.namespace, preferred)

    def entry(self) -> str:
        """Build the entry function of the job; return its name in the module."""
        job = self.job
        if job is None:
            raise TypeError("ModuleBuilder.entry needs the builder's job")
        func, wrt, scalar_output = job.func, job.wrt, job.mode.scalar_output
        parsed = parse_function(func, self.recorder)
        for param, cls in job.param_types:
            self.note_type(parsed.func, param, cls)
        name = self.reserve("d" + parsed.node.name)
        start = len(self.variants.queue)
        ctx, ret = self._prepare(
            parsed,
            wrt,
            default_schedule=self.checkpoint,
            scalars=frozenset(job.scalars),
            dims=dict(job.arrays),
        )
        rebound = set().union(*map(nodes.names_stored, ctx.fn.body))
        ctx.checked = frozenset(p for p in wrt if p not in rebound)  # float, at each call
        seed = ctx.adjoint.get(ret) or ctx.namer.exact("b" + ret)
        returned = f"{parsed.basename}:{parsed.node.body[-1].lineno}"
        fns = assemble.build(
            ctx,
            name=name,
            split=None,
            wrt=wrt,
            seed=seed,
            seed_default=1.0,
            preserve_result=job.mode.returns_value,
            scalar_check=returned if scalar_output else None,
            seed_check=None if scalar_output else f"{func.__qualname__} (returned at {returned})",
            single=job.single,
        )
        entry = self._emit(fns, parsed, ctx, entry=True)
        self.functions.extend(self.variants.drain(start, entry, self._variant))
        return name

    def _variant(self, parsed: ParsedFunction, found: Variant) -> list[str]:
        """The forward and backward halves of a requested variant, as text."""
        func, active = parsed.func, found.active
        ctx, ret = self._prepare(parsed, active)
        seed = ctx.adjoint.get(ret) or ctx.namer.exact("b" + ret)
        fns = assemble.build(
            ctx,
            name="",
            split=(found.fwd, found.bwd),
            wrt=active,
            seed=seed,
            seed_default=None,
            preserve_result=False,
            scalar_check=None,
        )
        if is_checkpointed(func):  # fwd only recomputes it, after the plain call printed
            fns[0].body = transform_checkpoints.without_output(ctx, fns[0].body)
        return self._emit(fns, parsed, ctx)

    def _prepare(
        self,
        parsed: ParsedFunction,
        wrt: tuple[str, ...],
        default_schedule: Schedule | None = None,
        scalars: frozenset[str] = frozenset(),
        dims: dict[str, str] | None = None,
    ):
        not_0d = scalars | {p for p, pattern in (dims or {}).items() if pattern}
        fn, namer, scope, checkpointed, (stack, push, pop), _ = self._normalize(
            parsed, default_schedule, frozenset(not_0d)
        )
        activity = activity_analysis.analyze(
            fn, wrt, scope, self.registry, form=origins.is_form(parsed.filename)
        )
        given = {p: t for (f, p), t in self.param_types.items() if f is parsed.func}
        operands.check(
            parsed, fn, activity.varied, activity.useful, scope, self.registry, known=given
        )
        calls.check(parsed, fn, activity, scope, self.registry, self.effects_of)
        blocks = frozenset(i for i, loop in checkpointed.items() if loop.kind == "region")
        flow = flow_analysis.analyze(fn, nodes.all_param_names(fn), once=blocks)
        ctx = Context(
            parsed=parsed,
            fn=fn,
            scope=scope,
            registry=self.registry,
            namespace=self.namespace,
            namer=namer,
            activity=activity,
            flow=flow,
            variants=self.variants,
            stack=stack,
            push=push,
            pop=pop,
            shapes=shape_analysis.analyze(fn, scope, self.registry, scalars, dims),
            array_params=frozenset(dims or ()),
            checkpointed=checkpointed,
            stats=self.stats,
            checks=self.checks,
            effects_of=self.effects_of,
            selections=operands.selections(parsed, fn, activity.varied, activity.useful, given),
        )
        plan.plan(ctx)
        return ctx, fn.body[-1].value.id

    def _normalize(
        self,
        parsed: ParsedFunction,
        default_schedule: Schedule | None,
        not_0d: frozenset[str] = frozenset(),
    ):
        """The function in A-normal form, closures inlined and in-place updates lowered
        (transform.in_place); with its namer, scope, checkpointed loops, the names of its
        stack and the Effects of calling it. `not_0d`: parameters this build is never
        passed a 0-d ndarray (a Python number, or an array of known dimensions)."""
        fence.check(parsed)
        self.parsed.append(parsed)
        fn = nodes.deepcopy(parsed.node)
        # one scope for every call asked about (its locals walk the whole function)
        outside = Scope(parsed.func, closures.function_locals(parsed.node), {}, self.recorder)
        closures.partials_as_lambdas(fn, lambda f: outside.resolve(f) is functools.partial)
        nested_grads.run(parsed, fn, outside.resolve, self.namespace.bind)
        jvp_calls.run(parsed, fn, outside)
        closures.check(parsed, fn)
        user_locals = closures.function_locals(fn)
        every_name = {n.id for n in walk(fn) if isinstance(n, gast.Name)}
        namer = Namer(reserved=every_name | set(self.namespace.objects), locals_=user_locals)
        names = tuple(namer.exact(n) for n in ("_stack", "_push", "_pop"))
        scope = Scope(parsed.func, user_locals, self.namespace.objects, self.recorder)
        self._runtime_defaults(fn, parsed, scope, namer)
        # the generated signatures copy keyword-only defaults from the parsed tree
        parsed.node.args.kw_defaults = nodes.deepcopy(fn.args.kw_defaults)
        parsed.node.args.defaults = nodes.deepcopy(fn.args.defaults)
        nested = closures.collect(parsed, fn, namer)
        self._bind_free_names(fn, parsed, scope, namer, user_locals)
        for closure in nested.by_name.values():
            inside = user_locals | closures.bound_inside(closure.node)
            self._bind_free_names(closure.node, parsed, scope, namer, inside)

        given = {p: t for (f, p), t in self.param_types.items() if f is parsed.func}
        known = methods.known_classes(fn, given)
        checkpointed: dict[int, checkpoints.CheckpointedLoop] = {}
        plain_loops = self.job is not None and self.job.plain_loops  # no schedules
        update_temps: dict[int, str] = {}

        def normalize(g: gast.FunctionDef, callables: frozenset[str]) -> gast.FunctionDef:
            own = parsed if g is fn else dataclasses.replace(parsed, node=g)  # names its result
            schedule = default_schedule if g is fn else None
            checkpoints.run(g, own, scope, self.namespace, namer, schedule, plain_loops)
            vectorized.run(g, own, namer, self.namespace, scope)
            comprehensions.run(g, own, namer, self.namespace, scope)
            methods.run(
                g,
                parsed,
                scope,
                self.namespace,
                namer,
                known,
                self.note_type,
                self.watch,
                has_rule=lambda obj: (
                    self.registry.lookup(obj) is not None or self.registry.is_nondifferentiable(obj)
                ),
            )
            desugar.run(g, namer, scope, strict_zips.StrictZips(self.namespace, namer, own))
            jumps.run(g, namer)
            return anf.run(
                g,
                own,
                scope,
                self.registry,
                self.namespace,
                namer,
                callables,
                checkpointed,
                update_temps,
            )

        normalize(fn, nested.names)
        inliner = closure_calls.Inliner(parsed, namer, scope, normalize)
        inliner.run(fn, nested)
        helper = functools.partial(self._helper, parsed, namer)
        helper_calls.Helpers(inliner, scope, helper, self.effects_of).run(fn)
        anf.check(fn, parsed)  # inlining keeps the contract the analyses rely on
        effects = in_place.run(
            fn,
            parsed,
            scope,
            self.registry,
            self.namespace,
            namer,
            self.effects_of,
            update_temps,
            frozenset(checkpointed),
            kinds=given,
            top=self.job is not None and parsed.func is self.job.func,
            not_0d=not_0d,
        )
        log.debug("A-normal form of %s:\n%s", parsed.node.name, codegen.LazySource(fn))
        return fn, namer, scope, checkpointed, names, effects

    def effects_of(self, func: object) -> Effects | None:
        """What calling `func` does to its arguments' memory (None: unknown)."""
        return self.summaries.get(func, self._summarize)

    def _summarize(self, func: object) -> Effects | None:
        """`func` normalized apart, its names bound in a scratch namespace, for its Effects;
        None when it cannot be (then it is only ever called as it is)."""
        namespace = self.namespace.copy()
        scratch = dataclasses.replace(
            self, namespace=namespace, functions=[], variants=Worklist(namespace, self.recorder)
        )
        try:
            return scratch._normalize(parse_function(func, self.recorder), None)[-1]
        except TangentlikeError:
            return None
        except Exception:  # a compiler bug: differentiating it will say so, if it ever is
            log.debug("no effects for %r", func, exc_info=True)
            return None

    def _helper(self, parsed: ParsedFunction, namer: Namer, func: object):
        """The Closure of a helper `parsed` inlines at its calls (normalize.helper_calls),
        its free names bound and defaults read as the function holds them; or None."""
        if not (
            user_function(func, self.registry)
            and unwrap(func) is func
            and not hasattr(func, "__wrapped__")
            and not is_checkpointed(func)
        ):
            return None
        effects = self.effects_of(func)
        if effects is None or not effects.mutated:
            return None
        try:
            helper = parse_function(func, self.recorder)
            fence.check(helper)
            node = nodes.deepcopy(helper.node)
            closures.check(helper, node)
        except TangentlikeError:
            return None
        if node.args.posonlyargs or helper_calls.own_definitions(node):
            return None
        if helper.filename != parsed.filename:  # lines of another file: located at the call
            nodes.unlocate(node)
        inside = closures.function_locals(node)
        scope = Scope(func, inside, self.namespace.objects, self.recorder)
        self._runtime_defaults(node, helper, scope, namer)
        self._bind_free_names(node, helper, scope, namer, inside)
        closure, pre = closures.closure_of(helper, node.name, node, node, namer)
        return helper_calls.defaults_inlined(closure, pre)

    def watch(self, obj: object, kind: str) -> None:
        """Rebuild if `record.FINGERPRINTS[kind](obj)` changes (a global object's
        attributes' classes, a global dict's keys)."""
        self.recorder.watch(obj, kind)

    def note_type(self, func: object, param: str, cls: type) -> bool:
        """Record that `param` of `func` holds a `cls`; False if another class was recorded."""
        return self.param_types.setdefault((func, param), cls) is cls

    def _runtime_defaults(
        self, fn: gast.FunctionDef, parsed: ParsedFunction, scope: Scope, namer: Namer
    ) -> None:
        """Default values as the function holds them (evaluated once, when it was defined,
        or set since), not as its text would evaluate them now: `def g(x, a=SCALE)` keeps
        the SCALE of its definition. A default that still is what its expression names
        keeps its text; a literal is written out; anything else is bound by name."""
        a = fn.args
        positional = [*a.posonlyargs, *a.args][len(a.posonlyargs) + len(a.args) - len(a.defaults) :]
        pairs = list(zip(positional, a.defaults, parsed.defaults, strict=True))
        kw = parsed.kwdefaults
        pairs += [(p, d, kw[p.id]) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d]
        values = {}
        for param, node, value in pairs:
            if scope.resolve(node) is value and value is not MISSING:
                continue
            if isinstance(value, (bool, int, str, type(None))) or (
                isinstance(value, float) and math.isfinite(value)
            ):
                values[param.id] = nodes.const(value)
            else:
                bound = self.namespace.bind(f"{param.id}_default", value, namer)
                values[param.id] = nodes.name(bound)
        a.defaults = [values.get(p.id, d) for p, d in zip(positional, a.defaults, strict=True)]
        a.kw_defaults = [
            values.get(p.id, d) if d is not None else None
            for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
        ]

    def _bind_free_names(
        self,
        fn: gast.FunctionDef,
        parsed: ParsedFunction,
        scope: Scope,
        namer: Namer,
        user_locals: frozenset[str],
    ) -> None:
        """Bind the user's free names in the module, renaming them where taken."""
        renames: dict[str, str] = {}
        free = sorted(
            {
                n.id
                for n in walk(fn)
                if isinstance(n, gast.Name)
                and isinstance(n.ctx, gast.Load)
                and n.id not in user_locals
            }
        )
        func = parsed.func
        for name in free:
            obj = scope.lookup_original(name)
            if obj is MISSING:
                continue
            obj = runtime_helper(obj) or obj  # a generated module's copy: the helper itself
            bound = self.namespace.bind(name, obj, namer)
            if name in func.__code__.co_freevars:
                self.recorder.bound(func, ("cell", name), bound)
            elif name in func.__globals__:
                self.recorder.bound(func, ("global", name), bound)
            if bound != name:
                renames[name] = bound
            if name in func.__globals__ and func.__globals__.get("__name__"):
                self.namespace.origins.setdefault(bound, (func.__globals__["__name__"], name))
        if renames:
            for n in walk(fn):
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load) and n.id in renames:
                    n.id = renames[n.id]

    def _emit(
        self,
        fns: list[gast.FunctionDef],
        parsed: ParsedFunction,
        ctx: Context,
        entry: bool = False,
    ) -> list[str]:
        origin = codegen.Origin(parsed.basename, parsed.line_text)
        texts = []
        if self.checks:  # debug mode: the assembler left no sweep-form statement
            sweep_check.resolved(fns)
        for fn in fns:
            if self.optimize:
                spreads.run(fn, ctx.shaped_products, accumulate.resolver(fn, self.namespace))
                differences.run(fn, ctx.vector_differences)  # before dce: b goes
                # one resolver below: dce and inline only remove locals (they resolve to None)
                resolve = accumulate.resolver(fn, self.namespace)
                dce.run(fn, lambda value, ctx=ctx: pure(ctx, value))
                inline.run(fn, lambda value, ctx=ctx: pure(ctx, value, helpers=True))
                if entry and self.job is not None:
                    accumulate.run(fn, self.job.wrt, resolve)
                    numbers.run(fn, self.job, resolve, self.namespace, ctx)
                fresh.run(fn, resolve)
                doubles.run(fn, (ctx.stack, ctx.push))
                restores.run(fn, ctx.stack, ctx.push, ctx.pop)
            if self.checks:  # after optimizing: no pass moves a checked pop
                checks.stack(ctx, fn, entry=entry)
            text = codegen.function_source(fn, origin)
            check_emitted(fn, text)
            texts.append(text)
        return texts

    def render(self, header: list[str]) -> ModuleText:
        module = render(self.namespace.objects, self.functions, header, self.namespace.origins)
        if self.checks:  # debug mode: every name the module reads is bound
            module_check.check(module)
        return module


def check_emitted(fn: gast.FunctionDef, text: str) -> None:
    """The emitted text of `fn` parses back to `fn` (emit/roundtrip.py), on every build,
    debug mode or not: one parse per function, about 5% of a build."""
    roundtrip.check(fn, text)
