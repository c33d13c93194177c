"""The names a statement reads for their shape only: what a write into an array leaves alone.

A write into an array's memory (`y[i] = v`, `y[...] = v`, `y op= v` in place) changes
its values, never its shape, dtype or size; a name sharing that memory and read
afterwards only through `np.shape(w)`, `w.shape` (`.ndim`, `.size`, `.dtype`),
`np.zeros_like(w)` (`ones_like`, `empty_like`), or as the shape argument of the
gradient's helpers (`unbroadcast(g, w)`, `spread(g, w)`, `zeros_of(w)`,
`gradient_like(b, w, name)`, `unsubscript(g, w, k)`, `add_item(b, w, k, g)`,
`part(b, k, w)`, `unadd(g, w, v)`, the items of `unconcatenate_index(g, c, (w, v))`:
the generated gradient reads most primal values there, which its differentiable form
then sees; `same_view(w, ...)` reads w's address and strides, `shape_kept(w)` its
shape; the run-time checks of updates, `same_memory`, `same_array`, `part_of`,
`untouched`, `unshared`, read only what memory w holds, never its values) sees nothing
of it. (The container of an item write, `w[k] = v`, is not such a read: the write goes
through w into the memory it shares, which the lowering of writes before it must know.)

Assumes: A-normal form; `scope` resolves the calls' functions. Guarantees: `shape_only`
returns the names every one of whose loads in the statement is in such a position (a
name also read as a value anywhere in it is not one); it never writes to the tree.
Only writes into what is certainly an array may ignore these reads (analyze.aliases):
a list's item write can change the shape of what holds the list.
"""

from __future__ import annotations

import gast
import numpy as np

from .. import runtime
from ..parse.resolve import Scope
from ..syntax.nodes import subtree

# Functions whose listed positional arguments are read for their shape and dtype only.
_SHAPE_ARGUMENTS: dict[object, tuple[int, ...]] = {
    np.shape: (0,),
    np.ndim: (0,),
    np.size: (0,),
    np.zeros_like: (0,),
    np.ones_like: (0,),
    np.empty_like: (0,),
    runtime.unbroadcast: (1,),
    runtime.spread: (1,),
    runtime.zeros_of: (0,),
    runtime.gradient_like: (1,),
    runtime.unsubscript: (1,),
    runtime.add_item: (1,),
    runtime.part: (2,),
    runtime.same_view: (0,),
    runtime.shape_kept: (0,),
    runtime.unconcatenate_index: (2,),
    runtime.unadd: (1, 2),
    runtime.same_memory: (0, 1),
    runtime.same_array: (0, 1, 3),
    runtime.part_of: (0, 1),
    runtime.untouched: (0, 1, 3),
    runtime.unshared: (0, 1),
}
_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})


def shape_only(stmt: gast.stmt, scope: Scope) -> frozenset[str]:
    """The names stmt reads only for their shape (see the module's docstring)."""
    shaped: set[int] = set()  # id() of the Name nodes in a shape position
    for node in subtree(stmt):
        if isinstance(node, gast.Attribute) and node.attr in _SHAPE_ATTRIBUTES:
            if isinstance(node.value, gast.Name) and isinstance(node.ctx, gast.Load):
                shaped.add(id(node.value))
        elif isinstance(node, gast.Call) and _plain_keywords(node):
            for k in _positions(node, scope):
                arg = node.args[k] if k < len(node.args) else None
                for item in arg.elts if isinstance(arg, (gast.Tuple, gast.List)) else [arg]:
                    if isinstance(item, gast.Name):  # (a tuple of such: each item)
                        shaped.add(id(item))
    if not shaped:
        return frozenset()
    value, shape = set(), set()
    for node in subtree(stmt):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            (shape if id(node) in shaped else value).add(node.id)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            value.add(node.target.id)
    return frozenset(shape - value)


def _plain_keywords(call: gast.Call) -> bool:
    """A call whose keywords give no value but a dtype (`dtype=float`)."""
    return all(k.arg == "dtype" for k in call.keywords)


def _positions(call: gast.Call, scope: Scope) -> tuple[int, ...]:
    if any(isinstance(a, gast.Starred) for a in call.args):
        return ()
    try:
        callee = scope.resolve(call.func)
        return _SHAPE_ARGUMENTS.get(callee, ())
    except TypeError:  # an unhashable object
        return ()
