"""The maths of the second-order rules of math.prod's and math.dist's helpers (unprod,
prod_of, undist, inner, negated: rules/runtime_scalars.py), of np.arange's adjoint helper
and of two forward-mode helpers (cast_tangent, iterable_tangent) differentiated in reverse.

Part of the runtime: copied into generated modules that use it (NumPy only). None is a
zero adjoint or tangent throughout, as in containers.py; lists stay lists and arrays
arrays.
"""

from __future__ import annotations

import numpy as np

from .broadcast import unbroadcast
from .scalars import unprod


def scaled(s, parts, like=None):
    """s times each of `parts` (a list, or an array). A zero (None) in parts, or all of
    parts None, is zeros like the item of `like` at its place (a list a display's items
    are read from by position), or None with no `like`."""
    if parts is None:
        if like is None:
            return None
        if isinstance(like, np.ndarray):
            return np.zeros(like.shape)
        parts = [None] * len(like)
    if isinstance(parts, np.ndarray):
        return s * parts
    zeros = [None] * len(parts) if like is None else [_zero(item) for item in like]
    return [z if v is None else s * v for v, z in zip(parts, zeros, strict=True)]


def _zero(item):
    """A zero like `item`: 0.0 for a number (or None), float zeros of an array's shape."""
    return 0.0 if np.ndim(item) == 0 else np.zeros(np.shape(item))


def ratio_or_zero(g, r):
    """g / r, and 0 where r == 0 (undist's scale at the kink of a norm at zero)."""
    return 0.0 * g if r == 0 else g / r


def unprod_hessian(h, g, items, start=1):
    """The adjoint of `items` in `unprod(g, items, start)` given h, the adjoint of its
    result (and, the matrix being symmetric, its tangent along items' tangent h): entry
    j is the sum over k != j of h[k] times g, start and the product of the items other
    than j and k, without dividing (exact at zeros). A list for a list (None in h is
    zero), an array for an array (the products of rows taken entry by entry)."""
    values = list(items)
    n = len(values)
    h = [None] * n if h is None else list(h)
    out = []
    for j in range(n):
        weights = unprod(g, values[:j] + values[j + 1 :], start)
        total = _zero(values[j])
        for w, hk in zip(weights, h[:j] + h[j + 1 :], strict=True):
            if hk is not None:
                total = total + w * hk
        out.append(total)
    if isinstance(items, np.ndarray):
        dtype = items.dtype if items.dtype.kind == "f" else np.float64
        return np.reshape(np.array(out, dtype=dtype), items.shape)
    return out


def arange_vjp_vjp(h, arg, stop, values, side):
    """The adjoint of `g` in `arange_vjp(g, arg, stop, values, side)` given h (of arg's
    shape): h times each value's weight in start (1) or step (its position), shaped like
    the arange's values; zeros where arange_vjp gives zeros (one argument, integer
    values)."""
    if stop is None or not np.issubdtype(np.result_type(values), np.inexact):
        return np.zeros(np.shape(values))
    weights = 1.0 if side == 0 else np.arange(np.size(values))
    return np.sum(np.asarray(h)) * weights + np.zeros(np.shape(values))


def uncast_tangent(g, t, like):
    """The adjoint of `t` in `cast_tangent(t, like)` given g: g summed down to t's shape
    (broadcasting undone) in t's float type, the real part for a real t; zeros (None for
    a container) where the like is an integer or boolean, whose tangent is zero; a list
    part by part for a tuple or list."""
    if isinstance(like, (tuple, list)):
        if g is None:
            return None
        return [uncast_tangent(gi, ti, ri) for gi, ti, ri in zip(g, t, like, strict=True)]
    dtype = np.result_type(t)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    if g is None or not np.issubdtype(np.result_type(like), np.inexact):
        return np.zeros(np.shape(t), dtype=dtype)
    g = np.asarray(g)
    if np.iscomplexobj(g) and not np.issubdtype(dtype, np.complexfloating):
        g = np.real(g)
    return np.asarray(unbroadcast(g, t), dtype=dtype)


def uniterable_tangent(g, x):
    """The adjoint of `t` in `iterable_tangent(t, x)` given g (and its own transpose): g
    itself, or None (zero) for a dict x or a range x, whose keys or ints do not move."""
    return None if isinstance(x, (dict, range)) else g
