"""Nested functions and named lambdas: checked and collected before desugaring
(normalize.closure_calls inlines them after A-normal form).

`check` assumes the fence passed. It guarantees: every use of a nested function
`g` is a direct call that comes after the definition, in its block (or inside
`g` itself); `g` is defined once and bound nowhere else; every lambda is
assigned to a name. Anything else (a closure returned, stored, passed on,
called before its definition, redefined) raises an error at its line.

`partials_as_lambdas` turns `g = functools.partial(f, ...)` into a named lambda
with partial's semantics, so local partials are nested functions too.

`collect` guarantees: the function's body holds no FunctionDef and no named
Lambda; each removed `def g(...)` or `g = lambda ...` is a Closure; default
values are evaluated where the definition stood (into fresh names, as Python
evaluates them once, at definition time).
Invalidates: every analysis.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import gast

from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.nodes import walk

FunctionNode = gast.FunctionDef | gast.Lambda


@dataclass(eq=False)
class Closure:
    """A nested function of the function being differentiated."""

    name: str
    node: gast.FunctionDef  # a lambda becomes `def name(...): return <expr>`
    defaults: dict[str, gast.expr]  # parameter -> atom holding the value at definition
    signature: inspect.Signature


@dataclass
class Closures:
    by_name: dict[str, Closure] = field(default_factory=dict)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.by_name)


# ---------------------------------------------------------------------------
# Scopes


def function_locals(fn: FunctionNode) -> frozenset[str]:
    """Names local to `fn` itself: parameters, names it stores, the defs it holds
    (not the locals of functions nested inside it)."""
    a = fn.args
    names = {p.id for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
    names |= {p.id for p in (a.vararg, a.kwarg) if p is not None}
    body = fn.body if isinstance(fn, gast.FunctionDef) else [fn.body]
    for stmt in body:
        for node in _own_nodes(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                names.add(node.id)
            elif isinstance(node, gast.FunctionDef):
                names.add(node.name)
    return frozenset(names)


def free_names(fn: FunctionNode) -> frozenset[str]:
    """Names `fn` (or a function nested in it) reads from outside itself."""
    own = function_locals(fn)
    free = set()
    body = fn.body if isinstance(fn, gast.FunctionDef) else [fn.body]
    for stmt in body:
        for node in _own_nodes(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                free.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.Lambda)):
                free |= free_names(node)
    for default in [*fn.args.defaults, *fn.args.kw_defaults]:
        if default is not None:
            free |= nodes.names_read(default)
    return frozenset(free - own)


def _own_nodes(node: gast.AST) -> Iterator[gast.AST]:
    """Nodes of `node` outside the bodies of functions nested in it (a nested
    def's name, decorators and defaults belong to the outside)."""
    yield node
    if isinstance(node, gast.FunctionDef):
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                yield from walk(default)
        return
    if isinstance(node, gast.Lambda):
        return
    for child in gast.iter_child_nodes(node):
        yield from _own_nodes(child)


def _all_names(fn: FunctionNode) -> frozenset[str]:
    return frozenset(n.id for n in walk(fn) if isinstance(n, gast.Name))


def bound_inside(fn: FunctionNode) -> frozenset[str]:
    """Every name of `fn`'s tree except the ones it reads from outside."""
    return _all_names(fn) - free_names(fn)


# ---------------------------------------------------------------------------
# Collecting


def partials_as_lambdas(fn: gast.FunctionDef, is_partial: Callable[[gast.expr], bool]) -> None:
    """`g = functools.partial(f, a, k=v)` in the body becomes the named lambda
    `g = lambda *args, _a0=a, k=v, **kw: f(_a0, *args, k=k, **kw)`: the bound values
    are evaluated once, at definition, and keywords stay overridable, as with partial."""
    taken = {n.id for n in walk(fn) if isinstance(n, gast.Name)}

    def fresh(base: str) -> str:
        k = 0
        while f"_{base}{k}" in taken:
            k += 1
        taken.add(f"_{base}{k}")
        return f"_{base}{k}"

    for stmt in walk(fn):
        call = stmt.value if isinstance(stmt, gast.Assign) else None
        if not (
            isinstance(call, gast.Call)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name)
            and call.args
            and is_partial(call.func)
            and not any(isinstance(a, gast.Starred) for a in call.args)
            and all(k.arg is not None for k in call.keywords)
        ):
            continue
        target, *bound = call.args
        held = [fresh("a") for _ in bound]
        rest, options = fresh("args"), fresh("kw")
        kwonly = [*held, *(k.arg for k in call.keywords)]
        args = gast.arguments(
            args=[],
            posonlyargs=[],
            vararg=nodes.name(rest, store=True),
            kwonlyargs=[nodes.name(n, store=True) for n in kwonly],
            kw_defaults=[*bound, *(k.value for k in call.keywords)],
            kwarg=nodes.name(options, store=True),
            defaults=[],
        )
        for p in [args.vararg, *args.kwonlyargs, args.kwarg]:
            p.ctx = gast.Param()
        body = gast.Call(
            func=target,
            args=[
                *(nodes.name(n) for n in held),
                gast.Starred(value=nodes.name(rest), ctx=gast.Load()),
            ],
            keywords=[
                *(gast.keyword(arg=k.arg, value=nodes.name(k.arg)) for k in call.keywords),
                gast.keyword(arg=None, value=nodes.name(options)),
            ],
        )
        stmt.value = nodes.located(gast.Lambda(args=args, body=body), call)


