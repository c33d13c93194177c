"""Adjoints of lists, tuples and dicts: None is a zero adjoint; lists and dicts
of per-element adjoints; the helpers the compiler calls for container code.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to, unbroadcast
from .indexing import unsubscript


def add(a, b):
    """The sum of two adjoints that may be containers (None is zero).

    Lists add element by element (an array against a list adds along its first
    axis), dicts key by key; anything else adds with `+`, out of place.
    """
    if type(a) is np.ndarray and type(b) is np.ndarray:
        return a + b  # the common case first: two arrays
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) or isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = add(out.get(key), value)
        return out
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"tangentlike: adjoints of lengths {len(a)} and {len(b)} added")
        return [add(x, y) for x, y in zip(a, b)]  # noqa: B905 (lengths checked above)
    return a + b


def add_item(b, x, index, g):
    """`b` plus the adjoint `g` of the read `x[index]`.

    For a list, tuple or dict `x`, `b` is a list or dict of per-element adjoints,
    created on first use and updated in place (each read costs O(1)); for an array
    `x`, a new array (repeated integer indices accumulate); for a range `x`, `b` (an int
    carries no derivative).
    """
    if type(x) is np.ndarray and (type(index) is int or type(index) is slice):
        # the common cases first: an item or a slice of a float array
        if b is None and x.dtype.kind == "f":  # the first adjoint: unsubscript's fast path
            out = np.zeros(x.shape, x.dtype)
            out[index] = g
            return out
        if type(b) is np.ndarray and b.dtype == np.float64 and b.shape == x.shape:
            out = b.copy()  # one copy, one indexed add
            out[index] += g
            return out
    if type(x) is range:  # a loop's range, which a third derivative reads off the stack
        return b
    if isinstance(x, dict):
        b = {} if b is None else b
        b[index] = add(b.get(index), g)
        return b
    if isinstance(x, (list, tuple)):
        b = [None] * len(x) if b is None else list(b) if isinstance(b, np.ndarray) else b
        if isinstance(index, slice):
            positions = range(len(x))[index] if g is not None else ()  # None: a zero
            for k, piece in zip(positions, () if g is None else g):  # noqa: B905
                b[k] = add(b[k], piece)  # (g is the slice's adjoint)
        else:
            b[index] = add(b[index], g)
        return b
    out = unsubscript(g, x, index)
    return out if b is None else b + out


def zeros_of(x):
    """The zero adjoint of `x`: None for a list, tuple or dict (or a str, range, None: keys
    and labels carry no gradient), float zeros otherwise."""
    if type(x) is np.ndarray and x.dtype.kind == "f":
        return np.zeros(x.shape, x.dtype)  # the common case first
    if isinstance(x, (list, tuple, dict, str, bytes, range)) or x is None:
        return None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(x), dtype=dtype)


def part(b, key, like):
    """Element `key` of the container adjoint `b`, or the zero adjoint of `like` when the
    element (or all of b) is zero. `b` may also be an array (a list's stacked adjoint)."""
    value = None if b is None else b.get(key) if isinstance(b, dict) else b[key]
    if value is not None:
        return value
    if isinstance(like, (list, tuple, dict, str, bytes, range)) or like is None:
        return None
    dtype = np.result_type(like)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(like), dtype=dtype)


def unappend(b, value):
    """The adjoint of `xs.append(value)`: (b without its last element, that element's
    adjoint, zeros like `value` when it is zero). Shortens the list `b` in place."""
    if isinstance(b, np.ndarray):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    g = None if b is None else b.pop()
    keyless = isinstance(value, (list, tuple, dict, str, bytes, range)) or value is None
    if g is None and not keyless:
        dtype = np.result_type(value)
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        g = np.zeros(np.shape(value), dtype=dtype)
    return b, g


def unextend(b, n):
    """The adjoint of `xs.extend(items)` with len(items) == n: (b without its last n
    elements, their adjoints as a list, or None when all are zero). Shortens b in place."""
    if b is None:
        return None, None
    if isinstance(b, np.ndarray):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    tail = b[len(b) - n :]
    del b[len(b) - n :]
    return b, tail


def saved_item(y, key):
    """What `y[key] = v` overwrites in the list or dict `y`: (True, the old item), or
    (False, None) when the key is new to the dict (the item itself is not copied: the
    write rebinds the slot, it does not change the old item)."""
    if isinstance(y, dict):
        return (key in y, y.get(key))
    return (True, y[key])


def restore_item(y, key, saved):
    """Undo `y[key] = v` given `saved_item(y, key)` from before it: the old item back, or
    the key deleted when the write added it."""
    present, old = saved
    if present:
        y[key] = old
    else:
        del y[key]


def take_item(b, key, value):
    """The adjoint of `y[key] = value` for a list or dict `y`: (b without the adjoint at
    key, that adjoint, zeros like `value` when it is zero). Changes `b` in place (the old
    item at key was overwritten: its adjoint is zero)."""
    if isinstance(b, (np.ndarray, tuple)):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    g = None
    if isinstance(b, dict):
        g = b.pop(key, None)
    elif b is not None:
        g = b[key]
        b[key] = None
    if g is None and not (isinstance(value, (list, tuple, dict, str, bytes)) or value is None):
        dtype = np.result_type(value)
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        g = np.zeros(np.shape(value), dtype=dtype)
    return b, g


