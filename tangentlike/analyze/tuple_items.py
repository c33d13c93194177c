"""The items of a tuple a name holds, for analyze.aliases, and of a helper's returned tuple.

`s, v = h(x)` is, in A-normal form, `_t = h(x); s = _t[0]; v = _t[1]`. Without
more, s and v both refer to everything `_t` may refer to, so they "share memory":
an update of v in place looks like a change of s too. Here:
  - `_t = (a, b)` (atoms) records, per item, the memories it may refer to and
    whether it certainly is no list, tuple or dict (`Memory.items`; `_t = None`
    records no item, `()`: reading one raises);
  - `_t = h(...)` of a user function whose every return is such a tuple records,
    per item, what `Effects.items` says: an item that is the function's own new
    memory (shared with no parameter, no global and no other item) gets a memory
    of its own, `("new", (statement, k))`; any other item may refer to whatever
    the call's result may;
  - `s = _t[k]` (k an integer literal) refers to item k's memories only.
The tuple's own roots always hold every item's, so whatever reads the tuple whole
sees them all. A name rebound, grown or joined with a value that is no such tuple
loses its items.

`summarize` gives a function's `Effects.items` from the facts at its final
`return name`: the items of `name`, each own (see above; nor held by any name but
a tuple that refers to a parameter's or a global's memory there, a list argument
it appended to, say) or not, and certainly an array or not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gast

Roots = frozenset[tuple[str, object]]


@dataclass(frozen=True)
class Item:
    roots: Roots  # the memories the item may refer to
    array: bool  # certainly no list, tuple or dict


@dataclass(frozen=True)
class Returned:
    """An item of a function's returned tuple, as its callers see it (Effects.items)."""

    own: bool  # new memory of the call's own, shared with nothing else
    array: bool


Items = tuple[Item, ...]  # () for None or an empty tuple: reading an item raises


def join(
    mine: dict[str, Items], theirs: dict[str, Items], only_mine, only_theirs
) -> dict[str, Items]:
    """Items on either path: item by item where both paths have a tuple of one length;
    a name one path never binds, or binds to None or `()` (no item can be read from
    them: `_t[k]` raises), keeps the other's (as Memory.join's other facts)."""
    out = dict(mine.items() & theirs.items())  # the same items on both paths: kept
    for name in (mine.keys() | theirs.keys()) - out.keys():
        a, b = mine.get(name), theirs.get(name)
        if a == () and b is not None:
            out[name] = b
        elif b == () and a is not None:
            out[name] = a
        elif a is not None and b is not None:
            if len(a) == len(b):
                out[name] = tuple(
                    Item(x.roots | y.roots, x.array and y.array) for x, y in zip(a, b, strict=True)
                )
        elif a is not None and name in only_mine:
            out[name] = a
        elif b is not None and name in only_theirs:
            out[name] = b
    return out


def literal(
    value: gast.Tuple, roots: Callable[[gast.expr], Roots], array: Callable[[gast.expr], bool]
) -> Items | None:
    """`(a, b)` of atoms: each item's memories and arrayness (none with `*seq`)."""
    if any(isinstance(e, gast.Starred) for e in value.elts):
        return None
    return tuple(Item(roots(e), array(e)) for e in value.elts)


def index(value: gast.expr, items: dict[str, Items]) -> Item | None:
    """`_t[k]`, k an integer literal, of a name with known items: that item."""
    if not (isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name)):
        return None
    held = items.get(value.value.id)
    k = value.slice
    sign = 1
    if isinstance(k, gast.UnaryOp) and isinstance(k.op, gast.USub):
        k, sign = k.operand, -1
    if held is None or not isinstance(k, gast.Constant) or type(k.value) is not int:
        return None
    position = sign * k.value
    if not -len(held) <= position < len(held):
        return None
    return held[position]


def from_call(returned: tuple[Returned, ...], whole: Roots, number: int) -> Items:
    """The items of a call's result, from the callee's Effects.items: own items get
    their own memory (`("new", (number, k))`), the others whatever `whole` (the
    call's result) may refer to."""
    return tuple(
        Item(frozenset({("new", (number, k))}) if r.own else whole, r.array)
        for k, r in enumerate(returned)
    )


def summarize(
    name: str, items: dict[str, Items], roots: dict[str, Roots], outside: Callable[[Roots], bool]
) -> tuple[Returned, ...]:
    """Effects.items from the facts at `return name`: the items of the tuples names hold
    and every name's memories; `outside(roots)`: whether they include a parameter's or a
    global's memory. Names holding tuples are left out of what holds an item "outside"
    (a tuple cannot be changed; the returned one holds every item)."""
    mine = items.get(name)
    if mine is None:
        return ()
    holders = [r for n, r in roots.items() if n not in items and outside(r)]
    held_outside = frozenset().union(*holders)
    out = []
    for k, item in enumerate(mine):
        others = frozenset().union(*(o.roots for j, o in enumerate(mine) if j != k))
        own = not outside(item.roots) and not (item.roots & (others | held_outside))
        out.append(Returned(own, item.array))
    return tuple(out)
