"""`L[k] op= v` where L may be a list or dict (transform/in_place.py lowers it).

Python runs `L[k].__iop__(v)`: an array item changes in place, so every name holding
that array sees the new values. The lowering is `L[k] = L[k] op v` (a new array N)
and, for each name read afterwards that may share the item's memory, `n = N` where
n is the old array itself (`n is _old`, an array: a number is not changed in place,
even when n is the very float object the slot held): every holder sees N, which has the values
the array would have. `runtime.numeric_item` checks at run time that nothing else
read afterwards holds or shares the old array (a view of it, another slot of L,
another container): then the lowering is what runs; otherwise it raises, located.

Assumes: A-normal form, `live` from analyze.aliases (None: an argument's or a
global's array may be the item, whose change the caller sees: any array refused).
Guarantees: the update statement is kept; statements before it check, after it
rebind.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from .adjoints import index_expr


def lowered(
    stmt: gast.Assign,
    y: str,
    what: str,
    live: list[str] | None,
    namespace: Namespace,
    namer: Namer,
    kept: bool = False,
) -> list[gast.stmt]:
    """The check, `stmt` (`y[k] = <new value>`), and the rebinding of the names in
    `live` (other than y) that held the old item. `kept`: a later write in place may
    reach the item, so a 0-d array item stays an array (`runtime.updated`)."""
    target = stmt.targets[0]
    helper = nodes.name(namespace.bind("numeric_item", runtime.numeric_item, namer))
    args = [nodes.name(y), index_expr(target.slice), nodes.const(what)]
    names = [n for n in live or () if n != y]
    if live is not None:
        args.append(nodes.tuple_([nodes.name(n) for n in live]))
    if names:
        args.append(nodes.tuple_([nodes.name(n) for n in names]))
    out: list[gast.stmt] = [nodes.expr_stmt(nodes.call(helper, args))]
    old = namer.temp(y + "_old")
    if names or kept:
        read = gast.Subscript(
            value=nodes.name(y), slice=nodes.deepcopy(target.slice), ctx=gast.Load()
        )
        out.insert(0, nodes.assign(old, read))
    if kept and isinstance(stmt.value, gast.Name):
        new = namer.temp(y)
        keep = nodes.name(namespace.bind("updated", runtime.updated, namer))
        out.append(nodes.assign(new, nodes.call(keep, [nodes.name(old), stmt.value])))
        stmt.value = nodes.name(new)
    out.append(stmt)
    if not names:
        return out
    same_memory = nodes.name(namespace.bind("same_memory", runtime.same_memory, namer))
    for n in names:  # the new value itself (what y[k] now holds): an array, not an item
        same, array = namer.temp("same"), namer.temp("array")
        test = gast.Compare(left=nodes.name(n), ops=[gast.Is()], comparators=[nodes.name(old)])
        out.append(nodes.assign(same, test))
        # only an array changes in place: a number n that is the old item (the same
        # float object) keeps its value, as in Python
        rebind = nodes.if_(nodes.name(array), [nodes.assign(n, _new_value(stmt, y))])
        asked = nodes.assign(array, nodes.call(same_memory, [nodes.name(n), nodes.name(old)]))
        out.append(nodes.if_(nodes.name(same), [asked, rebind]))
    return out


def _new_value(stmt: gast.Assign, y: str) -> gast.expr:
    """What `y[k] = value` stored: the atom itself (an array, not a container's item,
    for the analyses), else `y[k]` read again."""
    if isinstance(stmt.value, (gast.Name, gast.Constant)):
        return nodes.deepcopy(stmt.value)
    target = stmt.targets[0]
    return gast.Subscript(value=nodes.name(y), slice=nodes.deepcopy(target.slice), ctx=gast.Load())
