"""Checks the generated code makes at run time: user rules always, the rest in debug mode.

Debug mode is `checks=True` (or TANGENTLIKE_CHECKS=1); its code calls the helpers of
tangentlike/runtime/boundary.py, copied into the module like any runtime helper. Plain-mode
code is untouched by everything here except `user_rule`.

- `user_rule` (every mode, from reverse.adjoint_of): each `d[p] = v` of a rule
  registered with `tl.adjoint` becomes `d[p] = rule_contribution(v, p, ...)`: its
  shape, dtype and structure checked against the argument, the error naming the
  rule and the call site.
- `contributions` (debug mode, from assemble.build before it decides what to
  save): an assignment to an adjoint `bx = ...` checks what it adds against x
  where x never changes once bound (reading it saves nothing), else `bx = bx + v`
  checks v against bx: debug mode saves exactly what plain mode saves, so it runs
  the same push/pop pattern it checks.
- `stack` (debug mode, after optimization, so no pass moves a pop): each push
  stores `(site, value)`, each pop is `popped(_stack, site)`, which refuses a
  value another site pushed; the entry function calls `stack_drained` before it
  returns. A site is `"<what> at <file>:<line>"`; `<what>` names the variable or
  tuple saved, `?` for a form `_key` does not know (then only the place must agree).

Assumes: code built by assemble (a Context with its names). Guarantees: no
statement is added, moved or removed beyond the checks themselves.
"""

from __future__ import annotations

import gast

from ..rules.template import Rule
from ..runtime import boundary
from ..syntax import nodes
from ..syntax.nodes import walk
from . import argument_containers
from .context import Context


def helper(ctx: Context, name: str) -> gast.Name:
    """A reference to the boundary helper `name`, bound in the generated module."""
    return nodes.name(ctx.namespace.bind(name, getattr(boundary, name), ctx.namer))


def _where(ctx: Context, node: gast.AST) -> str:
    line = getattr(node, "lineno", None)
    return f"{ctx.parsed.basename}:{line}" if line else ctx.parsed.func.__qualname__


# ---------------------------------------------------------------------------
# user rules


def user_rule(
    ctx: Context,
    rule: Rule,
    bindings: dict[str, gast.expr],
    stmts: list[gast.stmt],
    site: gast.stmt,
) -> None:
    """Wrap each contribution `d[p] = v` in `stmts` (a user rule's, instantiated at
    `site`) as `d[p] = rule_contribution(v, <p's argument>, <rule>, <site>)`."""
    for stmt in stmts:
        target = stmt.targets[0] if isinstance(stmt, gast.Assign) else None
        if not (
            isinstance(target, gast.Subscript)
            and isinstance(target.value, gast.Name)
            and target.value.id == "d"
        ):
            continue
        param = target.slice.id
        stmt.value = nodes.call(
            helper(ctx, "rule_contribution"),
            [
                stmt.value,
                nodes.deepcopy(bindings[param]),
                nodes.const(param),
                nodes.const(f"{rule.where} for {rule.name}"),
                nodes.const(_where(ctx, site)),
            ],
        )


# ---------------------------------------------------------------------------
# adjoint contributions (debug mode)


def contributions(ctx: Context, code: list[gast.stmt], split: bool) -> None:
    """In debug mode, check the values added to adjoints in backward `code` (changed
    in place): `bx = v` and `bx = bx + v` check v against x when x never changes once
    bound (reading it then needs nothing saved), else `bx = bx + v` checks v against
    bx. In the backward half of a `split` function every value it reads is saved by
    the forward half, so there only bx is read. List and dict adjoints are left to
    their helpers (a check would cost O(n))."""
    if not ctx.checks:
        return
    primal_of = {b: p for p, b in ctx.adjoint.items() if p not in ctx.structured}
    steady = frozenset() if split else _steady(ctx)
    entry = argument_containers.entry_like(ctx.fn, ctx.scope)  # written into: as on entry
    check = helper(ctx, "adjoint_contribution").id
    done: set[int] = set()

    def wrap(value: gast.expr, like: str, site: str) -> gast.expr:
        args = [value, nodes.name(like), nodes.const(like), nodes.const(site)]
        return nodes.call(nodes.name(check), args)

    def visit(stmts: list[gast.stmt]) -> None:
        for stmt in stmts:
            if id(stmt) in done:
                continue
            done.add(id(stmt))
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    visit(inner)
            if not (
                isinstance(stmt, gast.Assign)
                and isinstance(stmt.targets[0], gast.Name)
                and stmt.targets[0].id in primal_of
            ):
                continue
            b, value = stmt.targets[0].id, stmt.value
            x = primal_of[b]
            added = (
                isinstance(value, gast.BinOp)
                and isinstance(value.op, gast.Add)
                and _is_name(value.left, b)
            )
            like = entry.get(x, x) if x in steady else b if added else None
            if like is None or (like == b and x in ctx.complex_values):
                continue  # the adjoint of a complex value may be real until a complex part
            if added:
                value.right = wrap(value.right, like, _where(ctx, stmt))  # blame v
            else:
                stmt.value = wrap(value, like, _where(ctx, stmt))

    visit(code)


