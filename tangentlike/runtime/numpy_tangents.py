"""Forward-mode (tangent) maths of the NumPy rules: what a one-line tangent template
cannot say (rules/numpy_*.py), and the tangents of casts and containers.

Part of the runtime: copied into generated modules that use it (NumPy only). Each
helper is linear in its first argument, a tangent.
"""

from __future__ import annotations

import numpy as np


def cast_tangent(t, like):
    """The tangent `t` of a value cast like `like` (the cast's result): in its float type,
    zero (float) for an integer or boolean result, whose values do not move; a tuple or
    list part by part. `t` itself when it already fits (it shares memory as the result
    does: a new array's tangent is new, and may be written in place like the result); a
    new array when it must be broadcast (never a read-only view: `v = np.array(...);
    v[i] += ...`)."""
    if isinstance(like, (tuple, list)):
        return type(like)(cast_tangent(ti, ri) for ti, ri in zip(t, like, strict=True))
    dtype = np.result_type(like)
    if not np.issubdtype(dtype, np.inexact):
        return np.zeros(np.shape(like))
    t = np.asarray(t, dtype=dtype)
    if t.shape == np.shape(like):
        return t
    return np.array(np.broadcast_to(t, np.shape(like)))


def einsum_of(subscripts, x0, x1=None, x2=None, x3=None, x4=None, x5=None, optimize=False):
    """`np.einsum(subscripts, x0, ...)` over the operand slots in use (the rule's unused
    slots are None)."""
    operands = [x for x in (x0, x1, x2, x3, x4, x5) if x is not None]
    return np.einsum(subscripts, *operands, optimize=optimize)


def sorted_like(t, a, axis):
    """The tangent of `np.sort(a, axis)`: t in the order that sorts a (stable, as the
    reverse form's permutation)."""
    t, a = np.asarray(t), np.asarray(a)
    if axis is None:
        return np.broadcast_to(t, a.shape).reshape(-1)[np.argsort(a, axis=None, kind="stable")]
    order = np.argsort(a, axis=axis, kind="stable")
    return np.take_along_axis(np.broadcast_to(t, a.shape), order, axis=axis)


def cumprod_jvp(t, a, axis):
    """The tangent of `np.cumprod(a, axis)`, exact when `a` holds zeros: entry k is the sum
    over j <= k of t[j] times the product of a[:k + 1] without a[j]. Out of place, plain
    NumPy calls with rules of their own: differentiated again through this source (grad of
    a jvp: rules/runtime_sources.py THROUGH_SOURCE)."""
    a = np.asarray(a)
    t = np.broadcast_to(np.asarray(t), a.shape)
    if axis is None:
        a, t, axis = a.reshape(-1), t.reshape(-1), 0
    a, t = np.moveaxis(a, axis, -1), np.moveaxis(t, axis, -1)
    positions = np.arange(a.shape[-1])
    out = np.zeros(a.shape, dtype=np.result_type(a.dtype, t.dtype, np.float32))
    for j in range(a.shape[-1]):
        others = np.where(positions == j, 1.0, a)  # a with a[j] replaced by 1
        products = t[..., j : j + 1] * np.cumprod(others, axis=-1)
        out = out + np.where(positions >= j, products, 0.0)
    return np.moveaxis(out, -1, axis)


def quotient_remainder_tangent(t, pair):
    """The tangent of `divmod(x, y)` (and np.divmod) given t, the remainder's (`pair`: the
    result, quotient and remainder): the quotient is locally constant."""
    quotient, remainder = pair
    return np.zeros(np.shape(quotient)), t + np.zeros(np.shape(remainder))


def iterable_tangent(t, x):
    """The tangent of `runtime.iterable(x)`: a dict's keys and a range's ints do not move
    (None, a zero, for each: the loop over them indexes it)."""
    return [None] * len(x) if isinstance(x, (dict, range)) else t
