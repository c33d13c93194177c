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
