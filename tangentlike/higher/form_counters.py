"""Loop counters in the differentiable form of a generated derivative module
(higher/forms.py): a nested loop's index `_i1` is saved on the stack before the inner
loop runs again and restored after it (`_i1 = _stack[0]`). The stack chain holds
differentiated values, so the restore would make the index look differentiated to the
next differentiation, which then asks for the tangent of a `range`'s items.

Assumes: the form of a generated function (pushes and pops as stack-chain pairs).
Guarantees: a name bound only as the target of `for` over a range (`range(...)`,
`reversed(...)` of one, or a name bound only to one, None or its restores), to None, or
by such a restore is an integer or None wherever it is read, and so is a range name;
their restores are wrapped in `stop_gradient`, the identity on values, which tangentlike
differentiates as a constant.
"""

from __future__ import annotations

import ast

from ..runtime import stop_gradient
from ..syntax.nodes import walk

NAME = "stop_gradient"


def counters_as_constants(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Wrap the restores of fn's loop counters in stop_gradient (bound in `external`)."""
    if external.get(NAME, stop_gradient) is not stop_gradient:
        return
    bindings: dict[str, list[ast.AST]] = {}
    for node in walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return
        if isinstance(node, ast.For):
            for target in walk(node.target):
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(node)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in walk(target):
                    if isinstance(name, ast.Name):
                        bindings.setdefault(name.id, []).append(node)
        elif isinstance(node, (ast.Global, ast.Nonlocal, ast.With, ast.ExceptHandler)):
            return
    ranges = {
        n
        for n, made in bindings.items()
        if any(_makes_range(b, n) for b in made)
        and all(_makes_range(b, n) or _is_none(b, n) or _is_restore(b, n) for b in made)
    }
    counters = {
        n
        for n, made in bindings.items()
        if any(isinstance(b, ast.For) for b in made)
        and all(_counts(b, n, ranges) or _is_none(b, n) or _is_restore(b, n) for b in made)
    }
    wrapped = False
    for node in walk(fn):
        if isinstance(node, ast.Assign) and any(_is_restore(node, n) for n in counters | ranges):
            call = ast.Call(func=ast.Name(id=NAME, ctx=ast.Load()), args=[node.value], keywords=[])
            node.value = ast.copy_location(call, node.value)
            wrapped = True
    if wrapped:
        external[NAME] = stop_gradient


def _is_range(node: ast.expr, ranges: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ranges
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id == "range":
            return True
        return (
            node.func.id == "reversed" and len(node.args) == 1 and _is_range(node.args[0], ranges)
        )
    return False


def _makes_range(node: ast.AST, name: str) -> bool:
    """`name = range(...)`."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
        and _is_range(node.value, set())
    )


def _counts(node: ast.AST, name: str, ranges: set[str]) -> bool:
    """`for name in <a range>:`."""
    return (
        isinstance(node, ast.For)
        and isinstance(node.target, ast.Name)
        and node.target.id == name
        and _is_range(node.iter, ranges)
    )


def _is_none(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
    )


def _is_restore(node: ast.AST, name: str) -> bool:
    """`name = S[0]`, a pop from a stack chain (`S` named like a stack)."""
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
        and isinstance(node.value, ast.Subscript)
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id.startswith("_stack")
        and isinstance(node.value.slice, ast.Constant)
        and node.value.slice.value == 0
    )