def _steady(ctx: Context) -> frozenset[str]:
    """Variables bound once and never changed after (parameters never assigned, names
    with one plain assignment outside loops): the backward sweep can read them anywhere
    after their binding without anything saved."""
    sites: dict[str, list] = {}
    for site in ctx.flow.sites:
        sites.setdefault(site.name, []).append(site)
    params = set(nodes.all_param_names(ctx.fn))
    steady = {p for p in params if p not in sites}
    for name, found in sites.items():
        site = found[0]
        if (
            len(found) == 1
            and name not in params
            and isinstance(site.stmt, gast.Assign)
            and not site.in_loop
            and not site.region
        ):
            steady.add(name)
    return frozenset(steady)


def _is_name(node: gast.expr, name: str) -> bool:
    return isinstance(node, gast.Name) and node.id == name


# ---------------------------------------------------------------------------
# push/pop pairing and the drained stack (debug mode)


def stack(ctx: Context, fn: gast.FunctionDef, entry: bool) -> None:
    """Label every push and check every pop of `fn` (a generated function using ctx's
    stack); an `entry` function also checks the stack is empty before it returns."""
    pop_helper: str | None = None
    done: set[int] = set()  # statements shared by several places (copies of a loop body)

    def is_push(node: gast.AST) -> bool:
        return (
            isinstance(node, gast.Call)
            and len(node.args) == 1
            and (
                _is_name(node.func, ctx.push)
                or (
                    isinstance(node.func, gast.Attribute)
                    and _is_name(node.func.value, ctx.stack)
                    and node.func.attr == "append"
                )
            )
        )

    def is_pop(node: gast.AST) -> bool:
        return (
            isinstance(node, gast.Call)
            and not node.args
            and (
                _is_name(node.func, ctx.pop)
                or (
                    isinstance(node.func, gast.Attribute)
                    and _is_name(node.func.value, ctx.stack)
                    and node.func.attr == "pop"
                )
            )
        )

    def label(stmt: gast.stmt, what: str) -> gast.Constant:
        return nodes.const(f"{what} at {_where(ctx, stmt)}")

    def visit(stmts: list[gast.stmt]) -> None:
        nonlocal pop_helper
        for stmt in stmts:
            if id(stmt) in done:
                continue
            done.add(id(stmt))
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    visit(inner)
            if isinstance(stmt, gast.Expr) and is_push(stmt.value):
                value = stmt.value.args[0]
                tag = label(stmt, _key(value))
                stmt.value.args[0] = nodes.tuple_([tag, value])
                continue
            compound = isinstance(stmt, (gast.If, gast.For, gast.While))
            own = [getattr(stmt, f) for f in ("test", "iter") if hasattr(stmt, f)]
            for part in own if compound else [stmt]:
                for node in walk(part):
                    for field, child in gast.iter_fields(node):
                        # a pop is a field (`x = _pop()`) or an item of one (`f(y, _pop())`)
                        items = child if isinstance(child, list) else [child]
                        for k, item in enumerate(items):
                            if not is_pop(item):
                                continue
                            target = stmt.targets[0] if isinstance(stmt, gast.Assign) else None
                            tag = label(stmt, _key(target))
                            pop_helper = pop_helper or helper(ctx, "popped").id
                            checked = nodes.call(
                                nodes.name(pop_helper), [nodes.name(ctx.stack), tag]
                            )
                            if isinstance(child, list):
                                child[k] = checked
                            else:
                                setattr(node, field, checked)

    visit(fn.body)
    if not entry or not _mentions(fn, ctx.stack):
        _drop_unused_binding(fn, ctx.pop)
        return
    last = fn.body[-1]
    drained = nodes.call(
        helper(ctx, "stack_drained"),
        [nodes.name(ctx.stack), nodes.const(ctx.parsed.func.__qualname__)],
    )
    at = len(fn.body) - 1 if isinstance(last, gast.Return) else len(fn.body)
    fn.body.insert(at, nodes.expr_stmt(drained))
    _drop_unused_binding(fn, ctx.pop)


def _key(node: gast.expr | None) -> str:
    """What a push saves or a pop restores: `x`, `y[]` (a region of y), `(h, y)`."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Subscript):
        return _key(node.value) + "[]"
    if isinstance(node, gast.Call) and len(node.args) == 1 and not node.keywords:
        return _key(node.args[0])  # np.copy(y[i]), list(xs)
    if isinstance(node, gast.Tuple):
        return "(" + ", ".join(_key(e) for e in node.elts) + ")"
    return "?"


def _mentions(fn: gast.FunctionDef, name: str) -> bool:
    return name in nodes.names_read(fn) or name in nodes.all_param_names(fn)


def _drop_unused_binding(fn: gast.FunctionDef, name: str) -> None:
    """Remove `_pop = _stack.pop` when every pop now goes through `popped`."""
    if name in nodes.names_read(fn):
        return
    fn.body = [
        s
        for s in fn.body
        if not (
            isinstance(s, gast.Assign)
            and isinstance(s.targets[0], gast.Name)
            and s.targets[0].id == name
        )
    ]
