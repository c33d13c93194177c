"""Grown lists restored from the stack chain in the differentiable form of a generated
derivative module (higher/forms.py): a comprehension's list in a loop (`_comp1 = []`, its
appends, `f = sum(_comp1)`) is saved on the chain before it is made again, and the
backward sweep restores it (`_comp1 = _stack[0]`) to read its structure. Read again,
a list that is appended to and bound to an item of a container is refused (another
holder of the object would see the appends). The form binds a copy instead:

    _comp1 = _stack[0]      ->      if _stack[0] is None:
                                        _comp1 = None
                                    else:
                                        _comp1 = list(_stack[0])

A copy has the items of the list it stands for as long as neither changes: so only a
name B whose list is never changed in place after a restore is rewritten — every
append or extend of B comes before every restore of B in the function's text, no loop
holds both, and nothing else changes B in place (no item write or delete, no method
but its appends, no runtime helper that changes a list it is given, no other name
bound to B's object).

Assumes: the form of a generated function, after `pops_as_rebinding`,
`handed_over_copies` and `copying_helpers` (the backward sweep shortens lists by
rebinding). Guarantees: a rewritten restore binds B to None where the original bound
None, and otherwise to a new list with the same items, which no statement after it
changes in place, nor the one it copies.
"""

from __future__ import annotations

import ast

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists

# runtime helpers that change a list given to them in place
_CHANGING = (
    runtime.restore_item,
    runtime.unappend,
    runtime.unextend,
    runtime.take_item,
    runtime.add_item,
    runtime.write_back_items,
)


def restores_as_copies(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite the restores of fn's grown lists as copies (module docstring)."""
    order = _statement_order(fn)
    for name in sorted(_grown(fn)):
        restores = _restores(fn, name)
        if restores and _never_changed_after(fn, name, restores, order, external):
            for stmts, k in _places(fn, restores):
                stmts[k] = _copying(stmts[k], name)


def _statement_order(fn: ast.FunctionDef) -> dict[int, int]:
    """id(statement) -> its position in the function's text (depth first)."""
    order: dict[int, int] = {}

    def number(stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            order[id(stmt)] = len(order)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    number(inner)

    number(fn.body)
    return order


def _grown(fn: ast.FunctionDef) -> set[str]:
    return {g for s in walk(fn) if (g := _growth(s)) is not None}


def _growth(stmt: ast.AST) -> str | None:
    """B for `B.append(v)` / `B.extend(v)`, v not mentioning B."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("append", "extend")
        and isinstance(call.func.value, ast.Name)
        and not call.keywords
    ):
        name = call.func.value.id
        if not any(_mentions(a, name) for a in call.args):
            return name
    return None


def _restores(fn: ast.FunctionDef, name: str) -> list[ast.Assign]:
    """`B = S[0]` with S a stack chain (named like one)."""
    return [
        s
        for s in walk(fn)
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == name
        and _is_top(s.value)
    ]


def _is_top(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id.startswith("_stack")
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )


def _never_changed_after(
    fn: ast.FunctionDef,
    name: str,
    restores: list[ast.Assign],
    order: dict[int, int],
    external: dict[str, object],
) -> bool:
    growths = [s for s in walk(fn) if _growth(s) == name]
    first_restore = min(order.get(id(r), -1) for r in restores)
    if any(order.get(id(g), first_restore) >= first_restore for g in growths):
        return False
    restore_ids = {id(r) for r in restores}
    for loop in walk(fn):
        if isinstance(loop, (ast.For, ast.While)):
            inside = {id(n) for n in walk(loop)}
            if inside & restore_ids and any(id(g) in inside for g in growths):
                return False
    growth_calls = {id(g.value.func) for g in growths}
    for node in walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        if (
            isinstance(node, ast.Attribute)
            and _is_name(node.value, name)
            and id(node) not in growth_calls
        ):
            return False  # a method that may change B (B.sort(), B.pop())
        if (
            isinstance(node, ast.Subscript)
            and _is_name(node.value, name)
            and not isinstance(node.ctx, ast.Load)
        ):
            return False  # an item written or deleted
        if isinstance(node, ast.Call) and any(_is_name(a, name) for a in node.args):
            callee = external.get(node.func.id) if isinstance(node.func, ast.Name) else None
            if any(callee is h for h in _CHANGING):
                return False
        if isinstance(node, ast.Assign) and _is_name(node.value, name):
            return False  # another name bound to B's object
        if isinstance(node, (ast.For, ast.comprehension)) and _mentions(node.target, name):
            return False
        if isinstance(node, ast.Delete) and any(_mentions(t, name) for t in node.targets):
            return False
    return True


def _places(fn: ast.FunctionDef, restores: list[ast.Assign]) -> list[tuple[list[ast.stmt], int]]:
    wanted = {id(r) for r in restores}
    return [
        (stmts, k)
        for stmts in statement_lists(fn)
        for k, stmt in enumerate(stmts)
        if id(stmt) in wanted
    ]


def _copying(restore: ast.Assign, name: str) -> ast.If:
    top = restore.value

    def bind(value: ast.expr) -> ast.Assign:
        return ast.copy_location(
            ast.Assign(targets=[ast.Name(name, ast.Store())], value=value), restore
        )

    copy = ast.Call(func=ast.Name("list", ast.Load()), args=[_copy_of(top)], keywords=[])
    test = ast.Compare(left=_copy_of(top), ops=[ast.Is()], comparators=[ast.Constant(None)])
    return ast.copy_location(
        ast.If(test=test, body=[bind(ast.Constant(None))], orelse=[bind(copy)]), restore
    )


def _copy_of(top: ast.Subscript) -> ast.Subscript:
    return ast.Subscript(
        value=ast.Name(top.value.id, ast.Load()), slice=ast.Constant(0), ctx=ast.Load()
    )


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _mentions(node: ast.AST, name: str) -> bool:
    return any(_is_name(n, name) for n in walk(node))
