"""Writes by index that run only where their base is an array, by the test guarding them.

Generated code updates the array a view was made of under a test of memory sharing
(transform/view_updates.py): `s = same_memory(v, b)` (or `same_array(v, b, ...)`), and
later `if s: ... b[...] = u`. Both helpers are true only of NumPy arrays, so where the
test holds, b is an array. The first-order transform marks such writes `into_array`;
differentiated again (tl.hvp, higher/forms.py), the text of the gradient carries no mark,
and this module finds the same fact in it.

Assumes: A-normal form (gast). Guarantees: `guarded(fn, resolve)` holds id(w) of the
writes `b[k] = u` found at the top of the body of an `if s:` J, where an earlier
statement of the same statement list binds `s = same_memory(x, y)` or
`s = same_array(x, y, ...)` with b one of the names x, y, and neither s nor b is bound
(nor deleted) by any statement after it up to J, nor by one of J's statements before w:
when w runs, s is that test's result, true, and b the same object it tested — an array.
b must be a local of the function, and nothing in it declares a name global or
nonlocal (no call can rebind b unseen); otherwise nothing is found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import gast

from .. import runtime
from ..syntax import nodes
from ..syntax.nodes import walk

_TESTS = (runtime.same_memory, runtime.same_array)


def guarded(fn: gast.FunctionDef, resolve: Callable[[gast.expr], Any]) -> frozenset[int]:
    """id of each write by index that runs only where its base is an array."""
    found: set[int] = set()
    if any(isinstance(n, (gast.Global, gast.Nonlocal)) for n in walk(fn)):
        return frozenset()  # a call might rebind a name between the test and the write
    local = set(nodes.all_param_names(fn)).union(*(_bound(s) for s in fn.body))
    for stmts in _statement_lists(fn.body):
        for j, stmt in enumerate(stmts):
            if not (isinstance(stmt, gast.If) and isinstance(stmt.test, gast.Name)):
                continue
            arrays = _tested(stmts[:j], stmt.test.id, resolve) & local
            if not arrays:
                continue
            for inner in stmt.body:
                if nodes.is_item_write(inner) and nodes.assigned_name(inner) in arrays:
                    found.add(id(inner))
                arrays = arrays - _bound(inner)
                if not arrays:
                    break
    return frozenset(found)


def _tested(before: list[gast.stmt], s: str, resolve: Callable) -> frozenset[str]:
    """The names `s = same_memory(x, y)` (the last statement of `before` binding s)
    tested, less those bound after it; none when s is bound otherwise."""
    changed: set[str] = set()
    for stmt in reversed(before):
        bound = _bound(stmt)
        if s not in bound:
            changed |= bound
            continue
        value = stmt.value if isinstance(stmt, gast.Assign) else None
        if not (
            len(getattr(stmt, "targets", ())) == 1
            and isinstance(stmt.targets[0], gast.Name)
            and isinstance(value, gast.Call)
            and _is_test(resolve(value.func))
            and len(value.args) >= 2
            and not value.keywords
        ):
            return frozenset()
        names = {a.id for a in value.args[:2] if isinstance(a, gast.Name)}
        return frozenset(names - changed - {s})
    return frozenset()


def _is_test(callee: Any) -> bool:
    return any(callee is t for t in _TESTS)


def _bound(stmt: gast.stmt) -> set[str]:
    """Every name stmt binds or deletes, anywhere inside it (a global or nonlocal
    declaration counts as binding its names)."""
    out = set()
    for node in walk(stmt):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            out.add(node.id)
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            out.update(node.names)
    return out


def _statement_lists(stmts: list[gast.stmt]) -> Iterator[list[gast.stmt]]:
    yield stmts
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                yield from _statement_lists(inner)
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _statement_lists(handler.body)
