"""Derivatives taken inside a differentiated function, of its own nested functions.

    def f(x):
        def inner(y):
            return x + y                    # closes over x, which f differentiates
        return x * tl.grad(inner)(1.0)      # d/dx [x * d/dy (x + y)] = 1

The inner derivative closes over a variable of the outer one. To keep the two
apart (no perturbation confusion: each nesting level its own names and stacks),
the nested function is lifted out with the outer variables it reads as
keyword-only parameters, its derivative is built as a generated function of its
own, and the call becomes a call of that derivative with those variables passed
explicitly:

    _dinner = lambda *args, **kw: <grad of lifted inner>(*args, x=x, **kw)
    return x * _dinner(1.0)

The outer derivative then differentiates through the generated inner derivative
(higher/forms.py) with x an ordinary argument, in which it is differentiated.

A derivative of a function of the module, `x * tl.grad(add)(1.0, x)`, is the same
named lambda with no variables to pass: the outer derivative differentiates through
the generated gradient of `add`, resolved (and so watched) as the outer one's global.

tl.jvp is lifted the same way; the jvp of a lifted nested def takes its tangent by
keyword after the outer variables (`jvp_h(y, *, x, dy)`), so its named lambda takes
the tangent last and passes it by that keyword (`_by_keyword`).

Assumes: a parsed function, before closures.check. Guarantees: every call
`tl.grad(g, ...)` (also value_and_grad, vjp, jvp of one argument) whose first
argument names a nested def
of the function or a Python function it reads as a global, or is such a call itself
(`tl.grad(tl.grad(inner))`), whose other arguments are literals, and whose nested
def reads no other nested function, is replaced by a named lambda as above (hvp and
hessian are Python wrappers of generated code: left as they are);
anything else is left for closures.check (which refuses a nested function used
as a value).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import linecache
import types
from collections.abc import Callable

import gast

from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.nodes import walk
from .closures import free_names, function_locals

DERIVATIVES = {
    "tangentlike.api": ("grad", "value_and_grad", "vjp"),
    "tangentlike.api_forward": ("jvp",),
    "tangentlike.higher.api": ("hvp", "hessian"),
}
# the derivatives lifted (generated code the outer derivative differentiates through),
# with the options they are built with inside another derivative
_LIFTED = {"grad": {"checks": False}, "value_and_grad": {"checks": False}, "vjp": {"checks": False}}
_LIFTED["jvp"] = {}  # forward mode has no debug checks


def is_derivative(obj: object) -> bool:
    """Whether `obj` is one of tangentlike's entry points that build a derivative."""
    names = DERIVATIVES.get(getattr(obj, "__module__", None) or "", ())
    return isinstance(obj, types.FunctionType) and obj.__name__ in names


