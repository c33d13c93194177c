"""Rule maths of np.meshgrid (rules/numpy_shape.py). NumPy only.

The rule takes up to four arrays in fixed slots x0..x3 (rule parameters are fixed);
slots left out are None and skipped.
"""

from __future__ import annotations

import numpy as np


def meshgrid_of(
    x0,
    x1=None,
    x2=None,
    x3=None,
    x4=None,
    x5=None,
    x6=None,
    x7=None,
    copy=True,
    sparse=False,
    indexing="xy",
):
    """np.meshgrid of the arrays in the slots in use (the forward form, given the
    tangents: meshgrid is linear in its arrays jointly). A slot left out holds None,
    or in the forward form the zero tangent of None (np.zeros_like(None): a 0-d object
    array, which no differentiated array is)."""
    xs = [x for x in (x0, x1, x2, x3, x4, x5, x6, x7) if not _left_out(x)]
    return np.meshgrid(*xs, copy=copy, sparse=sparse, indexing=indexing)


def _left_out(x):
    return x is None or (isinstance(x, np.ndarray) and x.dtype == object and x.ndim == 0)


def meshgrid_vjp(g, i, xs, indexing):
    """The adjoint of the array xs[i] in np.meshgrid(*xs, indexing=indexing): output i
    repeats xs[i] (raveled) along every axis but its own (the first two swapped for
    'xy'), so its adjoint g[i] summed over the others; zero when g[i] is None."""
    xs = [x for x in xs if not _left_out(x)]
    x = xs[i]
    part = g[i] if not _left_out(g) else None
    if _left_out(part):  # a zero (None, or a forward sweep's zero of None)
        return np.zeros(np.shape(x), dtype=np.result_type(x, 1.0))
    n = len(xs)
    own = {0: 1, 1: 0}.get(i, i) if indexing == "xy" and n >= 2 else i
    summed = np.sum(part, axis=tuple(a for a in range(n) if a != own))
    return np.reshape(summed, np.shape(x))
