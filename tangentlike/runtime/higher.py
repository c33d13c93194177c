"""The maths of the rules of runtime helpers (rules/runtime_helpers.py): what a generated
gradient's own helper calls contribute when that gradient is differentiated again.

Part of the runtime: copied into generated modules that use it (NumPy only). None is
a zero adjoint throughout, as in containers.py.
"""

from __future__ import annotations

import numpy as np

from .broadcast import unbroadcast
from .containers import add
from .numpy import _stack_layout


def _zeros_like(x):
    if isinstance(x, (list, tuple, dict, str, bytes, range)) or x is None:
        return None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(x), dtype=dtype)


def ungradient_like(g, b):
    """The adjoint of `b` in `gradient_like(b, x, name)`, given the adjoint `g` of its
    result (which has x's structure): g in b's structure (per-row lists, dicts, floats)."""
    if b is None or g is None:
        return None
    if isinstance(b, np.ndarray) and b.dtype == object and b.ndim == 0:
        return None
    if isinstance(b, dict):
        return {k: ungradient_like(_get(g, k), v) for k, v in b.items()}
    if isinstance(b, (list, tuple)):
        return [ungradient_like(_get(g, i), v) for i, v in enumerate(b)]
    if isinstance(b, (float, int)) and not isinstance(b, bool):
        return float(np.sum(g)) if np.ndim(g) else float(g)
    return np.reshape(np.asarray(g, dtype=np.result_type(b, np.float32)), np.shape(b))


def _get(g, key):
    if g is None:
        return None
    if isinstance(g, dict):
        return g.get(key)
    return g[key]


def add_part(g, a):
    """The adjoint of `a` in `add(a, b)` (the sum of two adjoints that may be containers),
    given the adjoint `g` of the sum: g in a's structure, undone of broadcasting."""
    if a is None or g is None:
        return None
    if isinstance(a, dict):
        return {k: add_part(_get(g, k), v) for k, v in a.items()}
    if isinstance(a, (list, tuple)):
        return [add_part(_get(g, i), v) for i, v in enumerate(a)]
    if isinstance(g, (list, tuple)):  # an array added to a list, along its first axis
        rows = [np.zeros(np.shape(a)[1:]) if r is None else r for r in g]
        return np.reshape(np.asarray(rows, dtype=np.result_type(a, np.float32)), np.shape(a))
    return unbroadcast(g, a)


def item_part(g, x, index, like):
    """The adjoint of the value `like` added at `x[index]` (by add_item or unsubscript),
    given the adjoint `g` of the result: g read at index, undone of broadcasting."""
    if g is None:
        return _zeros_like(like)
    if isinstance(g, dict):
        found = g.get(index)
    elif isinstance(g, (list, tuple)) and isinstance(index, slice):
        found = [g[k] for k in range(len(g))[index]]
    elif isinstance(g, (list, tuple)):
        found = g[index]
    else:
        found = unbroadcast(np.asarray(g)[index], like)
    return _zeros_like(like) if found is None else found


def unadd_vjp(h, g, x, y):
    """The adjoint of `g` in `unadd(g, x, y)`, given the adjoint `h` of its pair."""
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        left = [None] * len(x) if h0 is None else list(h0)
        right = [None] * len(y) if h1 is None else list(h1)
        return left + right
    shape = np.shape(g)
    out = np.zeros(shape, dtype=np.result_type(g, np.float32))
    for part in (h0, h1):
        if part is not None:
            out = out + np.broadcast_to(part, shape)
    return out


