"""The maths of the second-order rules of the adjoint helpers that turn one array adjoint
into a list of them (rules/runtime_lists.py): np.meshgrid's, np.vectorize's and
np.apply_along_axis's (normalize/vectorized.py lowers those two to list comprehensions).

Each helper is linear in the array adjoint g it cuts or sums, reading its other
arguments for their shapes only; these are their transposes, given the list `h` of the
pieces' adjoints (None, or a forward sweep's zero of None, for a zero piece).

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .vectorized import along_axis


def _zero(x) -> bool:
    """None, or the zero a forward sweep gives a None (a 0-d object array)."""
    return x is None or (isinstance(x, np.ndarray) and x.dtype == object and x.ndim == 0)


def _pieces(h, n):
    return [None] * n if _zero(h) else [None if _zero(p) else p for p in h]


def meshgrid_vjp_vjp(h, g, i, xs, indexing):
    """The adjoint of g in `meshgrid_vjp(g, i, xs, indexing)` (output i of np.meshgrid
    summed down to xs[i]), given h shaped like xs[i]: h spread over output i's grid (as
    np.meshgrid spreads xs[i], to g[i]'s shape: a sparse grid's too), the other
    outputs' adjoints zeros (of g's shapes: debug mode's checks take no None there)."""
    xs = [x for x in xs if not _zero(x)]
    slots = [np.zeros(np.shape(x)) for x in xs]
    slots[i] = h
    full = np.meshgrid(*slots, indexing=indexing)
    along = np.meshgrid(*slots, indexing=indexing, sparse=True)[i]
    out = []
    for j, grid in enumerate(full):
        like = None if _zero(g) else g[j]
        shape = np.shape(grid) if _zero(like) else np.shape(like)  # a sparse grid's too
        out.append(np.broadcast_to(along, shape) if j == i else np.zeros(shape))
    return out


def unvectorized_vjp(h, g, results):
    """The adjoint of g in `unvectorized(g, results)` (g's entries, one per result), given
    the results' adjoints h: them as one array shaped like g (zeros for None)."""
    pieces = _pieces(h, len(results))
    flat = [np.zeros(np.shape(r)) if p is None else p for p, r in zip(pieces, results, strict=True)]
    return np.reshape(np.asarray(flat, dtype=np.result_type(g, np.float32)), np.shape(g))


def unalong_axis_vjp(h, g, results, a, axis):
    """The adjoint of g in `unalong_axis(g, results, a, axis)` (g cut into each row's
    result), given the results' adjoints h: them put back as np.apply_along_axis puts
    the results (zeros for None)."""
    pieces = _pieces(h, len(results))
    rows = [
        np.zeros(np.shape(r), dtype=np.result_type(g, np.float32))
        if p is None
        else np.asarray(p, dtype=np.result_type(g, np.float32))
        for p, r in zip(pieces, results, strict=True)
    ]
    return np.reshape(along_axis(rows, a, axis), np.shape(g))
