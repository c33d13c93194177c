"""Indexed updates of fresh adjoint arrays undone in the differentiable form: `b[i] += g`
back to `b = b + unsubscript(g, x, i)`.

optimize/fresh.py writes `b = b + unsubscript(g, x, i)` as `b[i] += g` where b holds the
array `b = unsubscript(_, x, _)` just made (the same values, one array fewer). Read
again, the in-place write into b is one the second derivative cannot follow: b comes
from a runtime helper whose result may be a list adjoint (x a list), so it is refused as
a write into a list the function did not make. The form spells it out of place again.

Assumes: the text of a generated function, `external` its module's names (a copied
runtime helper bound to the helper itself). Guarantees: only an update `b[i] += g` whose
statement list's previous statement is `b = unsubscript(_, x, _)` or such an update is
rewritten, into exactly the update optimize/fresh.py rewrote; anything else unchanged.
"""

from __future__ import annotations

import ast

from .. import runtime
from .form_lists import statement_lists


def fresh_updates_out_of_place(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite fn's updates of fresh `unsubscript` arrays (see the module docstring)."""
    for stmts in statement_lists(fn):
        fresh: tuple[str, str, str] | None = None  # (b, x, the helper's name) after b = U(...)
        for k, stmt in enumerate(stmts):
            made = _made(stmt, external)
            if made is not None:
                fresh = made
                continue
            if fresh is not None and _updates(stmt, fresh[0]):
                b, x, helper = fresh
                call = ast.Call(
                    func=ast.Name(helper, ast.Load()),
                    args=[stmt.value, ast.Name(x, ast.Load()), _index(stmt.target.slice)],
                    keywords=[],
                )
                value = ast.BinOp(left=ast.Name(b, ast.Load()), op=ast.Add(), right=call)
                new = ast.Assign(targets=[ast.Name(b, ast.Store())], value=value, lineno=0)
                stmts[k] = ast.copy_location(new, stmt)
                continue
            fresh = None


def _made(stmt: ast.stmt, external: dict[str, object]) -> tuple[str, str, str] | None:
    """(b, x, the helper's name) of `b = unsubscript(g, x, index)`."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and external.get(stmt.value.func.id) is runtime.unsubscript
        and len(stmt.value.args) == 3
        and isinstance(stmt.value.args[1], ast.Name)
    ):
        return None
    return stmt.targets[0].id, stmt.value.args[1].id, stmt.value.func.id


def _updates(stmt: ast.stmt, b: str) -> bool:
    """Whether stmt is `b[index] += g`."""
    return (
        isinstance(stmt, ast.AugAssign)
        and isinstance(stmt.op, ast.Add)
        and isinstance(stmt.target, ast.Subscript)
        and isinstance(stmt.target.value, ast.Name)
        and stmt.target.value.id == b
    )


def _index(index: ast.expr) -> ast.expr:
    """A subscript's index as a value: `a:b:c` as `slice(a, b, c)`, tuples item by item."""
    if isinstance(index, ast.Slice):
        parts = [
            p if p is not None else ast.Constant(None)
            for p in (index.lower, index.upper, index.step)
        ]
        return ast.Call(func=ast.Name("slice", ast.Load()), args=parts, keywords=[])
    if isinstance(index, ast.Tuple):
        return ast.Tuple(elts=[_index(e) for e in index.elts], ctx=ast.Load())
    return index
