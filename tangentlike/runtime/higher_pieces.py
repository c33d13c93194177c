"""The maths of the second-order rules of helpers whose adjoint is a list of pieces
(rules/runtime_pieces.py): np.concatenate's and np.r_/np.c_'s cuts, `xs.append` and
`xs.extend` undone, a list or dict item's adjoint taken (`y[key] = v`), and the adjoint
of a max or min of several items.

`unappend_copy`, `unextend_copy` and `take_item_copy` compute what `unappend`,
`unextend` and `take_item` compute without changing the list they are given: the
differentiable form of a generated gradient calls them instead (higher/forms.py), so a
list read again by the backward sweep of the second derivative is still the list it was.

And `cumprod_zero_refused`, the second-order rule of np.cumprod's helper where its input
holds an exact zero (rules/runtime_numpy_helpers.py): a refusal, at run time.

Part of the runtime: copied into generated modules that use it (NumPy only). None is
a zero adjoint throughout, as in containers.py.
"""

from __future__ import annotations

import numpy as np

from .broadcast import unbroadcast


def _zeros_like(x):
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(x), dtype=dtype)


def _keyless(value) -> bool:
    return isinstance(value, (list, tuple, dict, str, bytes, range)) or value is None


def unappend_copy(b, value):
    """`unappend(b, value)` without shortening b: (b without its last element, a new
    list, and that element's adjoint, zeros like `value` when it is zero)."""
    rows = None if b is None else list(b)
    g = None if rows is None else rows.pop()
    if g is None and not _keyless(value):
        g = _zeros_like(value)
    return rows, g


def unappend_vjp(h, b):
    """The adjoint of `b` in `unappend_copy(b, value)`, given the adjoint `h` of its pair:
    the rest's adjoints followed by the last element's, in b's structure (rows of an
    array for a stacked adjoint)."""
    if b is None:
        return None
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    rest = [None] * (len(b) - 1) if h0 is None else list(h0)
    return _like([*rest, h1], b)


def unextend_copy(b, n):
    """`unextend(b, n)` without shortening b: (b without its last n elements, their
    adjoints as a list; None for both when b is None)."""
    if b is None:
        return None, None
    rows = list(b)
    return rows[: len(rows) - n], rows[len(rows) - n :]


def unextend_vjp(h, b, n):
    """The adjoint of `b` in `unextend_copy(b, n)`, given the adjoint `h` of its pair."""
    if b is None:
        return None
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    rest = [None] * (len(b) - n) if h0 is None else list(h0)
    tail = [None] * n if h1 is None else list(h1)
    return _like(rest + tail, b)


def take_item_copy(b, key, value):
    """`take_item(b, key, value)` without changing b: (b without the adjoint at key, a
    new list or dict, and that adjoint, zeros like `value` when it is zero)."""
    if isinstance(b, (np.ndarray, tuple)):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    g = None
    if isinstance(b, dict):
        b = dict(b)
        g = b.pop(key, None)
    elif b is not None:
        b = list(b)
        g = b[key]
        b[key] = None
    if g is None and not _keyless(value):
        g = _zeros_like(value)
    return b, g


def take_item_vjp(h, b, key):
    """The adjoint of `b` in `take_item_copy(b, key, value)`, given the adjoint `h` of its
    pair: the rest's adjoints with the taken adjoint's put back at key, in b's structure
    (rows of an array for a stacked adjoint)."""
    if b is None:
        return None
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    if isinstance(b, dict):
        out = {} if h0 is None else dict(h0)
        out.pop(key, None)
        if h1 is not None:
            out[key] = h1
        return out
    items = [None] * len(b) if h0 is None else list(h0)
    items[key] = h1
    return _like(items, b)


def _like(items, b):
    """A list adjoint in b's structure: the list, or rows stacked for an array b."""
    if not isinstance(b, np.ndarray):
        return items
    if all(item is None for item in items):
        return None
    rows = [np.zeros(np.shape(row)) if item is None else item for item, row in zip(items, b)]  # noqa: B905
    return np.reshape(np.asarray(rows, dtype=np.result_type(b, np.float32)), np.shape(b))


def unconcatenate_vjp(h, g, arrays, axis):
    """The adjoint of `g` in `unconcatenate(g, arrays, axis)` (g cut into the arrays'
    pieces), given the pieces' adjoints `h` (None for a zero one): h joined back."""
    h = [None] * len(arrays) if h is None else h
    parts = [
        np.zeros(np.shape(x)) if piece is None else np.broadcast_to(piece, np.shape(x))
        for piece, x in zip(h, arrays, strict=True)
    ]
    return unbroadcast(np.concatenate(parts, axis=axis), g)


def unconcatenate_index_vjp(h, g, concatenator, items):
    """The adjoint of `g` in `unconcatenate_index(g, concatenator, items)` (np.r_, np.c_:
    g cut along the concatenation axis into each item's piece, shaped like the item),
    given the pieces' adjoints `h` (None for a zero one or a slice's): h joined back."""
    axis = concatenator.axis
    widths = [np.shape(concatenator[item])[axis] for item in items]
    pieces = np.split(np.asarray(g), np.cumsum(widths)[:-1], axis=axis)
    h = [None] * len(items) if h is None else h
    parts = [
        np.zeros(piece.shape) if hp is None else np.reshape(hp, piece.shape)
        for hp, piece in zip(h, pieces, strict=True)
    ]
    return np.concatenate(parts, axis=axis)


def cumprod_zero_refused(*values):
    """What the second-order rule of cumprod_vjp_at_zeros computes: a refusal, at run time
    (the first order is exact at a zero, its formula's derivative is not)."""
    raise ValueError(
        "tangentlike: the second derivative of np.cumprod where its input holds an exact "
        "zero is not supported (the gradient's formula there is not differentiable)\n"
        "What to do: keep the product's factors away from 0, or differentiate "
        "np.exp(np.cumsum(np.log(a))) for positive a."
    )