def run(
    parsed: ParsedFunction,
    fn: gast.FunctionDef,
    resolve: Callable[[gast.expr], object],
    bind: Callable[[str, object], str],
) -> None:
    """Lift the nested functions `fn` differentiates itself (see the module docstring).
    `resolve` maps a callee expression to its object; `bind(preferred, obj)` binds an
    object in the generated module and gives its name."""
    defs = {s.name: s for s in _own_defs(fn.body)}
    if not defs and not _derivative_calls(fn):
        return
    outer = function_locals(fn) | frozenset(parsed.func.__code__.co_freevars)
    taken = {n.id for n in walk(fn) if isinstance(n, gast.Name)} | set(defs)

    def fresh(base: str) -> str:
        k = 1
        while f"_{base}{k}" in taken:
            k += 1
        taken.add(f"_{base}{k}")
        return f"_{base}{k}"

    def derivative(call: gast.Call) -> tuple[object, list[str], str, str] | None:
        """(the derivative `call` builds, the outer variables it takes by keyword, the
        name of the function it differentiates, the kind of derivative: grad, jvp ...),
        or None where it is left as it is."""
        derive = resolve(call.func)
        if not is_derivative(derive) or not call.args:
            return None
        target = call.args[0]
        try:
            options = {k.arg: ast.literal_eval(gast.gast_to_ast(k.value)) for k in call.keywords}
            rest = [ast.literal_eval(gast.gast_to_ast(a)) for a in call.args[1:]]
        except ValueError:
            return None  # a computed wrt: left as a nested function used as a value
        if any(k is None for k in options):
            return None
        if derive.__name__ not in _LIFTED:
            # hvp, hessian: Python wrappers of generated code, which the outer derivative
            # cannot follow: left for closures.check (a nested function used as a value)
            return None
        if isinstance(target, gast.Call):  # tl.grad(tl.grad(inner)): of the inner derivative
            inner = derivative(target)
            if inner is None:
                return None
            function, free, name, _ = inner
        elif not isinstance(target, gast.Name):
            return None
        elif target.id not in defs:  # a function of the module (no closure over f's variables)
            function = None if target.id in outer else resolve(target)
            if not isinstance(function, types.FunctionType) or is_derivative(function):
                return None
            free, name = [], target.id
        else:
            node = defs[target.id]
            free = sorted(free_names(node) & outer)
            if any(n in defs or n == node.name for n in free):
                return None
            function, name = _lifted_function(parsed, node, free), target.id
            lifted.add(node.name)
        # plain mode: the inner level runs inside the outer one's code, which checks itself
        kind = derive.__name__
        return derive(function, *rest, **{**_LIFTED[kind], **options}), free, name, kind

    def lift(call: gast.Call) -> gast.expr | None:
        found = derivative(call)
        if found is None:
            return None
        gradient, free, name, kind = found
        bound = bind(f"_d{name}_lifted", gradient)
        if kind == "jvp" and free:  # its tangent comes after f's keyword-only variables
            return _by_keyword(gradient, bound, free, fresh, call)
        rest_args, rest_kw = fresh("args"), fresh("kw")
        body = gast.Call(
            func=nodes.name(bound),
            args=[gast.Starred(value=nodes.name(rest_args), ctx=gast.Load())],
            keywords=[
                *(gast.keyword(arg=n, value=nodes.name(n)) for n in free),
                gast.keyword(arg=None, value=nodes.name(rest_kw)),
            ],
        )
        args = gast.arguments(
            args=[],
            posonlyargs=[],
            vararg=gast.Name(id=rest_args, ctx=gast.Param(), annotation=None, type_comment=None),
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=gast.Name(id=rest_kw, ctx=gast.Param(), annotation=None, type_comment=None),
            defaults=[],
        )
        return nodes.located(gast.Lambda(args=args, body=body), call)

    def block(stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if inner and not isinstance(stmt, gast.FunctionDef):
                    setattr(stmt, field, block(inner))
            before: list[gast.stmt] = []
            if (
                isinstance(stmt, gast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name)
                and isinstance(stmt.value, gast.Call)
            ):
                lam = lift(stmt.value)  # `g = tl.grad(inner)`: g is the named lambda itself
                if lam is not None:
                    stmt.value = lam
                    out.append(stmt)
                    continue
            for node in list(_own_walk(stmt)):
                for field, value in gast.iter_fields(node):
                    if isinstance(value, list):
                        for i, item in enumerate(value):
                            if isinstance(item, gast.Call):
                                value[i] = replaced(item, before, stmt)
                    elif isinstance(value, gast.Call):
                        setattr(node, field, replaced(value, before, stmt))
            out.extend(before)
            out.append(stmt)
        return out

    def replaced(call: gast.Call, before: list[gast.stmt], stmt: gast.stmt) -> gast.expr:
        lam = lift(call)
        if lam is None:
            return call
        target = call.args[0]
        while isinstance(target, gast.Call):
            target = target.args[0]
        name = fresh(f"d{target.id}")
        before.append(nodes.located(nodes.assign(name, lam), stmt))
        return nodes.located(nodes.name(name), call)

    lifted: set[str] = set()
    fn.body = block(fn.body)
    # a nested def whose every use was lifted is gone from the function
    read = {
        n.id
        for stmt in fn.body
        for n in walk(stmt)
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)
    }
    fn.body = _without_defs(fn.body, lifted - read)


