"""The few helpers generated code may call. NumPy only, no cross-calls.

Written derivative modules carry copies of the helpers they use, so each
function here is pure and self-contained, and changing what one computes is a
versioned event.
"""

from __future__ import annotations

import numpy as np


def unbroadcast(g, x):
    """Sum the adjoint `g` down to the shape of `x`, undoing NumPy broadcasting."""
    shape = np.shape(x)
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


def matmul_vjp_a(g, a, b):
    """The adjoint of `a` in `a @ b`, for every rank matmul accepts."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 2 and b_nd == 2:
        return g @ np.transpose(b)
    g, b = np.asarray(g), np.asarray(b)
    if b_nd == 1:
        g, b = g[..., None], b[:, None]
    if a_nd == 1:
        g = g[..., None, :]
    ga = g @ np.swapaxes(b, -1, -2)
    shape = (1, *np.shape(a)) if a_nd == 1 else np.shape(a)
    extra = ga.ndim - len(shape)
    if extra > 0:
        ga = ga.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and ga.shape[i] != 1)
    if axes:
        ga = ga.sum(axis=axes, keepdims=True)
    return ga.reshape(np.shape(a))


def matmul_vjp_b(g, a, b):
    """The adjoint of `b` in `a @ b`, for every rank matmul accepts."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 2 and b_nd == 2:
        return np.transpose(a) @ g
    g, a = np.asarray(g), np.asarray(a)
    if b_nd == 1:
        g = g[..., None]
    if a_nd == 1:
        g, a = g[..., None, :], a[None, :]
    gb = np.swapaxes(a, -1, -2) @ g
    shape = (*np.shape(b), 1) if b_nd == 1 else np.shape(b)
    extra = gb.ndim - len(shape)
    if extra > 0:
        gb = gb.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and gb.shape[i] != 1)
    if axes:
        gb = gb.sum(axis=axes, keepdims=True)
    return gb.reshape(np.shape(b))


def dot_vjp_a(g, a, b):
    """The adjoint of `a` in `np.dot(a, b)` for scalars, vectors and matrices."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 0 or b_nd == 0:
        ga = g * b
        return ga if a_nd else np.sum(ga)
    if a_nd > 2 or b_nd > 2:
        raise ValueError("np.dot of arrays with more than 2 dimensions is not supported")
    if a_nd == 1 and b_nd == 1:
        return g * np.asarray(b)
    if b_nd == 1:
        return np.multiply.outer(g, b)
    return np.dot(g, np.transpose(b))


def dot_vjp_b(g, a, b):
    """The adjoint of `b` in `np.dot(a, b)` for scalars, vectors and matrices."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 0 or b_nd == 0:
        gb = g * a
        return gb if b_nd else np.sum(gb)
    if a_nd > 2 or b_nd > 2:
        raise ValueError("np.dot of arrays with more than 2 dimensions is not supported")
    if a_nd == 1 and b_nd == 1:
        return g * np.asarray(a)
    if a_nd == 1:
        return np.multiply.outer(a, g)
    return np.dot(np.transpose(a), g)


def unsubscript(g, x, index):
    """The adjoint of `x[index]`: zeros shaped like x, with g added at index.

    Repeated integer indices accumulate (np.add.at semantics).
    """
    if isinstance(x, (tuple, list)):
        raise TypeError(
            "tangentlike: indexing a tuple or list that holds differentiated values is not "
            "supported yet; unpack tuples of arrays where they are built (a, b = x, y) or "
            "stack them into an array"
        )
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
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


def prod_others(a, axis):
    """For each element of `a`, the product of the other elements reduced with it.

    Exact when `a` holds zeros (no division): exclusive products from both sides.
    """
    a = np.asarray(a)
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = tuple(ax % a.ndim for ax in (axis if isinstance(axis, tuple) else (axis,)))
    rest = [i for i in range(a.ndim) if i not in axes]
    order = rest + list(axes)
    moved = np.transpose(a, order)
    flat = moved.reshape((*moved.shape[: len(rest)], -1))
    ones = np.ones_like(flat[..., :1])
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return np.transpose((left * right).reshape(moved.shape), np.argsort(order))


def unarray(g, obj):
    """The adjoint of `np.array(obj)`: g in the structure of obj (a list, tuple or array)."""
    if isinstance(obj, (list, tuple)):
        return [unarray(g[i], item) for i, item in enumerate(obj)]
    return np.reshape(g, np.shape(obj))
