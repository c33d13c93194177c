"""The builder of one generated module; the only module that imports every stage.

Per function (`ModuleBuilder._prepare`, then `entry`/`variant` and `_emit`), in order:
parse -> fence -> comprehensions -> desugar -> jumps -> anf -> activity, flow -> plan -> assemble
(forward and backward sweeps) -> dead code -> inline -> emit; `render` and
compile/loader then make the module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import gast

from . import runtime
from .analyze import activity as activity_analysis
from .analyze import flow as flow_analysis
from .emit import codegen
from .emit.module import Generated, ModuleText, render
from .normalize import anf, comprehensions, desugar, jumps
from .optimize import dce, inline
from .parse import fence
from .parse.resolve import MISSING, Scope
from .parse.source import ParsedFunction, parse_function
from .rules.registry import Registry
from .syntax import nodes
from .syntax.names import Namer
from .syntax.namespace import Namespace
from .transform import assemble, reverse

log = logging.getLogger("tangentlike")


@dataclass(frozen=True)
class Guard:
    """A name lookup whose answer the generated code depends on."""

    mapping: dict
    name: str
    value: object

    def holds(self) -> bool:
        return self.mapping.get(self.name, MISSING) is self.value


@dataclass
class ModuleBuilder:
    """Builds one generated module: an entry function and split variants of callees."""

    registry: Registry
    optimize: bool = True
    namespace: Namespace = field(default_factory=Namespace)
    functions: list[str] = field(default_factory=list)
    variants: dict[tuple[object, tuple[str, ...]], reverse.Variant] = field(default_factory=dict)
    parsed: list[ParsedFunction] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)

    def reserve(self, preferred: str) -> str:
        marker = Generated(preferred)
        name = self.namespace.bind(preferred, marker)
        marker.name = name
        return name

    def entry(
        self,
        func: Callable,
        wrt: tuple[str, ...],
        *,
        preserve_result: bool,
        scalar_output: bool,
    ) -> str:
        parsed = parse_function(func)
        name = self.reserve("d" + parsed.node.name)
        ctx, ret = self._prepare(parsed, wrt)
        seed = ctx.adjoint.get(ret) or ctx.namer.exact("b" + ret)
        fns = assemble.build(
            ctx,
            name=name,
            split=None,
            wrt=wrt,
            seed=seed,
            seed_default=1.0,
            preserve_result=preserve_result,
            scalar_check=f"{parsed.basename}:{parsed.node.body[-1].lineno}"
            if scalar_output
            else None,
        )
        self._emit(fns, parsed, ctx)
        return name

    def variant(self, func: Callable, active: tuple[str, ...]) -> reverse.Variant:
        key = (func, active)
        if key in self.variants:
            return self.variants[key]
        base = func.__name__
        suffix = "" if not any(k[0] is func for k in self.variants) else "_" + "_".join(active)
        found = reverse.Variant(
            self.reserve(f"_fwd_{base}{suffix}"), self.reserve(f"_bwd_{base}{suffix}"), active
        )
        self.variants[key] = found
        parsed = parse_function(func)
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
        self._emit(fns, parsed, ctx)
        return found

    def _prepare(self, parsed: ParsedFunction, wrt: tuple[str, ...]):
        fence.check(parsed)
        self.parsed.append(parsed)
        fn = nodes.deepcopy(parsed.node)
        user_locals = activity_analysis.local_names(fn)
        every_name = {n.id for n in gast.walk(fn) if isinstance(n, gast.Name)}
        namer = Namer(reserved=every_name | set(self.namespace.objects), locals_=user_locals)
        stack, push, pop = (namer.exact(n) for n in ("_stack", "_push", "_pop"))
        scope = Scope(parsed.func, user_locals, self.namespace.objects)
        self._bind_free_names(fn, parsed, scope, namer, user_locals)
        comprehensions.run(fn, parsed, namer, self.namespace, scope)
        desugar.run(fn, namer, scope)
        jumps.run(fn, namer)
        anf.run(fn, parsed, scope, self.registry, self.namespace, namer)
        log.debug("A-normal form of %s:\n%s", parsed.node.name, codegen.function_source(fn, None))
        activity = activity_analysis.analyze(fn, wrt, scope, self.registry)
        flow = flow_analysis.analyze(fn, nodes.param_names(fn))
        ctx = reverse.Context(
            parsed=parsed,
            fn=fn,
            scope=scope,
            registry=self.registry,
            namespace=self.namespace,
            namer=namer,
            activity=activity,
            flow=flow,
            variant=self.variant,
            stack=stack,
            push=push,
            pop=pop,
        )
        reverse.plan(ctx)
        return ctx, fn.body[-1].value.id

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
                for n in gast.walk(fn)
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
            if name in func.__code__.co_freevars:
                cell = func.__closure__[func.__code__.co_freevars.index(name)]
                self.guards.append(Guard(_CellView(cell), "value", obj))
            elif name in func.__globals__:
                self.guards.append(Guard(func.__globals__, name, obj))
            bound = self.namespace.bind(name, obj, namer)
            if bound != name:
                renames[name] = bound
            if name in func.__globals__ and func.__globals__.get("__name__"):
                self.namespace.origins.setdefault(bound, (func.__globals__["__name__"], name))
        if renames:
            for n in gast.walk(fn):
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load) and n.id in renames:
                    n.id = renames[n.id]

    def _emit(
        self, fns: list[gast.FunctionDef], parsed: ParsedFunction, ctx: reverse.Context
    ) -> None:
        origin = codegen.Origin(parsed.basename, parsed.line_text)
        for fn in fns:
            if self.optimize:
                dce.run(fn, lambda value, ctx=ctx: _pure(ctx, value))
                inline.run(fn, lambda value, ctx=ctx: _pure(ctx, value, helpers=True))
            self.functions.append(codegen.function_source(fn, origin))

    def render(self, header: list[str]) -> ModuleText:
        return render(self.namespace.objects, self.functions, header, self.namespace.origins)


def _pure(ctx: reverse.Context, value: gast.expr, helpers: bool = False) -> bool:
    """Whether computing `value` has no side effects: operations, calls of rule-backed
    functions, and (with `helpers`) calls of runtime helpers and NumPy in backward code."""
    for node in gast.walk(value):
        if isinstance(node, gast.JoinedStr):
            return False
        if isinstance(node, gast.Call):
            callee = ctx.scope.resolve(node.func)
            if ctx.registry.lookup(callee) is not None:
                continue
            if helpers and getattr(callee, "__module__", "") in {runtime.__name__, "numpy"}:
                continue
            return False
    return True


class _CellView(dict):
    """Lets a Guard check a closure cell like a mapping entry."""

    def __init__(self, cell: object) -> None:
        super().__init__()
        self.cell = cell

    def get(self, key: str, default: object = None) -> object:
        try:
            return self.cell.cell_contents
        except ValueError:
            return default
