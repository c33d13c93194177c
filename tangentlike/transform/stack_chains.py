"""Lists and dicts a gradient's differentiable form parks on its own stack chain while
the name holding them is bound to another one (for transform/container_writes.py, at
second order).

A generated gradient that rebinds a list or dict it writes into (`L = [...]` in a loop)
saves the old object before the rebinding and restores it by a pop in its backward
sweep, where it undoes the writes into it. In the differentiable form (higher/forms.py,
higher/form_items.py) and its A-normal form:

    _stack2 = (L, _stack)               a push of L (the object L holds, or None)
    _stack = _stack2
    L = [y, x]                          L rebound: the pushed object is held by the
    ...                                 chain alone
    _t = _stack[0]                      a pop of L's pushes (analyze/stack_entries.py),
    L = popped_list(_t, '...')          checked to be a list or None (runtime/forms.py)
    _stack = _stack[1]

The object goes into the chain and comes back to L, like `T = L; L = [...]; ...; L = T`
with T read nowhere else: the chain's entry is read only by the pop into L (the
generated code pops each site's push into the name it pushed, which is what
analyze/stack_entries.py assumes), the chain's tuples are never changed, and while the
object is parked L holds another one (the push is made for a rebinding of L, which is
checked to follow it before anything but a read of L's items; a pop of L between them
returns an object pushed after it), so nothing writes into it there.

Assumes: A-normal form; `ctx.fn` a function of a differentiable form (`S = None` chains
of its own, analyze/stack_entries.py). Guarantees: `Parked.pops` maps a pop binding L
as above (L pushed on that chain, the temporary `_t` read only there) to the kind its
check ensures; `Parked.pushes` maps a push `T = (L, S)` to {L} for an L that such pops
bind and that is rebound after it as said: no other holder of L's object in the sense
of container_writes. Nothing outside a differentiable form is recognised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gast

from .. import runtime
from ..analyze.stack_entries import StackEntries
from ..parse import form_words
from ..syntax.nodes import walk
from .containers import statements

_KINDS = {runtime.popped_list: "list", runtime.popped_dict: "dict"}


@dataclass
class Parked:
    pops: dict[int, str] = field(default_factory=dict)  # id(`L = popped_list(_t, ..)`) -> kind
    pushes: dict[int, set[str]] = field(default_factory=dict)  # id(`T = (L, S)`) -> {L}


def parked_containers(ctx: Any) -> Parked:
    """The checked pops and the pushes of the lists and dicts a form parks on its chain."""
    found = Parked()
    if not form_words.in_form(ctx.parsed):
        return found
    entries = StackEntries(ctx.fn, ctx.scope.resolve)
    if not entries.chains:
        return found
    reads = _reads(ctx.fn)
    for stmts in _statement_lists(ctx.fn):
        for k, stmt in enumerate(stmts[:-1]):
            name, after = entries.restored(stmt), stmts[k + 1]
            kind = _checked_pop(ctx, after, name, stmt)
            if kind is not None and reads.get(stmt.targets[0].id, 0) == 1:
                found.pops[id(after)] = kind
    popped = {s.targets[0].id for s in statements(ctx.fn.body) if id(s) in found.pops}
    for stmts in _statement_lists(ctx.fn):
        for k, stmt in enumerate(stmts):
            for key in entries.pushed(stmt) if isinstance(stmt, gast.Assign) else []:
                name = stmt.value.elts[0].id
                if name in popped and key.endswith(f"[{name}]") and _rebound(stmts, k, name):
                    found.pushes.setdefault(id(stmt), set()).add(name)
    return found


def _rebound(stmts: list[gast.stmt], k: int, name: str) -> bool:
    """Whether the push stmts[k] of `name` is followed, in its own block, by a binding
    `name = ...` before any other use of name than reading its items (`L[1]`): so nothing
    writes into the object pushed before name holds another one."""
    for stmt in stmts[k + 1 :]:
        if (
            isinstance(stmt, gast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name)
            and stmt.targets[0].id == name
        ):
            return not _uses(stmt.value, name)
        if _uses(stmt, name):
            return False
    return False


def _uses(node: gast.AST, name: str) -> bool:
    """Whether `node` uses `name` otherwise than reading one of its items, `name[k]`."""
    items = {
        id(n.value)
        for n in walk(node)
        if isinstance(n, gast.Subscript)
        and isinstance(n.ctx, gast.Load)
        and isinstance(n.value, gast.Name)
    }
    return any(isinstance(n, gast.Name) and n.id == name and id(n) not in items for n in walk(node))


def stand_in(kind: str) -> gast.expr:
    """An empty display of `kind`: what a checked pop counts as among a name's bindings."""
    return gast.List(elts=[], ctx=gast.Load()) if kind == "list" else gast.Dict([], [])


def _checked_pop(ctx: Any, stmt: gast.stmt, name: str | None, pop: gast.stmt) -> str | None:
    """The kind `name = popped_list(T, ...)` / `popped_dict` checks, T the pop's target."""
    if not (
        name is not None
        and isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
        and stmt.targets[0].id == name
        and isinstance(stmt.value, gast.Call)
        and len(stmt.value.args) == 2
        and isinstance(stmt.value.args[0], gast.Name)
        and stmt.value.args[0].id == pop.targets[0].id
        and not stmt.value.keywords
    ):
        return None
    callee = ctx.scope.resolve(stmt.value.func)
    return _KINDS.get(callee) if _hashable(callee) else None


def _hashable(obj: object) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _reads(fn: gast.FunctionDef) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
    return counts


def _statement_lists(fn: gast.FunctionDef):
    yield fn.body
    for node in walk(fn):
        if node is fn:
            continue
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                yield block
