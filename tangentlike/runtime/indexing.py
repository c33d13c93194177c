"""Reads and writes of parts of arrays: the adjoint of `x[index]`, of
`y[index] = v`, and the run-time checks of subscripts and in-place updates.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def unsubscript(g, x, index):
    """The adjoint of `x[index]`: zeros shaped like x, with g added at index.

    Repeated integer indices accumulate (np.add.at semantics).
    """
    if type(x) is np.ndarray and x.dtype.kind == "f" and type(index) in (int, slice):
        out = np.zeros(x.shape, x.dtype)  # the common case first: one item or a slice
        out[index] = g
        return out
    if isinstance(x, (tuple, list)):
        try:  # a list of same-shape values: its adjoint is their stacked array
            x = np.asarray(x, dtype=float)
        except ValueError:
            raise TypeError(
                "tangentlike: indexing a tuple or list that holds differentiated values of "
                "different shapes is not supported yet; unpack it where it is built "
                "(a, b = x, y) or stack the values into an array"
            ) from None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    if np.iscomplexobj(g) and dtype.kind != "c":  # never drop an imaginary part silently
        raise ValueError(
            "tangentlike: a complex adjoint reached an element of a real array: a complex "
            "value was computed where tangentlike did not see it being made (a complex "
            "argument?)"
        )
    out = np.zeros(np.shape(x), dtype=dtype)
    parts = index if isinstance(index, tuple) else (index,)
    basic = all(
        isinstance(p, (int, np.integer, slice)) or p is None or p is Ellipsis
        for p in parts
        if not isinstance(p, bool)
    ) and not any(isinstance(p, bool) for p in parts)
    if basic:
        out[index] = g
    else:
        np.add.at(out, index, g)
    return out


def unsetitem(g, index):
    """The adjoint of `y[index] = v`: (g with the written region zeroed, g's region).

    Both are new arrays. Repeated integer indices in a write are refused: only
    the last write survives, and which one that is is not something to guess.
    """
    g = np.array(g, dtype=np.result_type(g, np.float32), copy=True)
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (list, np.ndarray)) and np.asarray(p).dtype.kind in "iu" for p in parts):
        hits = np.zeros(g.shape, dtype=np.intp)
        np.add.at(hits, index, 1)
        if hits.max(initial=0) > 1:
            raise ValueError("tangentlike: y[index] = v with repeated indices is not supported")
    region = np.array(g[index], copy=True)
    g[index] = 0.0
    return g, region


def selects(x, what):
    """Raise TypeError unless `x[...]` selects: x is an array, list, tuple, dict, string or
    range, whose index the gradient takes for an integer or a key (`what` says where)."""
    if not isinstance(x, (np.ndarray, np.generic, list, tuple, dict, str, bytes, range)):
        raise TypeError(
            f"tangentlike: {what}; a {type(x).__name__} computes its [...] with its own "
            "__getitem__, which this gradient did not differentiate: index an array, list, "
            "tuple or dict, or call the method (type(x).__getitem__(x, k)) in a function "
            "whose objects are globals or a bound self"
        )


def numeric_item(y, key, what, others=None, rebound=()):
    """Check `y[key] op= v` (`what`), lowered to `y[key] = y[key] op v`, where y may be a
    list or dict. For an array `y` or a number in the slot the lowering is what runs. An
    array in the slot is updated in place by Python: the lowering is what runs exactly
    when nothing read afterwards (`others`: the names that may share its memory, y
    among them; its own slot excepted) holds that array or shares its memory, but the
    names of `rebound` holding that very array (the generated code rebinds them to the
    new one); raise ValueError otherwise, and for any other item (a list: extended in
    place). `others` None: nothing is known, any array item raises."""
    if not isinstance(y, (list, dict)):
        return
    item = y[key]
    if isinstance(item, (int, float, complex, np.generic)):
        return
    if isinstance(item, np.ndarray) and others is not None:
        try:
            kept = [o for o in others if not (o is item and any(o is r for r in rebound))]
            unshared(item, tuple(_other_slots(o, y, key) for o in kept), what)
            return
        except ValueError:
            held = "another value read afterwards holds it or shares its memory"
    else:
        held = "any other name holding it changes too"
    raise ValueError(
        f"tangentlike: {what}: it holds {_a(type(item).__name__)}, which Python's augmented "
        f"assignment changes in place ({held}), and the gradient does not follow that\n"
        "What to do: write the new value explicitly, y[k] = y[k] + v (a new array), or "
        "copy the item first (.copy())"
    )


def _a(noun):
    """`a list`, `an ndarray`."""
    return f"{'an' if noun[:1] in 'aeiou' or noun == 'ndarray' else 'a'} {noun}"


def _other_slots(other, y, key):
    """`other`, or when it is the container y itself, its items but the one at key (whose
    rebinding is what the lowered update does)."""
    if other is not y:
        return other
    if isinstance(y, dict):
        return [v for k, v in y.items() if k != key]
    index = int(key) % len(y)
    return [v for i, v in enumerate(y) if i != index]


def same_memory(view, base) -> bool:
    """Whether `view`, made from `base` by a view-making call or alias (transform.in_place),
    is an array sharing base's memory: not a number, nor a copy reshape made."""
    return (
        isinstance(view, np.ndarray)
        and isinstance(base, np.ndarray)
        and bool(np.may_share_memory(view, base))
    )


def part_of(x, base, what):
    """Whether x, made from base by a slice or a view-making call where base may be no
    array (transform.view_updates), is an array sharing base's memory: True where it is;
    False where x shares nothing with base (a copy, a number, a list's slice of
    numbers); raises ValueError(what) where x shares base otherwise (the arrays a list
    holds, an object's memory), which an update of x would change unseen."""
    if isinstance(x, np.ndarray) and isinstance(base, np.ndarray):
        return bool(np.may_share_memory(x, base))
    try:
        unshared(x, (base,), what)
    except ValueError:
        raise ValueError(
            f"tangentlike: {what}. tangentlike follows such an update only into an array "
            "it is a view of: take a copy (.copy()) where the values start sharing memory, "
            "or update out of place (z = z + ...) if a new array was meant"
        ) from None
    return False


def _items_at(x, keys):
    """What the run-time checks of an update look at in x, which the function reads only
    at the constant `keys` (analyze.keyed): the items of a list, tuple or dict at those
    of the keys it has now; anything else whole (a subclass too: a defaultdict makes
    items when read)."""
    if type(x) is dict:
        return tuple(x[k] for k in keys if k in x)
    if type(x) in (list, tuple):
        n = len(x)
        return tuple(x[k] for k in keys if isinstance(k, int) and -n <= k < n)
    return x


def same_array(x, base, what, apart=()):
    """Whether x is the array base itself, for a name bound to base on one path only
    (transform.view_updates): True where it is; False where x shares no memory with base
    nor with the arrays `apart` (what an update changes when x is not base); raises
    ValueError(what) where x shares only part of base, or shares one of `apart`."""
    if isinstance(x, np.ndarray) and x is base:
        return True
    if same_memory(x, base) or any(same_memory(x, a) for a in apart):
        raise ValueError(
            f"tangentlike: {what}. tangentlike follows such an update only into the array "
            "itself: take a copy (.copy()) where the arrays start sharing memory, or update "
            "out of place (z = z + ...) if a new array was meant"
        )
    return False


def array_base(base, what):
    """Raise ValueError(what) unless `base`, the name an update in place of one of its
    views is written into (transform.view_updates), is an array of numbers or a number:
    a list, tuple or dict (or an array of objects) holding the view's array keeps that
    very array, which Python changes in place, where the lowered update, finding the
    view shares no memory with its base, changes the view alone."""
    if isinstance(base, np.ndarray) and base.dtype.kind != "O":
        return
    if isinstance(base, (int, float, complex, np.generic)):
        return
    raise ValueError(
        f"tangentlike: {what}: it holds {_a(type(base).__name__)}, not an array, and the "
        "update changes an array it holds in place, which the gradient does not follow\n"
        "What to do: update out of place (z = z + ...) and put the new value where it "
        "belongs, or stack the items into an array (np.array(...)) and update its rows"
    )


def untouched(value, others, what, bases=(), keys=()):
    """Raise ValueError when the array `value`, which an update in place changes, may
    share memory with one of `others` (or whatever they hold): names read afterwards that
    the gradient neither follows the update into nor makes again (transform.view_updates),
    which would change too. Numbers never raise. `bases`: the arrays the update is
    written into (forward mode checks their tangents against the others'); `keys`: as
    for unshared."""
    try:
        unshared(value, others, what, keys)
    except ValueError:
        raise ValueError(
            f"tangentlike: {what}. tangentlike follows such an update only into the array "
            "it is part of and the views of that array made again after it: take a copy "
            "(.copy()) where the arrays start sharing memory, or update out of place "
            "(z = z + ...) if a new array was meant"
        ) from None


def kept_apart(x, shares):
    """x's value where an update is about to be written into the array x was made from
    (transform.view_updates): a copy where x does not share that array (a copy reshape
    made: the write leaves it alone), a number as it is, and x itself where it shares
    the array (the name is then made again from it; this value is never read)."""
    if shares or not isinstance(x, np.ndarray):
        return x
    return x.copy()


def updated(z, value):
    """What `z op= v` leaves in z, given value = `z op v` (transform/in_place.py lowers
    the update out of place where no other name shares z): NumPy's operators make a
    number of a 0-d array, where the augmented assignment keeps z an array, which a
    name made from z afterwards shares and may change in place; anything else as is."""
    if type(z) is np.ndarray and not z.ndim and not isinstance(value, np.ndarray):
        return np.asarray(value)
    return value


def copies_array(x, what):
    """Raise TypeError unless `x.copy()` means `np.copy(x)`: x an array or a NumPy scalar.
    A list's or dict's .copy() is a shallow copy sharing the items (list(x), dict(x))."""
    if not isinstance(x, (np.ndarray, np.generic)):
        kind = type(x).__name__
        spelled = {"list": "list(...)", "dict": "dict(...)"}.get(kind, "a copy of its own")
        raise TypeError(
            f"tangentlike: {what}: here it is a {kind}, whose .copy() is not np.copy; write "
            f"{spelled} for a shallow copy (its items shared), or copy the arrays themselves"
        )


def entry_copy(x, what):
    """A copy of an array argument the function changes in place, which the function then
    owns (transform.argument_copies); numbers, strings and None as they are (they do not
    change). Any other value (a list, a dict, an object) raises ValueError(what)."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if x is None or isinstance(x, (int, float, complex, str, bytes, np.generic)):
        return x
    raise ValueError(f"tangentlike: {what}")


def write_back(caller, own):
    """Give the caller's array the values the function left in its copy `own`, as the
    function's updates in place would have."""
    if isinstance(caller, np.ndarray) and caller is not own:
        caller[...] = own


def unshared(value, others, what, keys=()):
    """Raise ValueError when an array `value` holds (itself, or inside a list, tuple, dict
    or object) may share memory with one of `others` (or whatever they hold): an update
    in place, which `what` describes, would change them too. `keys`, when given, says
    for each of `others` the only keys the function reads it at (analyze.keyed), or None
    (read whole): only the items there count.

    Numbers never raise: `value += v` makes a new one. Objects that hold neither arrays
    nor plain values (functions, say) count as sharing.
    """

    def held(x):  # the arrays, lists, dicts in x, or None for an unknown object
        found, seen, todo = [], set(), [x]
        while todo:  # a worklist, not recursion: a stack chain nests a pair per value
            x = todo.pop()
            if id(x) in seen or isinstance(x, (int, float, complex, str, bytes, np.generic)):
                continue
            seen.add(id(x))
            if x is None:
                continue
            if isinstance(x, np.ndarray):
                found.append(x)
            elif isinstance(x, (list, tuple, dict)):
                if isinstance(x, (list, dict)):  # both change
                    found.append(x)
                todo.extend(x.values() if isinstance(x, dict) else x)
            elif hasattr(x, "__dict__") and not callable(x):
                todo.extend(vars(x).values())
            else:
                return None
        return found

    mine = held(value)
    if not mine:
        return
    if keys:
        others = tuple(
            o if k is None else _items_at(o, k) for o, k in zip(others, keys, strict=True)
        )
    theirs = held(others)
    if theirs is None or any(
        a is b
        or (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.may_share_memory(a, b))
        for a in mine
        for b in theirs
    ):
        raise ValueError(
            f"tangentlike: {what}. tangentlike differentiates that as making a new array, "
            "which is not what runs: update out of place (z = z + ..., or return a new "
            "array and use it) if a new array was meant, or take a copy (.copy()) where "
            "the arrays start sharing memory"
        )
