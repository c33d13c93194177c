"""np.vectorize of a user function, lowered to a list comprehension over the raveled
argument (normalize/vectorized.py): the list of results made an array again. NumPy
only."""

from __future__ import annotations

import numpy as np


def vectorized(results, like):
    """`np.vectorize(h)(x)` from `results = [h(e) for e in np.ravel(x)]` and `like = x`:
    the results as an array of x's shape and the first result's dtype (what vectorize
    does). Results of other kinds, which vectorize would cast to the first's, raise
    ValueError, as does an empty x (vectorize cannot tell the type)."""
    if len(results) == 0:
        raise ValueError(
            "tangentlike: np.vectorize of an empty array: the output type is unknown\n"
            "What to do: skip the call for empty arrays"
        )
    dtype = np.result_type(results[0])
    if any(np.result_type(r).kind != dtype.kind for r in results):
        raise ValueError(
            "tangentlike: np.vectorize's function returned values of different kinds (an "
            "int and a float, say), which vectorize casts to the first one's\nWhat to do: "
            "return floats from the function (float(...)), or pass otypes"
        )
    return np.reshape(np.array(results, dtype=dtype), np.shape(like))


def unvectorized(g, results):
    """The adjoint of `results` in `vectorized(results, like)`: g's entries, one per
    result (the list of their adjoints)."""
    flat = np.ravel(g)
    return [np.reshape(flat[i], np.shape(r)) for i, r in enumerate(results)]


def rows_along(a, axis):
    """The 1-D slices of `a` along `axis`, in np.ndindex order of the other axes (how
    np.apply_along_axis visits them; normalize/vectorized.py)."""
    moved = np.moveaxis(np.asarray(a), axis, -1)
    return [moved[i] for i in np.ndindex(*moved.shape[:-1])]


def unrows_along(g, a, axis):
    """The adjoint of `a` in `rows_along(a, axis)`: the rows' adjoints put back (None, or
    a forward sweep's zero of None: zero)."""
    moved = np.moveaxis(np.zeros(np.shape(a), dtype=np.result_type(a, 1.0)), axis, -1)
    for k, i in enumerate(np.ndindex(*moved.shape[:-1])):
        if not _zero(g[k]):
            moved[i] = g[k]
    return np.moveaxis(moved, -1, axis)


def _zero(x):
    """None, or the zero a forward sweep gives a None (a 0-d object array)."""
    return x is None or (isinstance(x, np.ndarray) and x.dtype == object and x.ndim == 0)


def along_axis(results, a, axis):
    """np.apply_along_axis's result from the function's results on `rows_along(a,
    axis)`: stacked over the other axes of a, the result's own axes put where `axis`
    was, the first result's dtype. Results of other shapes or kinds (which
    apply_along_axis would cast) raise ValueError."""
    shape = np.shape(results[0]) if len(results) else None
    dtype = np.result_type(results[0]) if len(results) else None
    if shape is None or any(
        np.shape(r) != shape or np.result_type(r).kind != dtype.kind for r in results
    ):
        raise ValueError(
            "tangentlike: np.apply_along_axis's function returned results of different "
            "shapes or kinds, or there is no row\nWhat to do: return float arrays of one "
            "shape (or write the loop)"
        )
    ndim = np.ndim(a)
    at = int(axis) % ndim
    lead = tuple(s for k, s in enumerate(np.shape(a)) if k != at)
    out = np.reshape(np.array(results, dtype=dtype), lead + shape)
    own = range(len(lead), len(lead) + len(shape))
    return np.moveaxis(out, list(own), list(range(at, at + len(shape))))


def unalong_axis(g, results, a, axis):
    """The adjoint of `results` in `along_axis(results, a, axis)`: g's entries for each
    result, in order."""
    at = int(axis) % np.ndim(a)
    shape = np.shape(results[0])
    lead = np.ndim(a) - 1
    back = np.moveaxis(
        np.asarray(g), list(range(at, at + len(shape))), list(range(lead, lead + len(shape)))
    )
    flat = np.reshape(back, (-1, *shape))
    return [flat[k] for k in range(len(results))]
