"""Undoing NumPy broadcasting in adjoints: `unbroadcast`, and `sum_to` for a known shape.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def unbroadcast(g, x):
    """Sum the adjoint `g` down to the shape of `x`, undoing NumPy broadcasting."""
    return sum_to(g, np.shape(x))


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
