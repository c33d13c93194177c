"""Whether a name may hold a 0-d ndarray where a statement runs.

NumPy hands back a NumPy scalar, never a 0-d array, from arithmetic (`a * x`, `-a`),
from a ufunc called without `out=` and from a whole-array reduction without
`keepdims` or `out=`; a 0-d array comes only from elsewhere (`np.array(2.0)`,
`np.ones(())`, `a[...]`, an argument, a call returning its argument). An update
`z op= v` lowered out of place (`z = z op v`) turns a 0-d array into a NumPy scalar,
which a later update through another name no longer reaches (transform/in_place.py
keeps it one with `runtime.updated`); where z certainly holds no 0-d array, the plain
rebinding is already right.

Assumes: analyze.aliases ran on the function (its `made`: the statements that may
have bound a name last; an update in place binds nothing new).
Guarantees: `may_be_0d` is False only when every statement that may have bound the
name last binds it to a number, a NumPy scalar or an array of at least one dimension
(or copies another name for which that holds there), or the name is a parameter
`not_0d` lists (passed a Python number, or an ndarray of known dimensions).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import gast
import numpy as np

from .. import runtime
from .aliases import Aliases
from .numeric import ARITHMETIC

# Whole-array reductions: a NumPy scalar without `axis`, `keepdims` or `out=`.
_REDUCTIONS = frozenset(
    {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.std, np.var, np.median}
)
_NUMBER_BUILTINS = frozenset({float, int, complex, bool, len, round, abs, sum})


def may_be_0d(
    aliases: Aliases,
    stmt: gast.stmt,
    name: str,
    resolve: Callable[[gast.expr], object],
    not_0d: frozenset[str] = frozenset(),
) -> bool:
    """Whether `name` may hold a 0-d ndarray when `stmt` runs (see the module doc)."""
    return _may(aliases, stmt, name, resolve, not_0d, set())


def _may(aliases, stmt, name, resolve, not_0d, seen: set[tuple[int, str]]) -> bool:
    if (id(stmt), name) in seen:  # a cycle of copies adds no binding of its own
        return False
    seen.add((id(stmt), name))
    memory = aliases.before.get(id(stmt))
    if memory is None:
        return True
    made = memory.made.get(name)
    if not made:  # never bound in the function: a parameter (or a global)
        return name not in not_0d or name not in aliases.params
    for site in made:
        binding = aliases.statements.get(site)
        if not (
            isinstance(binding, gast.Assign)
            and len(binding.targets) == 1
            and isinstance(binding.targets[0], gast.Name)
        ):
            return True
        value = _copied(binding.value, resolve)
        if isinstance(value, gast.Name):
            if _may(aliases, binding, value.id, resolve, not_0d, seen):
                return True
        elif not _never_0d(value, resolve):
            return True
    return False


def _copied(value: gast.expr, resolve: Callable[[gast.expr], object]) -> gast.expr:
    """The name a copy copies (`np.copy(a)`, `a.copy()`, the entry copy of an argument:
    a copy of a 0-d array is one), else value itself."""
    if not isinstance(value, gast.Call) or value.keywords:
        return value
    func = value.func
    if (
        isinstance(func, gast.Attribute)
        and func.attr == "copy"
        and isinstance(func.value, gast.Name)
        and not value.args
    ):
        return func.value
    first = value.args[0] if value.args else None
    if isinstance(first, gast.Name) and _resolved(func, resolve) in (np.copy, runtime.entry_copy):
        return first
    return value


def _resolved(func: gast.expr, resolve: Callable[[gast.expr], object]) -> object:
    try:
        return resolve(func)
    except Exception:  # an unresolvable callee proves nothing
        return None


def _never_0d(value: gast.expr, resolve: Callable[[gast.expr], object]) -> bool:
    """A value NumPy never makes a 0-d ndarray of."""
    if isinstance(value, (gast.Constant, gast.Compare)):
        return True
    if isinstance(value, gast.BinOp):
        return isinstance(value.op, ARITHMETIC)
    if isinstance(value, gast.UnaryOp):
        return isinstance(value.op, (gast.USub, gast.UAdd, gast.Not))
    if isinstance(value, gast.Call):
        if any(k.arg in ("out", "keepdims", "axis") or k.arg is None for k in value.keywords):
            return False
        callee = _resolved(value.func, resolve)
        if isinstance(callee, np.ufunc):
            return len(value.args) <= callee.nin  # no positional `out`
        if not isinstance(callee, Hashable):
            return False
        if callee in _NUMBER_BUILTINS:
            return True
        return callee in _REDUCTIONS and len(value.args) == 1
    return False
