"""Containers read only at constant keys (`D['a']`, `L[-1]`), for the checks of updates.

An update in place whose memory a list or dict read afterwards may hold is checked at
run time (runtime.untouched, runtime.unshared): it must share nothing with what the
container holds. Where the function reads the container only by constant keys, only
the items at those keys can be read afterwards, so only they need share nothing
(runtime.items_at picks them when the check runs): in `D = {'a': y / 2.0, 'b': y}`,
`y += x`, `return np.sum(D['a'])`, D['b'] is y, but never read.

Assumes: A-normal form. Guarantees: `keyed_reads` never writes to the tree; a name it
returns is never read any other way in the whole function: not passed, iterated,
aliased, deleted from, sliced, nor a method's object (nothing can move its items to
other keys: an item write at a constant key keeps the others where they are).
"""

from __future__ import annotations

import gast

from ..syntax import nodes
from ..syntax.nodes import walk

_KEYS = (int, str, bool, float)


def keyed_reads(fn: gast.FunctionDef) -> dict[str, tuple]:
    """Local name -> the constant keys the function reads it at, for the names it reads
    only so (and binds, or writes an item into at a constant key)."""
    params = set(nodes.all_param_names(fn))
    keys: dict[str, set] = {}
    other: set[str] = set(params)
    inside: set[int] = set()  # ids of the Names inside a constant-key subscript
    for node in walk(fn):
        if not isinstance(node, gast.Subscript) or not isinstance(node.value, gast.Name):
            continue
        key = node.slice
        if not (isinstance(key, gast.Constant) and type(key.value) in _KEYS):
            continue
        if isinstance(node.ctx, gast.Load):
            keys.setdefault(node.value.id, set()).add(key.value)
            inside.add(id(node.value))
        elif isinstance(node.ctx, gast.Store):  # `D['c'] = v`: the other items stay put
            inside.add(id(node.value))
    bound: set[str] = set()
    for node in walk(fn):
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            other.add(node.target.id)  # `L += [w]`: w now at L[-1]
        if not isinstance(node, gast.Name) or id(node) in inside:
            continue
        if isinstance(node.ctx, gast.Store):
            bound.add(node.id)  # a new container bound: its reads are the keyed ones
            continue
        other.add(node.id)  # read whole, deleted, ...
    return {
        name: tuple(sorted(found, key=repr))
        for name, found in keys.items()
        if name in bound and name not in other
    }
