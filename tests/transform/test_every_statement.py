"""No silent skips: every statement of every function in the corpus (the samples, the
test corpus, the golden inputs) either gets an adjoint, is provably inactive, or the
build raised a tangentlike error.

Each function is built as `grad` builds it (with the wrt choices and argument classes
of its test cases, or with respect to every parameter); the builder records each
function it transforms (the entry and every differentiated callee). Then, for each
A-normal-form statement of each of them:

- an assignment whose target is not active, or whose value has no active operand,
  is inactive by the activity analysis;
- any other assignment must get an adjoint: its backward block, generated on its own,
  writes the adjoint of at least one of its active operands;
- a call whose result is unused and which receives a varied value must be a
  non-differentiable function (print) or a rule-backed one (no writes);
- the entry's generated source has a `# grad of file:line` block for each line
  holding an assignment that must get an adjoint and whose value a gradient reaches
  (flow-sensitively: a value overwritten before any use needs none).

A build failing with anything but a tangentlike error fails the test too.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from pathlib import Path

import gast
import pytest
from corpus import functions, helpers, in_place, name_clashes, programs, writes

from tangentlike import runtime
from tangentlike.analyze import containers
from tangentlike.analyze.activity import data_operands
from tangentlike.errors import TangentlikeError
from tangentlike.job import Job
from tangentlike.parse.resolve import user_class
from tangentlike.pipeline import ModuleBuilder
from tangentlike.rules.registry import default_registry
from tangentlike.syntax import nodes
from tangentlike.transform.context import Context
from tangentlike.transform.defined import Defined
from tangentlike.transform.reverse import Backward

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"audit_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _modules() -> list:
    found = [programs, helpers, functions, name_clashes, writes, in_place]
    golden = sorted((ROOT / "tests" / "golden").glob("*.py"))
    found += [_load(p) for p in golden if not p.name.endswith(".expected.py")]
    sys.path.insert(0, str(ROOT / "samples"))
    try:
        found += [_load(ROOT / "samples" / "mlp.py")]
    finally:
        sys.path.remove(str(ROOT / "samples"))
    return [m for m in found if not m.__name__.endswith("test_golden")]


def _builds():
    """(id, function, wrt names, parameter classes) for every function of the corpus."""
    cases: dict[object, list[tuple[tuple[int, ...], tuple]]] = {}
    for module in (programs, functions):
        for f, make, wrt in module.CASES:
            cases.setdefault(f, []).append((wrt, make()))
    for f, make, wrt, _ in in_place.CASES:
        cases.setdefault(f, []).append((wrt, make()))
    out = []
    for module in _modules():
        for name, f in sorted(vars(module).items()):
            f = getattr(f, "__tangentlike_primal__", f)
            if not inspect.isfunction(f) or f.__module__ != module.__name__:
                continue
            if name.startswith("_"):
                continue
            params = list(inspect.signature(f).parameters.values())
            positional = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
            if not positional:
                continue
            choices = cases.get(f) or [(tuple(range(len(positional))), ())]
            for wrt, args in choices:
                names = tuple(positional[i] for i in wrt)
                types = {
                    p: type(a)
                    for p, a in zip(positional, args, strict=False)
                    if user_class(type(a))
                }
                out.append((f"{module.__name__}.{name}[{','.join(names)}]", f, names, types))
    # bound methods of the corpus: their functions, with `self` of its class
    for f, _, wrt in functions.CASES:
        if inspect.ismethod(f):
            names = tuple(list(inspect.signature(f).parameters)[i] for i in wrt)
            func = f.__func__
            out.append(
                (
                    f"{func.__qualname__}[{type(f.__self__).__name__}]",
                    func,
                    names,
                    {"self": type(f.__self__)},
                )
            )
    return out


BUILDS = _builds()


def _statements(stmts: list[gast.stmt]):
    for stmt in stmts:
        yield stmt
        for part in ("body", "orelse"):
            yield from _statements(getattr(stmt, part, None) or [])


def _operands(ctx: Context, stmt: gast.Assign) -> set[str]:
    if id(stmt) in ctx.calls:
        variant, arguments = ctx.calls[id(stmt)]
        return {arguments[p].id for p in variant.active}
    return set(data_operands(stmt.value, ctx.scope, ctx.registry)) & ctx.active


def _reaching_output(ctx: Context) -> set[int]:
    """Assignments whose value a gradient reaches (flow-sensitive, from the return
    backwards; loops to a fixed point): the others are overwritten or unused."""
    needed: set[int] = set()

    def block(stmts: list[gast.stmt], live: frozenset[str]) -> frozenset[str]:
        for stmt in reversed(stmts):
            if isinstance(stmt, gast.Assign):
                t = nodes.assigned_name(stmt)
                if t in live and t in ctx.active:
                    needed.add(id(stmt))
                    kept = live if nodes.is_item_write(stmt) else live - {t}
                    live = kept | _operands(ctx, stmt)
                elif not nodes.is_item_write(stmt):
                    live = live - {t}
            elif isinstance(stmt, gast.If):
                live = block(stmt.body, live) | block(stmt.orelse, live)
            elif isinstance(stmt, (gast.For, gast.While)):
                entry = live
                while True:
                    more = live | block(stmt.body, entry)
                    if more == entry:
                        break
                    entry = more
                live = entry
        return live

    block(ctx.fn.body[:-1], frozenset({ctx.fn.body[-1].value.id}))
    return needed


def _problems(ctx: Context) -> tuple[list[str], set[int]]:
    """What was silently skipped in one transformed function, and the lines that must
    have an adjoint block."""
    problems, lines = [], set()
    where = ctx.parsed.basename
    reached = _reaching_output(ctx)
    for stmt in _statements(ctx.fn.body[:-1]):
        if containers.mutation(stmt) is not None:
            continue  # xs.append(v): undone by the backward sweep (transform/containers.py)
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            call = stmt.value
            callee = ctx.scope.resolve(call.func)
            if runtime.owns(callee):
                continue  # a check the compiler inserted (runtime.unshared)
            if nodes.names_read(call) & ctx.activity.varied and not (
                ctx.registry.is_nondifferentiable(callee) or ctx.registry.lookup(callee)
            ):
                problems.append(f"{where}:{stmt.lineno}: unused call with a varied value")
            continue
        if not isinstance(stmt, gast.Assign):
            continue
        target = nodes.assigned_name(stmt)
        if target not in ctx.active:
            continue  # inactive: does not vary with wrt, or does not reach the output
        bt = ctx.adjoint[target]
        backward = Backward(ctx)
        if nodes.is_item_write(stmt):
            code, _ = backward.item_write(stmt, Defined(frozenset({bt})))
            if not any(bt in nodes.names_stored(s) for s in code):
                problems.append(f"{where}:{stmt.lineno}: write into {target} has no adjoint")
            if id(stmt) in reached:
                lines.add(stmt.lineno)
            continue
        operands = _operands(ctx, stmt)
        if not operands:
            continue  # no active operand: a constant with respect to wrt
        code, _ = backward.adjoint_of(stmt, Defined(frozenset({bt})))
        written = set().union(*(nodes.names_stored(s) for s in code)) if code else set()
        if not written & {ctx.adjoint[o] for o in operands}:
            problems.append(
                f"{where}:{stmt.lineno}: {gast.unparse(stmt) if hasattr(gast, 'unparse') else ''}"
                f" got no adjoint for {sorted(operands)}"
            )
        if id(stmt) in reached:
            lines.add(stmt.lineno)
    return problems, lines


@pytest.mark.parametrize("build", BUILDS, ids=[b[0] for b in BUILDS])
def test_every_statement_gets_an_adjoint_is_inactive_or_the_build_raised(build):
    _, func, wrt, types = build
    job = Job.of(func, wrt, param_types=tuple(types.items()))
    builder = ModuleBuilder(default_registry(), job)
    problems: list[str] = []
    lines: list[set[int]] = []
    prepare = builder._prepare

    def audited(parsed, active, **options):
        ctx, ret = prepare(parsed, active, **options)  # A-normal form, analysed and planned
        found, must = _problems(ctx)  # before the forward sweep is spliced into it
        problems.extend(found)
        lines.append(must)
        return ctx, ret

    builder._prepare = audited
    try:
        builder.entry()
    except TangentlikeError:
        return  # refused, loudly: allowed
    assert not problems, "\n".join(problems)
    entry_lines = lines[-1]  # callees finish first
    entry = builder.functions[-1]
    commented = {int(n) for n in re.findall(r"# grad of [^:\n]+:(\d+)", entry)}
    missing = sorted(entry_lines - commented)
    assert not missing, f"no backward block for lines {missing} of {func.__qualname__}"


def test_the_audit_covers_the_corpus():
    assert len(BUILDS) > 100
    assert {b[1].__module__ for b in BUILDS} >= {
        "corpus.programs",
        "corpus.functions",
        "audit_mlp",
        "audit_mlp_loss",
    }
