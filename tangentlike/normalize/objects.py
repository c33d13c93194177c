"""User objects indexed in a function: which locals hold one, and how `obj[k]` calls
its class's `__getitem__` (normalize.methods rewrites the subscript with these).

Guarantees: `constructed(fn, scope)` maps a local to a user class only if every binding
of that local is an assignment `name = Class(...)` of that one class (any other binding:
a loop or tuple target, `op=`, a parameter, disqualifies it); `getitem(cls)` is the
plain function behind `cls.__getitem__` when it is a `def`, else None;
`index_value(index, slice_name)` is a subscript's index as the value `__getitem__`
receives (slices as `slice(...)` calls).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import gast

from ..parse.resolve import Scope, primal_of, user_class
from ..syntax import nodes
from ..syntax.nodes import walk


def constructed(fn: gast.FunctionDef, scope: Scope) -> dict[str, type]:
    stores: dict[str, int] = {}
    made: dict[str, list[object]] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param)):
            stores[node.id] = stores.get(node.id, 0) + 1
        if (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
        ):
            call = node.value
            cls = scope.resolve(call.func) if isinstance(call, gast.Call) else None
            made.setdefault(node.targets[0].id, []).append(cls)
    return {
        name: classes[0]
        for name, classes in made.items()
        if len(classes) == stores[name]
        and len(set(map(id, classes))) == 1
        and isinstance(classes[0], type)
        and user_class(classes[0])
    }


def getitem(cls: type) -> Callable | None:
    method = primal_of(inspect.getattr_static(cls, "__getitem__", None))
    return method if inspect.isfunction(method) else None


def index_value(index: gast.expr, slice_name: Callable[[], str]) -> gast.expr:
    if isinstance(index, gast.Slice):
        parts = [index.lower, index.upper, index.step]
        args = [p if p is not None else nodes.const(None) for p in parts]
        return nodes.call(nodes.name(slice_name()), args)
    if isinstance(index, gast.Tuple):
        return nodes.tuple_([index_value(e, slice_name) for e in index.elts])
    return index