def unmul_vjp(h, g, x, y):
    """The adjoints (of g, x, y) in `unmul(g, x, y)`, given the adjoint `h` of its pair."""
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    if isinstance(y, (list, tuple)):
        dg, dy, dx = unmul_vjp(None if h is None else (h1, h0), g, y, x)
        return dg, dx, dy
    if isinstance(x, (list, tuple)):  # repetition: each repeat of g got the same adjoint
        n = len(x)
        if n == 0 or g is None:
            return None, None, None
        base = [None] * n if h0 is None else list(h0)
        return base * (len(g) // n), None, None
    gy, gx = np.asarray(g * y), np.asarray(g * x)
    d0 = np.zeros(gy.shape) if h0 is None else np.broadcast_to(h0, gy.shape)
    d1 = np.zeros(gx.shape) if h1 is None else np.broadcast_to(h1, gx.shape)
    dg = unbroadcast(d0 * y + d1 * x, g)
    return dg, unbroadcast(d1 * g, x), unbroadcast(d0 * g, y)


def unsetitem_vjp(h, g, index):
    """The adjoint of `g` in `unsetitem(g, index)` (g with a region zeroed, and that
    region), given the adjoint `h` of its pair."""
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    out = np.zeros(np.shape(g), dtype=np.result_type(g, np.float32))
    if h0 is not None:
        out = np.asarray(out + h0)  # an array, a 0-d one too (NumPy's sum is a number)
        out[index] = 0.0
    if h1 is not None:
        out[index] = out[index] + h1
    return out


def add_part_vjp(h, g):
    """The adjoint of `g` in `add_part(g, a)`, given the adjoint `h` of its result."""
    if h is None or g is None:
        return None
    if isinstance(g, dict):
        return {k: add_part_vjp(h.get(k) if isinstance(h, dict) else None, v) for k, v in g.items()}
    if isinstance(g, (list, tuple)):
        return [add_part_vjp(h[i] if i < len(h) else None, v) for i, v in enumerate(g)]
    return np.broadcast_to(h, np.shape(g))


def unmul_term(g, x, y, which):
    """One term of the tangent of `unmul(g, x, y)` = (g y undone against x, g x undone
    against y), bilinear: `which` = 1 for the term of x's tangent (x is that tangent here:
    only the second part moves), 0 for the term of y's tangent (y is that tangent: only
    the first part moves). A list times an int (repetition) moves with g only."""
    if isinstance(x, (list, tuple)) or isinstance(y, (list, tuple)) or g is None:
        return None, None
    if which == 1:
        return None, unbroadcast(np.asarray(g * x), y)
    return unbroadcast(np.asarray(g * y), x), None


def unsequence_vjp(h, g, x):
    """The adjoint of `g` in `unsequence(g, x)`, given the adjoint `h` of its result: h
    itself where unsequence passes g through (x a list or tuple, or g an array), h's rows
    as a list where it stacked the rows g lists (x an array), None for a dict x."""
    if h is None or g is None or isinstance(x, dict):
        return None
    if isinstance(x, (list, tuple)) or isinstance(g, np.ndarray):
        return h
    return [h[i] for i in range(len(g))]


def no_object_zero(t):
    """A tangent, with the zero a forward sweep gives a constant None or container
    (`np.zeros_like(None)`, a 0-d object array) read as None, the zero adjoint."""
    if isinstance(t, np.ndarray) and t.dtype == object and t.ndim == 0:
        return None
    return t


def unstack_vjp(h, g, arrays, kind):
    """The adjoint of `g` in `unstack(g, arrays, kind)`, given the adjoints `h` of its
    pieces (None for a zero one): the pieces joined back as the stacking joined them."""
    pieces, axis = _stack_layout(arrays, kind)
    h = [None] * len(pieces) if h is None else h
    parts = [
        np.zeros(np.shape(p)) if hp is None else np.reshape(hp, np.shape(p))
        for hp, p in zip(h, pieces, strict=True)
    ]
    return np.reshape(np.concatenate(parts, axis=axis), np.shape(g))


def unsum_vjp(h, g, iterable):
    """The adjoint of `g` in `unsum(g, iterable)` (each item's part of g, undone of
    broadcasting against it), given the adjoint `h` of its result: the items' adjoints
    broadcast back to g's shape and added."""
    shape = np.shape(g)
    if h is None:
        return None
    if isinstance(iterable, np.ndarray):
        return np.broadcast_to(np.sum(np.asarray(h), axis=0), shape).copy()
    total = np.zeros(shape)
    for part in h:
        if part is not None:
            total = total + np.broadcast_to(part, shape)
    return total


def linspace_vjp_vjp(h, g, arg, out, num, endpoint, retstep, axis, side):
    """The adjoint of `g` in `linspace_vjp(g, arg, out, ...)`, given the adjoint `h`
    of that start (side 0) or stop (side 1) adjoint: the samples h moves (the tangent
    of np.linspace when that end moves by h), and with retstep the step it moves, as
    a (samples, step) pair like g. Zero for integer samples."""
    samples = out[0] if retstep else out
    if h is None or not np.issubdtype(np.result_type(samples), np.inexact):
        return None
    div = num - 1 if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    weights = t if side == 1 else 1.0 - t
    sample_shape = list(np.shape(samples))
    del sample_shape[axis]
    moved = np.broadcast_to(np.asarray(h), sample_shape)
    part = np.moveaxis(np.multiply.outer(weights, moved), 0, axis)
    if not retstep:
        return part
    step = moved * ((1.0 if side == 1 else -1.0) / div) if div > 0 else np.zeros(sample_shape)
    return part, step


def unmul_vjp_vjp(r, h, g, x, y):
    """The adjoints (of h, g, x, y) in `unmul_vjp(h, g, x, y)`, given the adjoint `r` of
    its triple (of its g, x and y parts): unmul_vjp is bilinear in h and (g, x, y), its
    parts ub(h0 y + h1 x, g), ub(h1 g, x), ub(h0 g, y) (ub: unbroadcast). For a list
    repeated by an int only h's first part moves: each repeat's adjoint adds back."""
    r0, r1, r2 = (None, None, None) if r is None else (r[0], r[1], r[2])
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    if isinstance(y, (list, tuple)):
        dh, dg, dy, dx = unmul_vjp_vjp((r0, r2, r1), None if h is None else (h1, h0), g, y, x)
        return (None, None) if dh is None else (dh[1], dh[0]), dg, dx, dy
    if isinstance(x, (list, tuple)):
        n = len(x)
        if n == 0 or r0 is None:
            return None, None, None, None
        base = [None] * n
        for k, part in enumerate(r0):
            base[k % n] = _plus(base[k % n], part)
        return (base, None), None, None, None
    rg, rx, ry = _dense(r0, g), _dense(r1, x), _dense(r2, y)
    a0, a1 = _dense(h0, x), _dense(h1, y)
    dh = (_fit(rg * y + ry * g, x), _fit(rg * x + rx * g, y))
    return dh, _fit(rx * a1 + ry * a0, g), _fit(rg * a1, x), _fit(rg * a0, y)


def unmul_vjp_tangent(th, tg, tx, ty, h, g, x, y):
    """The tangent of `unmul_vjp(h, g, x, y)` given the tangents of its arguments (None
    or a zero object for a zero one): bilinear, the h term plus the (g, x, y) term."""
    th, tg, tx, ty = (no_object_zero(t) for t in (th, tg, tx, ty))
    first = unmul_vjp(th, g, x, y) if th is not None else (None, None, None)
    if isinstance(x, (list, tuple)) or isinstance(y, (list, tuple)):
        return first
    second = unmul_vjp(h, _dense(tg, g), _dense(tx, x), _dense(ty, y))
    return tuple(_plus(a, b) for a, b in zip(first, second, strict=True))


def unmul_vjp_term(h, t, g, x, y, which):
    """One term of the tangent of `unmul_vjp(h, g, x, y)`: the term of the tangent `t` of
    g (`which` 0), x (1) or y (2), with the parts ub(h0 y + h1 x, g), ub(h1 g, x),
    ub(h0 g, y) linear in (g, x, y); None for a list repeated by an int (only h moves)."""
    t = no_object_zero(t)
    if t is None or isinstance(x, (list, tuple)) or isinstance(y, (list, tuple)):
        return None
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    if which == 0:
        return _dense(None, g), _part(h1, t, x), _part(h0, t, y)
    if which == 1:
        return _part(h1, t, g), _dense(None, x), _dense(None, y)
    return _part(h0, t, g), _dense(None, x), _dense(None, y)


def add_terms(a, b):
    """The sum of two terms of one tangent, which have its structure (None is zero):
    `add(a, b)`. A forward template spells a sum of container-valued terms with it, and a
    term of zero tangents is dropped from it as from `+` (rules/tangent.py)."""
    return add(a, b)


def _part(h, t, like):
    """ub(h t, like), zeros when h is None (a zero adjoint)."""
    return _dense(None, like) if h is None else _fit(np.asarray(h * t), like)


def _fit(v, like):
    """v summed (unbroadcast) to like's shape, and broadcast up to it if smaller."""
    return np.broadcast_to(unbroadcast(np.asarray(v), like), np.shape(like)).copy()


def _dense(t, like):
    """t, or float zeros of like's shape for a zero (None) one."""
    return np.zeros(np.shape(like)) if t is None else t


def _plus(a, b):
    return b if a is None else a if b is None else a + b
