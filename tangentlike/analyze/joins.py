"""Views kept across a join of two paths (analyze.memory.Memory.join).

A name that is a view of `base` on one path and something else on the other is no
view of base for certain after the join; two cases stay views that transform.view_updates
asks about at run time, so that an update of base makes the name again only where it
does share base:

- an alias of base on one path (`if c: z = y`, else `z = y * 2.0`): a "same" view,
  asked with runtime.same_array (base itself, or nothing of it);
- a view that may be a copy (`np.reshape(base, s)`, `np.transpose(base)`,
  `base[..., None]`: kinds "reshape", "transpose", "expand") on one path, and on the
  other a value whose memory is none of base's (a copy kept apart, a new array, None,
  or an alias of such a value): the same view, still asked with runtime.same_memory,
  which says False on the second path (separate memory never overlaps), where the name
  is then kept as it is. Against an alias this comes first: the form's `if _shares1:
  z1 = y.reshape(2, 2)` (else `z1 = _z11`, a new array) keeps z1 a reshape of y, which
  a later write into y makes again, rather than "the same" as _z11, which nothing
  writes. A view by index (`base[1:3]`, a row `base[i]`) is certain where it is made;
  across a join with no view it becomes an "expand" view of the same index, asked so
  (against an alias, the alias wins: `x = z[-1]` in a loop, x a number before it).
  The second differentiation of a gradient meets this after an update of a reshaped
  argument (`z = y.reshape(2, 2); z *= x`): the form's pop binds the pushed view on the
  path where the update went into y, and None (its prebinding) on the other.

Assumes: `roots` of each path for the names (analyze.memory roots: what a name may refer
to). Guarantees: a view returned is one of the two paths' views, and where it is an
asked kind, the name shares none of base's memory on the path without it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .memory import Roots, View

# Views that may be copies, asked at run time with same_memory wherever they are used
# (transform.view_updates: `asked`, and `_ASKED_ABOVE` up a chain).
MAYBE_COPIES = ("reshape", "transpose", "expand")
# Views by index that are certain where they are made (a slice `base[1:3]`, a row or an
# element `base[i]`): across the join they are "expand" views, asked like one (a view of
# base, written back by the same index, or no part of it), never certain above.
BY_INDEX = ("index", "item")


def joined_views(
    name: str,
    mine: View | None,
    theirs: View | None,
    my_roots: dict[str, Roots],
    their_roots: dict[str, Roots],
) -> list[View]:
    """The views `name` may keep after the join, given each path's view of it and roots,
    best first: the join takes the first whose base is bound on both paths (`y = _y_own1`
    before a branch, `y = _y2` on it: y may be _y_own1 itself). Views of what may be no
    array (`View.maybe`) are kept by neither case."""
    found = [
        v for v in (mine, theirs) if v is not None and v.kind in ("alias", "same") and not v.maybe
    ]
    for view, other, roots in ((mine, theirs, their_roots), (theirs, mine, my_roots)):
        if view is None or view.maybe or (other is not None and other not in found):
            continue
        if other is not None and view.kind not in MAYBE_COPIES:
            continue  # an index view against an alias: "the same" as the alias's base
        if view.kind not in (*MAYBE_COPIES, *BY_INDEX):
            continue
        base_roots = my_roots.get(view.base, frozenset()) | their_roots.get(view.base, frozenset())
        if name in roots and not (roots[name] & base_roots):
            return [replace(view, kind="expand") if view.kind in BY_INDEX else view]
    # of two bases, the first path's (a loop's entry) first: asked at run time
    return [replace(v, kind="same", reads=frozenset()) for v in found]
