"""Loops over a list in the differentiable form of a generated derivative module
(higher/forms.py). A generated gradient visits a list through another name,
`_seq = iterable(xs)` (xs itself), and its backward sweep reads `_seq` again after
undoing the appends made to xs after the loop (`xs.pop()`, transform/container_checks.
restored): through the shared object, `_seq` has the items it had while the loop ran.
The form restores xs by rebinding (`xs = list(xs[:-1])`, form_lists.pops_as_rebinding),
which leaves the object `_seq` holds as long as it grew; so the form visits a copy:

    _seq = iterable(xs)        ->      _seq = list(xs)

the items xs has when the loop starts, which are the items `_seq` has wherever the
gradient reads it: nothing grows or writes into xs while a loop over it runs, nor
writes into it after one (transform/container_checks.py, transform/container_writes.py
refuse both in the code differentiated), and the appends after the loop are undone
before the backward sweep reads `_seq`.

Assumes: the form of a generated function, after `pops_as_rebinding`; `external` its
module's names. Guarantees: only `_seq = iterable(xs)` with xs a name the function
shortens by a rebinding pop and binds only to lists (form_items.certain_lists), with
`list` and `iterable` the builtin and the runtime helper, is rewritten.
"""

from __future__ import annotations

import ast

from .. import runtime
from ..syntax.nodes import walk
from .form_items import certain_lists
from .form_lists import is_rebinding_pop


def loops_over_copies(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite fn's `_seq = iterable(xs)` as `_seq = list(xs)` (module docstring)."""
    if external.get("list", list) is not list:
        return
    stmts = [n for n in walk(fn) if isinstance(n, ast.stmt)]
    popped = {
        s.targets[0].id
        for s in stmts
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and is_rebinding_pop(s, s.targets[0].id)
    }
    if not popped:
        return
    lists = certain_lists(fn, external) & popped
    for stmt in stmts:
        value = stmt.value if isinstance(stmt, ast.Assign) else None
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and external.get(value.func.id) is runtime.iterable
            and len(value.args) == 1
            and not value.keywords
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id in lists
        ):
            value.func = ast.copy_location(ast.Name("list", ast.Load()), value.func)