def check(parsed: ParsedFunction, fn: gast.FunctionDef) -> None:
    """Nested functions are only called, after their definition, in a block that
    holds it (a call before raises NameError in Python; a def in a branch may not
    run); their names are unique and never rebound; every lambda is named."""
    for node in walk(fn):
        if isinstance(node, gast.Lambda) and not any(
            _definition(s) is node for s in walk(fn) if isinstance(s, gast.Assign)
        ):
            raise parsed.error(
                node,
                "a `lambda` that is not assigned to a name",
                "assign it first (act = lambda v: ...) and call act(...) directly",
            )
    defs = [s for s in walk(fn) if s is not fn and _definition(s) is not None]
    names = [_defined_name(s) for s in defs]
    for stmt, name in zip(defs, names, strict=True):
        if names.count(name) > 1:
            raise parsed.error(
                stmt,
                f"the nested function {name!r} is defined more than once",
                "give each nested function its own name",
            )
    lambda_targets = {id(s.targets[0]) for s in defs if isinstance(s, gast.Assign)}
    calls = {id(n.func) for n in walk(fn) if isinstance(n, gast.Call)}
    for node in walk(fn):
        if not isinstance(node, gast.Name) or node.id not in names:
            continue
        if not isinstance(node.ctx, gast.Load) and id(node) not in lambda_targets:
            raise parsed.error(
                node,
                f"{node.id!r} names a nested function and is assigned here too",
                "give the nested function and the variable different names",
            )
        if isinstance(node.ctx, gast.Load) and id(node) not in calls:
            raise parsed.error(
                node,
                f"the nested function {node.id!r} is used as a value (returned, stored or "
                "passed on)",
                "call it directly where its result is needed: only direct calls of nested "
                "functions can be differentiated",
            )
    _check_order(parsed, fn.body, frozenset(), frozenset(names))


def _check_order(
    parsed: ParsedFunction, stmts: list[gast.stmt], visible: frozenset[str], names: frozenset[str]
) -> None:
    def expr(node: gast.AST | None) -> None:
        for n in walk(node) if node is not None else ():
            if isinstance(n, gast.Name) and n.id in names and n.id not in visible:
                raise parsed.error(
                    n,
                    f"the nested function {n.id!r} is called before, or outside the block "
                    "of, its definition",
                    f"define {n.id!r} earlier, in a block that runs before this call",
                )

    for stmt in stmts:
        node = _definition(stmt)
        if node is not None:
            for d in [*node.args.defaults, *node.args.kw_defaults]:
                expr(d)
            name = _defined_name(stmt)
            inside = visible | {name}
            if isinstance(node, gast.FunctionDef):
                _check_order(parsed, node.body, inside, names)
            else:
                _check_order(parsed, [gast.Expr(value=node.body)], inside, names)
            visible = inside
            continue
        for _, value in gast.iter_fields(stmt):
            if isinstance(value, list) and value and isinstance(value[0], gast.stmt):
                _check_order(parsed, value, visible, names)
            elif isinstance(value, list):
                for v in value:
                    expr(v)
            elif isinstance(value, gast.AST):
                expr(value)


def _defined_name(stmt: gast.stmt) -> str:
    return stmt.name if isinstance(stmt, gast.FunctionDef) else stmt.targets[0].id


def collect(parsed: ParsedFunction, fn: gast.FunctionDef, namer: Namer) -> Closures:
    """Remove the nested defs and named lambdas of `fn`'s body (not those inside them)."""
    found = Closures()
    fn.body = _collect_block(parsed, fn.body, namer, found)
    return found


def _collect_block(
    parsed: ParsedFunction, stmts: list[gast.stmt], namer: Namer, found: Closures
) -> list[gast.stmt]:
    out: list[gast.stmt] = []
    for stmt in stmts:
        node = _definition(stmt)
        if node is None:
            for part in ("body", "orelse"):
                inner = getattr(stmt, part, None)
                if isinstance(inner, list):
                    setattr(stmt, part, _collect_block(parsed, inner, namer, found))
            out.append(stmt)
            continue
        name = _defined_name(stmt)
        closure, pre = closure_of(parsed, name, node, stmt, namer)
        found.by_name[name] = closure
        out.extend(nodes.located(s, stmt) for s in pre)
    return out


def _definition(stmt: gast.AST) -> FunctionNode | None:
    if isinstance(stmt, gast.FunctionDef):
        return stmt
    if (
        isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
        and isinstance(stmt.value, gast.Lambda)
    ):
        return stmt.value
    return None


def closure_of(
    parsed: ParsedFunction, name: str, node: FunctionNode, stmt: gast.stmt, namer: Namer
) -> tuple[Closure, list[gast.stmt]]:
    """The Closure, and the statements evaluating its default values."""
    a = node.args
    if isinstance(node, gast.FunctionDef) and node.decorator_list:
        raise parsed.error(
            node.decorator_list[0],
            f"a decorated nested function ({name!r})",
            "define the decorated helper at module level",
        )
    if a.posonlyargs:
        raise parsed.error(
            node,
            f"positional-only parameters in the nested function {name!r}",
            "give the nested function plain parameters (with defaults if needed)",
        )
    if isinstance(node, gast.Lambda):
        body = [nodes.located(nodes.return_(node.body), node.body)]
        node = nodes.located(nodes.function_def(name, node.args, body), stmt)
    node.name = name
    pre: list[gast.stmt] = []
    defaults: dict[str, gast.expr] = {}
    positional = [p.id for p in a.args]
    kinds = inspect.Parameter
    params = []
    firsts = positional[len(positional) - len(a.defaults) :]
    with_default = dict(zip(firsts, a.defaults, strict=True))
    for p in positional:
        params.append(kinds(p, kinds.POSITIONAL_OR_KEYWORD, default=_marker(p, with_default)))
    if a.vararg is not None:
        params.append(kinds(a.vararg.id, kinds.VAR_POSITIONAL))
    for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        if d is not None:
            with_default[p.id] = d
        params.append(kinds(p.id, kinds.KEYWORD_ONLY, default=_marker(p.id, with_default)))
    if a.kwarg is not None:
        params.append(kinds(a.kwarg.id, kinds.VAR_KEYWORD))
    for p, value in with_default.items():
        if isinstance(value, gast.Constant):
            defaults[p] = value
        else:
            held = namer.temp(f"{name}_{p}")
            pre.append(nodes.assign(held, value))
            defaults[p] = nodes.name(held)
    a.defaults, a.kw_defaults = [], [None] * len(a.kwonlyargs)
    return Closure(name, node, defaults, inspect.Signature(params)), pre


def _marker(param: str, with_default: dict[str, gast.expr]) -> object:
    return param if param in with_default else inspect.Parameter.empty
