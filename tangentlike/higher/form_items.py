"""Items of lists written by index in the differentiable form of a generated derivative
module (higher/forms.py): `y[key] = v` into a list or dict the function made is saved
with `saved_item(y, key)` (a pair: whether the key was there, the old item) and undone
with `restore_item(y, key, saved)` (transform/assemble.py, transform/reverse.py). Both
are runtime helpers the second derivative has no rule for; the form spells them out for
a name that is certainly a list, where the key is always there:

    saved_item(L, k)            (True, L[k])
    restore_item(L, k, saved)   L[k] = saved[1]

the same values (L[k] raises as saved_item does), and a write by index into a list the
function made, which the transform follows.

Assumes: the form of a generated function (pushes and pops as stack-chain pairs), run
after `pops_as_rebinding`; `external` its module's names (a copied runtime helper bound
to the helper itself). Guarantees: only calls of `saved_item` / `restore_item` whose
container is a name bound, in the whole function, only to list displays (`L = [...]`)
or `list(...)` of the builtin — no parameter, no other binding, no nested function —
are rewritten; a dict, or a name that may be one, keeps its call (and its refusal).
take_item, which changes the list adjoint it is given, is replaced by its copying twin
(form_lists.copying_helpers).
"""

from __future__ import annotations

import ast

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists


def list_items_spelled_out(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite fn's saved_item / restore_item of names certainly lists (module docstring)."""
    lists = _certain_lists(fn, external.get("list", list) is list)
    if not lists:
        return
    _Saves(external, lists).visit(fn)
    for stmts in statement_lists(fn):
        for k, stmt in enumerate(stmts):
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if (
                call is not None
                and _is_helper_call(call, external, "restore_item")
                and len(call.args) == 3
                and _container(call) in lists
            ):
                y, key, saved = call.args
                target = ast.Subscript(value=ast.Name(y.id, ast.Load()), slice=key, ctx=ast.Store())
                old = ast.Subscript(value=saved, slice=ast.Constant(1), ctx=ast.Load())
                stmts[k] = ast.copy_location(ast.Assign(targets=[target], value=old), stmt)


class _Saves(ast.NodeTransformer):
    """`saved_item(L, k)` as `(True, L[k])` for L in `lists`."""

    def __init__(self, external: dict[str, object], lists: set[str]) -> None:
        self.external, self.lists = external, lists

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            _is_helper_call(node, self.external, "saved_item")
            and len(node.args) == 2
            and _container(node) in self.lists
        ):
            return ast.copy_location(_saved(node), node)
        return node


def _certain_lists(fn: ast.FunctionDef, builtin_list: bool) -> set[str]:
    """Names every binding of which in fn is `name = [...]` (or `name = list(...)`, as
    pops_as_rebinding writes, where `list` is the builtin); none of them a parameter."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    for extra in (fn.args.vararg, fn.args.kwarg):
        if extra is not None:
            params.add(extra.arg)
    kinds: dict[str, bool] = {}
    for node in walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            return set()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return set()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            kinds.setdefault(node.id, False)  # bound some other way, unless seen below
    for node in walk(fn):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            name = node.targets[0].id
            if _makes_list(node.value, builtin_list) and kinds.get(name) is not True:
                kinds[name] = _only_list_displays(fn, name, builtin_list)
    return {n for n, ok in kinds.items() if ok and n not in params}


def _makes_list(value: ast.expr, builtin_list: bool) -> bool:
    """`[...]`, or `list(...)` of one argument where `list` is the builtin."""
    if isinstance(value, ast.List):
        return True
    return (
        builtin_list
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and len(value.args) == 1
        and not isinstance(value.args[0], ast.Starred)
        and not value.keywords
    )


def _only_list_displays(fn: ast.FunctionDef, name: str, builtin_list: bool) -> bool:
    for node in walk(fn):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Del):
            return False
        if isinstance(node, (ast.For, ast.comprehension)) and _binds(node.target, name):
            return False
        if isinstance(node, (ast.With, ast.ExceptHandler, ast.NamedExpr, ast.AugAssign)) and any(
            _binds(t, name) for t in _targets_of(node)
        ):
            return False
        if isinstance(node, (ast.AnnAssign, ast.Import, ast.ImportFrom)):
            return False
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    if len(node.targets) != 1 or not _makes_list(node.value, builtin_list):
                        return False
                elif _binds(target, name):
                    return False  # bound by unpacking
    return True


def _targets_of(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    if isinstance(node, ast.ExceptHandler):
        return [ast.Name(node.name, ast.Store())] if node.name else []
    return [node.target]


def _binds(target: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(target)
    )


def _is_helper_call(node: ast.expr, external: dict[str, object], helper: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and external.get(node.func.id) is getattr(runtime, helper)
        and not node.keywords
    )


def _container(call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    return first.id if isinstance(first, ast.Name) else None


def _saved(call: ast.Call) -> ast.Tuple:
    y, key = call.args
    item = ast.Subscript(value=ast.Name(y.id, ast.Load()), slice=key, ctx=ast.Load())
    return ast.Tuple(elts=[ast.Constant(True), item], ctx=ast.Load())
