"""Inline nested functions at their calls.

Assumes: A-normal form, where a call of a nested function (normalize.closures)
is `t = g(atoms)` or `g(atoms)`. Guarantees: no such call remains; each call
site holds the closure's body with its locals renamed to fresh names
(`_g_v1`), normalized by the caller's `normalize` (its own nested functions
inlined in turn), parameters it never rebinds replaced by the argument atoms,
the others bound by assignments, and the result assigned to the call's target.
Free names keep meaning the enclosing function's variables, read when the
call runs (Python's late binding). Recursion through nested functions raises.
Invalidates: every analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gast

from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.nodes import walk
from .closures import Closure, Closures, bound_inside, collect

Normalize = Callable[[gast.FunctionDef, frozenset[str]], gast.FunctionDef]


@dataclass
class Inliner:
    parsed: ParsedFunction
    namer: Namer
    scope: Scope
    normalize: Normalize  # desugar, jumps, A-normal form (closure names may be called)

    def run(self, fn: gast.FunctionDef, closures: Closures) -> gast.FunctionDef:
        fn.body = self.block(fn.body, closures.by_name, (), fn)
        return fn

    def block(
        self,
        stmts: list[gast.stmt],
        env: dict[str, Closure],
        stack: tuple[Closure, ...],
        tree: gast.AST,
    ) -> list[gast.stmt]:
        """`tree`: the function these statements belong to (to count a target's uses)."""

        def inlined(stmts: list[gast.stmt], i: int) -> tuple[list[gast.stmt], int] | None:
            stmt = stmts[i]
            call = _closure_call(stmt, env)
            if call is None:
                return None
            target = stmt.targets[0].id if isinstance(stmt, gast.Assign) else None
            unpack = _unpacked(target, stmts[i + 1 :], tree) if target else []
            code, used = self.expand(call, env[call.func.id], target, env, stack, unpack)
            return code, len(unpack) if used else 0

        return rewrite_block(stmts, inlined, lambda inner: self.block(inner, env, stack, tree))

    def expand(
        self,
        call: gast.Call,
        closure: Closure,
        target: str | None,
        env: dict[str, Closure],
        stack: tuple[Closure, ...],
        unpack: list[str],
    ) -> tuple[list[gast.stmt], bool]:
        """The inlined call; True when it assigned `unpack` (the names the caller
        unpacks the result into) item by item instead of building a tuple."""
        if closure in stack:
            chain = " -> ".join(c.name for c in (*stack, closure))
            raise self.parsed.error(
                call,
                f"recursion through nested functions ({chain})",
                "make the recursive helper a module-level function with a depth argument",
            )
        bound = self.bind(call, closure)
        node = nodes.deepcopy(closure.node)
        renames = {n: self.namer.temp(f"{closure.name}_{n}") for n in sorted(bound_inside(node))}
        self.scope.locals = self.scope.locals | frozenset(renames.values())
        _rename(node, renames)
        # A parameter the body never rebinds reads the argument's atom directly.
        stored = set().union(*(nodes.names_stored(s) for s in node.body))
        head = []
        for p, value in bound.items():
            name = renames[p]
            if isinstance(value, dict):  # **kwargs: only passed on, `g(**kw)`
                _spread_keywords(node, name, value)
                if name in nodes.names_read(node) or name in stored:
                    raise self.parsed.error(
                        call,
                        f"the **{p} of the nested function {closure.name!r} is used other "
                        f"than passed on (g(**{p}))",
                        "give the nested function named parameters",
                    )
            elif isinstance(value, gast.Tuple) and name not in stored:  # *args: items
                _spread(node, name, value.elts)
                if name in nodes.names_read(node):  # len(args), loops over it, ...
                    head.append(nodes.located(nodes.assign(name, value), call))
            elif name in stored or isinstance(value, gast.Tuple):
                head.append(nodes.located(nodes.assign(name, value), call))
            else:
                _substitute(node, name, value)
        inner = collect(self.parsed, node, self.namer)
        returns = [n for n in walk(node) if isinstance(n, gast.Return)]
        for ret in returns:
            if ret.value is None:
                ret.value = nodes.located(nodes.const(None), ret)
        if not isinstance(node.body[-1], gast.Return):
            node.body.append(nodes.located(nodes.return_(nodes.const(None)), node.body[-1]))
        node.name = f"_{closure.name}"  # with several returns, the result is `_<name>`
        last = node.body[-1]
        if len(returns) == 1 and last is returns[0] and not isinstance(last.value, gast.Name):
            result = self.namer.temp(closure.name)
            node.body[-1:] = [
                nodes.located(nodes.assign(result, last.value), last),
                nodes.located(nodes.return_(nodes.name(result)), last),
            ]
        visible = {**env, **inner.by_name}
        node = self.normalize(node, frozenset(visible))
        body = self.block(node.body[:-1], visible, (*stack, closure), node)
        result = node.body[-1].value.id
        items = _itemized(body, result, unpack, self.namer) if unpack else None
        if items is not None:  # `a, s = g(...)`: no tuple of unlike values is built
            body, parts = items
            tail = [
                nodes.located(nodes.assign(name, nodes.name(part)), call)
                for name, part in zip(unpack, parts, strict=True)
            ]
            return [*head, *body, *tail], True
        tail = []
        if target is not None:
            tail.append(nodes.located(nodes.assign(target, nodes.name(result)), call))
        return [*head, *body, *tail], False

    def bind(
        self, call: gast.Call, closure: Closure
    ) -> dict[str, gast.expr | dict[str, gast.expr]]:
        """Parameter -> atom, in parameter order (defaults filled in); *args -> a tuple
        of atoms, **kwargs -> {name: atom}."""
        if any(isinstance(a, gast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            raise self.parsed.error(
                call,
                f"star-unpacking (*seq, **mapping) into the nested function {closure.name!r}",
                "pass the arguments one by one",
            )
        try:
            bound = closure.signature.bind(*call.args, **{k.arg: k.value for k in call.keywords})
        except TypeError as err:
            raise self.parsed.error(
                call,
                f"this call to the nested function {closure.name!r} does not match its "
                f"parameters: {err}",
                "fix the arguments",
            ) from None
        out: dict[str, gast.expr | dict[str, gast.expr]] = {}
        for p in closure.signature.parameters.values():
            value = bound.arguments.get(p.name)
            if p.kind is p.VAR_POSITIONAL:
                out[p.name] = nodes.tuple_([nodes.deepcopy(v) for v in value or ()])
            elif p.kind is p.VAR_KEYWORD:
                out[p.name] = {k: nodes.deepcopy(v) for k, v in (value or {}).items()}
            else:
                out[p.name] = nodes.deepcopy(closure.defaults[p.name] if value is None else value)
        return out


def rewrite_block(
    stmts: list[gast.stmt],
    rewrite: Callable[[list[gast.stmt], int], tuple[list[gast.stmt], int] | None],
    nested: Callable[[list[gast.stmt]], list[gast.stmt]],
) -> list[gast.stmt]:
    """stmts with each statement `rewrite(stmts, i)` gives (code, k) for replaced by that
    code and the k statements after it dropped (their work is in the code); the blocks
    inside the others (body, orelse) rewritten by `nested`."""
    out: list[gast.stmt] = []
    i = 0
    while i < len(stmts):
        found = rewrite(stmts, i)
        if found is not None:
            code, skip = found
            out.extend(code)
            i += 1 + skip
            continue
        stmt = stmts[i]
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list):
                setattr(stmt, part, nested(inner))
        out.append(stmt)
        i += 1
    return out


def _unpacked(target: str, following: list[gast.stmt], tree: gast.AST) -> list[str]:
    """[a, s] when `target` is read only by the statements `a = target[0]`,
    `s = target[1]` that follow the call (tuple unpacking, as desugared)."""
    names = []
    for stmt in following:
        value = stmt.value if isinstance(stmt, gast.Assign) else None
        if not (
            isinstance(value, gast.Subscript)
            and isinstance(value.value, gast.Name)
            and value.value.id == target
            and isinstance(value.slice, gast.Constant)
            and value.slice.value == len(names)
            and isinstance(stmt.targets[0], gast.Name)
        ):
            break
        names.append(stmt.targets[0].id)
    reads = sum(
        1
        for n in walk(tree)
        if isinstance(n, gast.Name) and n.id == target and isinstance(n.ctx, gast.Load)
    )
    return names if names and reads == len(names) else []


def _itemized(
    body: list[gast.stmt], result: str, unpack: list[str], namer: Namer
) -> tuple[list[gast.stmt], list[str]] | None:
    """`result = (e0, e1)` (and `result = None`, from lowered returns) everywhere in
    `body` become `_a1 = e0; _s1 = e1` (named after the unpacked `a, s`); None unless
    every assignment to `result` is such a tuple of as many items."""
    n = len(unpack)
    sites = [
        s
        for s in walk(gast.Module(body=body, type_ignores=[]))
        if isinstance(s, gast.Assign)
        and isinstance(s.targets[0], gast.Name)
        and s.targets[0].id == result
    ]
    for s in sites:
        tuple_ = isinstance(s.value, gast.Tuple) and len(s.value.elts) == n
        none = isinstance(s.value, gast.Constant) and s.value.value is None
        if not (tuple_ or none) or result in nodes.names_read(s.value):
            return None
    if not sites or any(result in nodes.names_read(s) for s in body):
        return None  # the body reads the tuple itself: keep it
    parts = [namer.temp(name) for name in unpack]

    def split(stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for s in stmts:
            if s in sites:
                values = s.value.elts if isinstance(s.value, gast.Tuple) else [s.value] * n
                out += [
                    nodes.located(nodes.assign(p, nodes.deepcopy(v)), s)
                    for p, v in zip(parts, values, strict=True)
                ]
                continue
            for field in ("body", "orelse"):
                inner = getattr(s, field, None)
                if isinstance(inner, list):
                    setattr(s, field, split(inner))
            out.append(s)
        return out

    return split(body), parts


def _closure_call(stmt: gast.stmt, env: dict[str, Closure]) -> gast.Call | None:
    value = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
    if (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id in env
        and not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript))
    ):
        return value
    return None


def _substitute(node: gast.AST, name: str, atom: gast.expr) -> None:
    """Replace every read of `name` under `node` by a copy of `atom`."""

    class Replace(gast.NodeTransformer):
        def visit_Name(self, n: gast.Name) -> gast.expr:
            if n.id == name and isinstance(n.ctx, gast.Load):
                return nodes.located(nodes.deepcopy(atom), n)
            return n

    Replace().visit(node)


def _spread(node: gast.AST, name: str, items: list[gast.expr]) -> None:
    """`f(*name)` -> `f(item, ...)` and `name[k]` -> item k, for a *args parameter
    bound to `items` and never rebound."""

    def is_name(n: gast.AST) -> bool:
        return isinstance(n, gast.Name) and n.id == name

    class Spread(gast.NodeTransformer):
        def visit_Call(self, n: gast.Call) -> gast.Call:
            self.generic_visit(n)
            args = []
            for a in n.args:
                if isinstance(a, gast.Starred) and is_name(a.value):
                    args += [nodes.located(nodes.deepcopy(i), a) for i in items]
                else:
                    args.append(a)
            n.args = args
            return n

        def visit_Subscript(self, n: gast.Subscript) -> gast.expr:
            self.generic_visit(n)
            k = n.slice
            if (
                is_name(n.value)
                and isinstance(n.ctx, gast.Load)
                and isinstance(k, gast.Constant)
                and type(k.value) is int
                and -len(items) <= k.value < len(items)
            ):
                return nodes.located(nodes.deepcopy(items[k.value]), n)
            return n

    Spread().visit(node)


def _spread_keywords(node: gast.AST, name: str, items: dict[str, gast.expr]) -> None:
    """`f(**name)` -> `f(key=item, ...)` for a **kwargs parameter bound to `items`."""
    for n in walk(node):
        if isinstance(n, gast.Call):
            keywords = []
            for k in n.keywords:
                if k.arg is None and isinstance(k.value, gast.Name) and k.value.id == name:
                    keywords += [
                        gast.keyword(arg=key, value=nodes.located(nodes.deepcopy(v), k.value))
                        for key, v in items.items()
                    ]
                else:
                    keywords.append(k)
            n.keywords = keywords


def _rename(node: gast.AST, renames: dict[str, str]) -> None:
    for n in walk(node):
        if isinstance(n, gast.Name) and n.id in renames:
            n.id = renames[n.id]
        elif isinstance(n, gast.FunctionDef) and n.name in renames:
            n.name = renames[n.name]