def item_index(xs, key=-1):
    """The item `xs.pop(key)` removes: a list's index made non-negative (IndexError as
    the pop raises it), a dict's key as it is."""
    if isinstance(xs, dict):
        if key not in xs:
            raise KeyError(key)
        return key
    return range(len(xs))[key]


def without_item(xs, key):
    """What `xs.pop(key)` leaves (key from item_index): a new list or dict."""
    if isinstance(xs, dict):
        return {k: v for k, v in xs.items() if k != key}
    if xs is None:  # a zero tangent
        return None
    return list(xs[:key]) + list(xs[key + 1 :])


def with_zero_item(g, key):
    """The adjoint of `xs` in `without_item(xs, key)`: g with a zero (None) put back at
    key for a list; a dict's adjoint has no entry for the popped key (zero)."""
    if g is None or isinstance(g, dict):
        return None if g is None else {k: v for k, v in g.items() if k != key}
    g = list(g)
    g.insert(key, None)
    return g


def copied(x):
    """A shallow copy of a list or dict (a checkpointed loop's state written by key)."""
    return dict(x) if isinstance(x, dict) else list(x)


def unsum(g, iterable, start=0):
    """The adjoint of the builtin `sum(iterable, start)`: for an array, an array of its
    shape (each row's part: g undone of broadcasting against the row); for a list or
    tuple, a list with each item's part."""
    if isinstance(iterable, np.ndarray):
        shape = iterable.shape
        return np.array(np.broadcast_to(sum_to(np.asarray(g), shape[1:]), shape))
    out = []
    for item in iterable:
        if isinstance(item, (list, tuple, dict)):
            raise TypeError("tangentlike: sum() over containers is not differentiable")
        out.append(unbroadcast(np.asarray(g), item))
    return out


def dict_of(keys, values):
    """The dict a dict comprehension builds: `values[i]` under `keys[i]`, later ones win."""
    return dict(zip(keys, values))  # noqa: B905 (built together by the comprehension)


def undict_of(g, keys):
    """The adjoint of `dict_of(keys, values)` for `values`: per position, the adjoint of
    its key, only for the last position holding that key (earlier ones were replaced)."""
    last = {key: i for i, key in enumerate(keys)}
    return [g.get(key) if g is not None and last[key] == i else None for i, key in enumerate(keys)]


def iterable(x):
    """What a `for` loop over `x` visits, as something indexable: a dict's keys (a list),
    an iterator's items (a list: zip, map, a generator, a set), anything else unchanged."""
    return list(x) if isinstance(x, dict) or not hasattr(x, "__getitem__") else x


def zip_strict_end(*lengths):
    """What `zip(..., strict=True)` of sequences of these lengths does once its shortest
    one runs out (a loop over it lowered to positions, normalize/desugar.py): nothing when
    the lengths agree, else Python's own ValueError ("zip() argument 2 is shorter than
    argument 1"): one step of a strict zip of ranges that run out where the sequences do."""
    shortest = min(lengths)
    for _ in zip(*(range(shortest, n) for n in lengths), strict=True):
        break  # not reached: one range at least is empty


def unadd(g, x, y):
    """The adjoints of x and y in `x + y`: for two lists or tuples (concatenation) the
    two parts of g; otherwise g undone of broadcasting against each. None is zero."""
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        if g is None:
            return None, None
        g = list(g)
        return g[: len(x)], g[len(x) :]

    if g is None:
        return None, None
    return unbroadcast(np.asarray(g), x), unbroadcast(np.asarray(g), y)


def unmul(g, x, y):
    """The adjoints of x and y in `x * y`: for a list or tuple times an int (repetition)
    the sum of g's repeats for the sequence; otherwise (a tuple times an array or a
    float is NumPy arithmetic on the tuple as an array) the product rule, g undone of
    broadcasting against each. None is zero."""
    if isinstance(y, (list, tuple)) and isinstance(x, (int, np.integer)):
        gy, gx = unmul(g, y, x)
        return gx, gy
    if isinstance(x, (list, tuple)) and isinstance(y, (int, np.integer)):
        if g is None or len(x) == 0:
            return None, None
        g = list(g)
        n = len(x)
        total = g[:n]
        for k in range(n, len(g), n):
            total = [
                a if b is None else b if a is None else a + b
                for a, b in zip(total, g[k : k + n], strict=True)
            ]
        return total, None

    if (
        type(g) is np.ndarray
        and type(x) is np.ndarray
        and type(y) is np.ndarray
        and g.ndim
        and g.shape == x.shape == y.shape
    ):
        return g * y, g * x  # the common case first: arrays of one shape, nothing to undo
    if g is None:
        return None, None
    return unbroadcast(np.asarray(g * y), x), unbroadcast(np.asarray(g * x), y)


def unsequence(g, x):
    """The adjoint of `x` in `list(x)` / `tuple(x)`: g itself for a list or tuple x, the
    stacked rows for an array x (zeros where g holds None), None for a dict (keys)."""
    if isinstance(x, dict) or g is None:
        return None
    if isinstance(x, (list, tuple)) or isinstance(g, np.ndarray):
        return g
    rows = [np.zeros(np.shape(r)) if p is None else p for p, r in zip(g, x, strict=True)]
    return np.reshape(np.asarray(rows), np.shape(x))


def keys_of(d, what):
    """The keys of the dict d (a copy `dict(d)`, `{**d}` iterates them); any other value
    raises ValueError(what)."""
    if isinstance(d, dict):
        return list(d)
    raise ValueError(f"tangentlike: {what}")
