"""Parameters the function rebinds to a list or dict of its own (`p = dict(p)`).

`def f(p, x): p = dict(p); p["w"] = p["w"] * x; ...` writes into the function's own
shallow copy of the caller's dict: the caller's dict, and the arrays it holds, stay as
they were. A plain write by index or key into such a name (not `p[k] op= v`, which
changes the item itself) changes that container only.

Assumes: A-normal form (`dict(p)` may be written `dict_of(keys, values)` by then).
Guarantees: `rebound(fn, scope)` maps a parameter p to the ids of the statements that
run after its rebinding, only where a statement of the body's top level (run on every
path, before any other binding of p) binds p to a new list or dict and every other
binding of p does too; a write into p at such a statement never reaches the caller's
container.
"""

from __future__ import annotations

import builtins

import gast

from .. import runtime
from ..parse.resolve import Scope
from ..syntax import nodes
from ..syntax.nodes import walk

_DISPLAYS = (gast.List, gast.Dict, gast.ListComp, gast.DictComp)
_MAKERS = (builtins.list, builtins.dict)


def rebound(fn: gast.FunctionDef, scope: Scope) -> dict[str, frozenset[int]]:
    """Parameter -> ids of the statements after its top-level rebinding (see above)."""
    params = set(nodes.param_names(fn))
    stores: dict[str, list[gast.AST]] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stores.setdefault(node.id, []).append(node)
    values = {
        id(s.targets[0]): s.value
        for s in walk(fn)
        if isinstance(s, gast.Assign) and len(s.targets) == 1
    }
    loads: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            loads[node.id] = loads.get(node.id, 0) + 1

    def new(value: gast.expr | None, seen: frozenset[str] = frozenset()) -> bool:
        if isinstance(value, gast.Name):  # `_xs1 = list(xs); xs = _xs1`: handed over
            made = stores.get(value.id, [])
            if value.id in seen:  # `t = p; p = t`: a cycle of copies makes nothing new
                return False
            return (
                len(made) == 1
                and loads.get(value.id) == 1
                and new(values.get(id(made[0])), seen | {value.id})
            )
        return new_container(value, scope)

    found: dict[str, frozenset[int]] = {}
    for p in sorted(params & stores.keys()):
        if not all(new(values.get(id(t))) for t in stores[p]):
            continue  # a loop target, an unpacked tuple's part, another value
        for k, top in enumerate(fn.body):
            if p in nodes.names_stored(top):
                if isinstance(top, gast.Assign) and isinstance(top.targets[0], gast.Name):
                    found[p] = frozenset(id(s) for s in walk(gast.Module(fn.body[k + 1 :], [])))
                break
    return found


def new_container(value: gast.expr | None, scope: Scope) -> bool:
    """Whether `value` certainly makes a new list or dict."""
    if isinstance(value, _DISPLAYS):
        return True
    if not isinstance(value, gast.Call):
        return False
    callee = scope.resolve(value.func)
    return any(callee is m for m in (*_MAKERS, runtime.dict_of, runtime.own_container))
