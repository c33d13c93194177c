"""Indexed adjoint updates in place where no other name can see the array.

`b = add_item(b, x, i, g)` adds g into a new array (the runtime helper must: b may be
shared). In a lowered function, a variable `b` that only ever holds arrays no other
variable refers to may be updated in place (`add_item_inplace`: `b[i] += g`), which
turns an O(len) copy per loop step into O(1).

Assumes: a lowered function (stacks.py ran: saves are list appends). Guarantees: a
variable is updated in place only if it is not a parameter, every value assigned to
it is new (a kernel that allocates: add_item, zeros_of, zeros_like, unsubscript; an
arithmetic expression; a constant), and every read of it is the first argument of
its own `add_item` update, an operand of arithmetic (which makes a new array), or in
the return statement: then no other name, list or call result ever refers to its
array, so writing into it changes nothing else.
"""

from __future__ import annotations

import ast

from ..syntax.nodes import walk
from .context import Module, load

_FRESH_KERNELS = {"add_item", "add_item_inplace", "unsubscript", "zeros_of", "zeros_like"}


def run(fn: ast.FunctionDef, module: Module) -> None:
    """Make each `b = add_item(b, ...)` of `fn` whose `b` qualifies update in place."""
    updates = [node for node in walk(fn) if _update_of(node, module) is not None]
    if not updates:
        return
    params = {a.arg for a in fn.args.args}
    parents = {id(c): p for p in walk(fn) for c in ast.iter_child_nodes(p)}
    owned = {
        name
        for name in {_update_of(node, module) for node in updates}
        if name not in params and _owned(fn, name, module, parents)
    }
    for node in updates:
        if _update_of(node, module) in owned:
            node.value.func = load(module.numpy_kernel("add_item_inplace"))


def _kernel(call: ast.AST, module: Module) -> str | None:
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
        return module.helpers.get(call.func.id)
    return None


def _update_of(node: ast.AST, module: Module) -> str | None:
    """`b` of `b = add_item(b, ...)`, else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return None
    target, value = node.targets[0], node.value
    if not (isinstance(target, ast.Name) and _kernel(value, module) == "add_item"):
        return None
    first = value.args[0] if value.args else None
    return target.id if isinstance(first, ast.Name) and first.id == target.id else None


def _owned(fn: ast.FunctionDef, name: str, module: Module, parents: dict) -> bool:
    """Whether no name but `name` ever refers to the arrays `name` holds in `fn`."""
    return not any(_shares(node, name, module, parents) for node in walk(fn))


def _shares(node: ast.AST, name: str, module: Module, parents: dict) -> bool:
    """Whether `node` may give `name` an array seen elsewhere, or let another see it."""
    if isinstance(node, ast.Assign) and any(_binds(t, name) for t in node.targets):
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return True  # unpacked from a tuple: who else holds it is unknown
        return not _fresh(node.value, module)
    if isinstance(node, (ast.For, ast.With, ast.AnnAssign)):
        return _binds(node, name)
    if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
        return not _read_allowed(node, name, module, parents)
    return False


def _binds(node: ast.AST, name: str) -> bool:
    target = getattr(node, "target", node)
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(target)
    )


def _fresh(value: ast.expr, module: Module) -> bool:
    if isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Constant)):
        return True
    return _kernel(value, module) in _FRESH_KERNELS


def _read_allowed(node: ast.Name, name: str, module: Module, parents: dict) -> bool:
    parent = parents.get(id(node))
    if isinstance(parent, (ast.BinOp, ast.UnaryOp)):
        return True
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
        assigned = parents.get(id(parent))
        return _update_of(assigned, module) == name
    while parent is not None and not isinstance(parent, ast.stmt):
        parent = parents.get(id(parent))
    return isinstance(parent, ast.Return)
