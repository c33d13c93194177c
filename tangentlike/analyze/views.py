"""Which values are views of a local name (analyze.memory's `View`s).

A view is `name = value` where value is all or part of a local base: `base[index]`,
base itself, `np.transpose(base)`, `np.reshape(base, shape)`, ... (the kinds are in
`View`'s docstring). Of a base certainly no list (`Memory.arrays`) the index kinds
say for certain what the value is. Of a base that may be no array (a tuple's item, a
dict's value, a helper's result) `base[a:b]` and the view-making calls are "maybe"
views: a view where base turns out to be an array sharing its memory, which
transform.view_updates asks at run time (runtime.part_of: a copy, a list's slice of
numbers or a number shares nothing; anything else that shares raises).
Nothing here writes to the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import gast
import numpy as np

from .. import runtime
from ..syntax import nodes

if TYPE_CHECKING:
    from .memory import Memory


@dataclass(frozen=True)
class View:
    """`name = value`, a view of all or part of base (made at `stmt`). Kinds:
    "index": `base[index]`, certainly a view; "item": `base[i, j]` with integers only,
    a view or a number; "expand": `base[..., None]` (None, `...` and integers), a view
    of an array or a new array of a number; "alias": `base` itself; "same": `base`
    itself on one path only (after a join), asked at run time (runtime.same_array); "transpose":
    `np.transpose(base)` (`base.T`); "reshape": `np.reshape(base, shape)` or
    `np.ravel(base)`. The last three are views only when base turns out to be an array
    that the result shares (a number is copied; reshape copies what it cannot view):
    transform.in_place asks at run time (runtime.same_memory). `maybe`: base may be no
    array ("index" with a slice, "transpose", "reshape"): asked at run time by
    runtime.part_of, which raises where the value shares base but is no view of it."""

    base: str
    index: gast.expr | None = field(compare=False)  # "index", "item", "expand" (see value)
    stmt: gast.stmt
    reads: frozenset[str]  # the names the value reads besides base
    kind: str = "index"
    value: gast.expr | None = field(default=None, compare=False)  # stmt + base give both
    maybe: bool = False


def find(
    value: gast.expr,
    m: Memory,
    stmt: gast.stmt,
    locals_: set[str],
    resolve: Callable[[gast.expr], object],
) -> View | None:
    """The view `value` is (of a local base), if any; `resolve`: a callee's object."""
    if isinstance(value, gast.Name):
        if value.id in locals_ and value.id in m.arrays:
            return View(value.id, None, stmt, frozenset(), "alias", value)
        return None
    if isinstance(value, gast.Call):
        return call_view(value, m, stmt, locals_, resolve)
    if not (isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name)):
        return None
    base = value.value.id
    reads = frozenset(nodes.names_read(value.slice))
    if base not in m.arrays:  # a list's slice is a new list: asked at run time
        if base not in locals_ or not _sure_view(value.slice, m.ints):
            return None
        return View(base, value.slice, stmt, reads, "index", value, maybe=True)
    if _sure_view(value.slice, m.ints):
        return View(base, value.slice, stmt, reads, "index", value)
    if _integers(value.slice, m.ints):  # a row (a view) or an element (a number)
        return View(base, value.slice, stmt, reads, "item", value)
    if _new_axes(value.slice, m.ints):  # a view of an array, a new array of a number
        return View(base, value.slice, stmt, reads, "expand", value)
    return None


def call_view(
    call: gast.Call,
    m: Memory,
    stmt: gast.stmt,
    locals_: set[str],
    resolve: Callable[[gast.expr], object],
) -> View | None:
    """`np.transpose(b)`, `np.reshape(b, shape)`, `np.ravel(b)` (no other arguments),
    `iterable(b)` (b itself when b is no dict); of a b that may be no array, "maybe"."""
    if call.keywords or not call.args or not isinstance(call.args[0], gast.Name):
        return None
    base = call.args[0].id
    if base not in locals_:
        return None
    callee = resolve(call.func)
    kind, counts = _VIEW_CALLS.get(callee, (None, ())) if _hashable(callee) else (None, ())
    if kind is None or len(call.args) not in counts:
        return None
    maybe = base not in m.arrays
    if maybe and kind not in ("reshape", "transpose"):
        return None
    reads = frozenset().union(*(nodes.names_read(a) for a in call.args[1:]))
    return View(base, None, stmt, reads, kind, call, maybe=maybe)


def _integers(index: gast.expr, ints: frozenset[str]) -> bool:
    """An index of integers only (`Y[i]`, `Y[0, -1]`): a view or a number."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    return all(_integer(p, ints) for p in parts)


def _new_axes(index: gast.expr, ints: frozenset[str]) -> bool:
    """An index of None, `...` and integers, with a None or `...` (`y[..., None]`,
    `y[None]`, `y[0, ...]`): a view of an array, a new array of a NumPy number."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    axes = [p for p in parts if isinstance(p, gast.Constant) and p.value in (None, Ellipsis)]
    return bool(axes) and all(p in axes or _integer(p, ints) for p in parts)


def _integer(p: gast.expr, ints: frozenset[str]) -> bool:
    if isinstance(p, gast.UnaryOp) and isinstance(p.op, gast.USub):
        p = p.operand
    if isinstance(p, gast.Constant):
        return type(p.value) is int
    return isinstance(p, gast.Name) and p.id in ints


def _sure_view(index: gast.expr, ints: frozenset[str]) -> bool:
    """An index that makes a view of any array it applies to: a slice, and otherwise
    integers, None or `...` (an integer alone may give a number: a copy)."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if not any(isinstance(p, gast.Slice) for p in parts):
        return False
    for p in parts:
        if isinstance(p, gast.Slice):
            continue
        if isinstance(p, gast.Constant) and (
            p.value is None or p.value is Ellipsis or type(p.value) is int
        ):
            continue
        if not (isinstance(p, gast.Name) and p.id in ints):
            return False
    return True


def _hashable(obj: object) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


# View-making calls -> (the View kind, the numbers of positional arguments they may have).
# "reshape" views keep their base's elements in C order (only size-1 axes come or go for
# squeeze, expand_dims, atleast_Nd; none for asarray): written back by np.reshape.
_VIEW_CALLS: dict[object, tuple[str, tuple[int, ...]]] = {
    np.transpose: ("transpose", (1,)),
    np.reshape: ("reshape", (2,)),
    np.ravel: ("reshape", (1,)),
    np.squeeze: ("reshape", (1, 2)),
    np.expand_dims: ("reshape", (2,)),
    np.atleast_1d: ("reshape", (1,)),
    np.atleast_2d: ("reshape", (1,)),
    np.atleast_3d: ("reshape", (1,)),
    np.asarray: ("reshape", (1,)),
    np.asanyarray: ("reshape", (1,)),
    runtime.iterable: ("alias", (1,)),  # `for r in A:` visits A itself
}

# Views (or copies) of their first argument that are arrays, never lists.
ARRAY_VIEWS = frozenset(k for k in _VIEW_CALLS if k is not runtime.iterable)
