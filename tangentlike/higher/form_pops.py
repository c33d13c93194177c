"""Pops into arrays written by index, checked, in the differentiable form of a generated
derivative module (higher/forms.py).

Generated code saves an array on its stack before rebinding it and restores it by a pop
(`_push(v1)`, `v1 = ...`, later `v1 = _pop()`); the same name is written into by index
(`v1[2:3] = ...`, or its restore `v1[2:3] = _pop()`). A pop returns exactly what its
push saved: the array v1 held. The text does not show which push a pop pairs with, so
differentiating the form again would count the popped value as anything (a list, whose
item writes it refuses). The form states the fact and checks it where it is used:

    v1 = _stack[0]      ->      v1 = popped_array(_stack[0], '...')

`popped_array` (runtime/forms.py) returns its value when it is an array, a number (a
name rebound out of place on the paths where it holds no array: `if _array1: x[...] =
v else: x = v`) or None (the name's value before its first binding, prebound by the
form), and raises otherwise:
whatever the pairing, the name holds no container after the pop, which is what
transform/containers.py `may_hold_container` reads from it; its rules are the identity.

Assumes: the form of a generated function (after `restores_as_copies`). Guarantees: only
`X = S[0]` pops (S a stack chain) into a name X that the function writes into by index
are rewritten, and they bind the same value or raise.
"""

from __future__ import annotations

import ast

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists

HELPER = "popped_array"


def pops_into_arrays_checked(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite the pops of fn into names it writes into by index (module docstring)."""
    written = _written_by_index(fn)
    if not written:
        return
    found = False
    for stmts in statement_lists(fn, nested=False):
        for stmt in stmts:
            target = _popped_name(stmt)
            if target is not None and target in written:
                what = (
                    f"the differentiable form of {fn.name} restores {target!r} from its "
                    "stack as an array or a number, which it writes into by index, and "
                    "got a container: differentiate the original function instead"
                )
                stmt.value = ast.Call(
                    func=ast.Name(HELPER, ast.Load()),
                    args=[stmt.value, ast.Constant(what)],
                    keywords=[],
                )
                found = True
    if found:
        external[HELPER] = runtime.popped_array


def _written_by_index(fn: ast.FunctionDef) -> set[str]:
    return {
        t.value.id
        for node in walk(fn)
        if isinstance(node, (ast.Assign, ast.AugAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
    }


def _popped_name(stmt: ast.stmt) -> str | None:
    """X for `X = S[0]`, S named like a stack chain."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return None
    return stmt.targets[0].id if top_of_chain(stmt.value) else None


def top_of_chain(value: ast.expr) -> bool:
    """Whether `value` is `S[0]`, the value on top of a stack chain S (named `_stack...`)."""
    return (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id.startswith("_stack")
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )
