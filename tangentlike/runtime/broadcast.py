"""NumPy broadcasting in adjoints: undone (`unbroadcast`, and `sum_to` for a known
shape), and done for the adjoint of a reduction (`spread`).

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def unbroadcast(g, x):
    """Sum the adjoint `g` down to the shape of `x`, undoing NumPy broadcasting."""
    if type(x) is np.ndarray:
        shape = x.shape
        if type(g) is np.ndarray and g.shape == shape:
            return g  # the common cases first: nothing to undo
    elif type(x) in (float, np.float64):
        if type(g) in (float, np.float64):
            return g  # numbers (NumPy's float64 too: what np.sin of a float returns)
        shape = ()
    else:
        shape = np.shape(x)
    return sum_to(g, shape)


def sum_to(g, shape):
    """Sum `g` down to `shape`: over the leading axes it has beyond `shape`, and over the
    axes where `shape` has 1 and `g` has more (the axes broadcasting stretched)."""
    if np.shape(g) == shape:
        return g
    g = np.asarray(g)
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g


def spread(g, x):
    """`g` broadcast to the shape of `x` (the adjoint of a sum or mean of x): the value of
    np.broadcast_to(g, np.shape(x)), read-only as it is. For a small array x and a float
    g, a filled array: np.broadcast_to costs microseconds of Python, which a gradient of
    small arrays pays at every reduction; for a large x (over 1024 elements, where filling
    costs more), its view (nothing copied)."""
    if type(x) is np.ndarray and x.size <= 1024 and type(g) in (float, np.float64):
        out = np.empty(x.shape)
        out.fill(g)
        out.setflags(write=False)  # read-only as np.broadcast_to's (cheaper than .flags)
        return out
    return np.broadcast_to(g, np.shape(x))