def _by_keyword(
    jvp: object, bound: str, free: list[str], fresh: Callable[[str], str], call: gast.Call
) -> gast.expr | None:
    """`lambda _a1, _t1: <bound>(_a1, x=x, dy=_t1)`: the jvp of a lifted nested function
    takes the outer variables and then its tangent by keyword (the generated entry's
    signature: `jvp_h(y, *, x, dy)`), so the tangent, given last, is passed by its name.
    Only for one differentiated argument and positional parameters without defaults,
    *args or **kwargs (None otherwise: left as a nested function used as a value)."""
    live = getattr(jvp, "__tangentlike_live__", None)
    if live is None or len(getattr(jvp, "wrt", ())) != 1:
        return None
    params = list(inspect.signature(live.current().generated).parameters.values())
    plain = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    tangents = [p.name for p in params if p.kind is p.KEYWORD_ONLY and p.name not in free]
    if len(tangents) != 1 or any(p.default is not p.empty for p in plain):
        return None
    if len(plain) + len(free) + 1 != len(params):  # *args, **kwargs, positional-only
        return None
    names, t = [fresh("a") for _ in plain], fresh("t")
    body = gast.Call(
        func=nodes.name(bound),
        args=[nodes.name(n) for n in names],
        keywords=[
            *(gast.keyword(arg=n, value=nodes.name(n)) for n in free),
            gast.keyword(arg=tangents[0], value=nodes.name(t)),
        ],
    )
    args = gast.arguments(
        args=[
            gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None)
            for n in [*names, t]
        ],
        posonlyargs=[],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    return nodes.located(gast.Lambda(args=args, body=body), call)


def _derivative_calls(fn: gast.FunctionDef) -> bool:
    """Whether `fn` may call one of the entry points of DERIVATIVES (by its name: `grad(`,
    `tl.grad(`)."""
    names = {n for entry in DERIVATIVES.values() for n in entry}
    for node in walk(fn):
        if isinstance(node, gast.Call):
            func = node.func
            called = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
            if called in names:
                return True
    return False


def _without_defs(stmts: list[gast.stmt], names: set[str]) -> list[gast.stmt]:
    out = []
    for stmt in stmts:
        if isinstance(stmt, gast.FunctionDef) and stmt.name in names:
            continue
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if inner and not isinstance(stmt, gast.FunctionDef):
                kept = _without_defs(inner, names)
                setattr(stmt, field, kept or ([gast.Pass()] if field == "body" else []))
        out.append(stmt)
    return out


def _own_defs(stmts: list[gast.stmt]) -> list[gast.FunctionDef]:
    """The defs in `stmts` and their blocks, not inside other functions."""
    found = []
    for stmt in stmts:
        if isinstance(stmt, gast.FunctionDef):
            found.append(stmt)
            continue
        for field in ("body", "orelse"):
            found += _own_defs(getattr(stmt, field, []) or [])
    return found


def _own_walk(node: gast.AST):
    """The nodes of a statement outside the functions (defs, lambdas) nested in it; the
    blocks of if/for/while are visited on their own."""
    if isinstance(node, (gast.FunctionDef, gast.Lambda)):
        return
    yield node
    for field, value in gast.iter_fields(node):
        if field in ("body", "orelse") and isinstance(node, gast.stmt):
            continue
        children = value if isinstance(value, list) else [value]
        for child in children:
            if isinstance(child, gast.AST):
                yield from _own_walk(child)


def _lifted_function(
    parsed: ParsedFunction, node: gast.FunctionDef, free: list[str]
) -> types.FunctionType:
    """`node` as a function of its own, the outer variables it reads as keyword-only
    parameters, defined in the outer function's globals (read when it runs)."""
    tree = gast.gast_to_ast(nodes.deepcopy(node))
    tree.args.kwonlyargs += [ast.arg(arg=n) for n in free]
    tree.args.kw_defaults += [None] * len(free)
    tree.decorator_list = []
    module = ast.fix_missing_locations(ast.Module(body=[tree], type_ignores=[]))
    where = f"{parsed.func.__qualname__}.{node.name}"
    source = f"# {where}, lifted by tangentlike (its outer variables as parameters)\n"
    source += ast.unparse(module) + "\n"
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    filename = f"<tangentlike lifted {node.name} {digest}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scratch: dict[str, object] = {}
    exec(compile(source, filename, "exec"), dict(parsed.func.__globals__), scratch)
    made = scratch[node.name]
    func = types.FunctionType(
        made.__code__, parsed.func.__globals__, made.__name__, made.__defaults__, None
    )
    func.__kwdefaults__ = made.__kwdefaults__
    func.__qualname__ = where
    func.__module__ = parsed.func.__module__
    return func
