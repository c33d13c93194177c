"""Rule maths of rules/numpy.py: adjoints too long for a one-line template.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to


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
    return sum_to(ga, shape).reshape(np.shape(a))


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
    return sum_to(gb, shape).reshape(np.shape(b))


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
    """The adjoint of `np.array(obj)`: g shaped like obj, an array even for a list of
    same-shape values (so two such adjoints add, never concatenate); for a ragged
    list, a list of per-element adjoints."""
    if isinstance(obj, (list, tuple)):
        try:
            shape = np.shape(obj)
        except ValueError:  # ragged
            return [unarray(g[i], item) for i, item in enumerate(obj)]
        return np.reshape(g, shape)
    return np.reshape(g, np.shape(obj))


def cumprod_vjp(g, a, result, axis):
    """The adjoint of `a` in `np.cumprod(a, axis)`, exact when `a` holds zeros.

    Before the first zero of a lane the gradient is a reverse cumulative sum of
    g * result divided by a; at the first zero it is the reverse cumulative sum
    of g times the products with that zero replaced by one; after it, zero.
    """
    shape = np.shape(a)
    a, g, result = np.asarray(a), np.asarray(g), np.asarray(result)
    if axis is None:
        a, axis = a.ravel(), 0
    zero = a == 0
    seen = np.cumsum(zero, axis=axis)
    before = seen == 0
    first = zero & (seen == 1)
    tail = np.flip(np.cumsum(np.flip(g * result, axis), axis), axis)
    out = np.where(before, tail / np.where(before, a, 1.0), 0.0)
    if first.any():
        bridged = np.cumprod(np.where(first, 1.0, a), axis=axis)
        at_zero = np.flip(np.cumsum(np.flip(g * bridged, axis), axis), axis)
        out = out + np.where(first, at_zero, 0.0)
    return np.reshape(out, shape)


def weights_like(weights, a, axis):
    """`np.average`'s weights shaped to broadcast against `a` (1-D weights lie along axis)."""
    weights = np.asarray(weights)
    if weights.shape == np.shape(a) or axis is None:
        return weights
    ndim = np.ndim(a)
    shape = [1] * ndim
    shape[axis % ndim if isinstance(axis, int) else axis[0] % ndim] = weights.size
    return weights.reshape(shape)


def unweights(g, weights, axis):
    """Sum the adjoint `g` (shaped like the averaged array) down to `np.average`'s weights."""
    shape = np.shape(weights)
    g = np.asarray(g)
    if g.shape == shape:
        return g
    ndim = g.ndim
    keep = axis % ndim if isinstance(axis, int) else axis[0] % ndim
    return np.sum(g, axis=tuple(i for i in range(ndim) if i != keep)).reshape(shape)


def undiagonal(g, a, offset, axis1, axis2):
    """Zeros shaped like `a` with `g` on the diagonal `np.diagonal(a, offset, axis1, axis2)`.

    `g` has the diagonal's shape (other axes first, the diagonal last), or a
    trailing 1 in place of the diagonal to put the same value all along it.
    """
    shape = np.shape(a)
    ndim = len(shape)
    axis1, axis2 = axis1 % ndim, axis2 % ndim
    rest = [n for i, n in enumerate(shape) if i not in (axis1, axis2)]
    n1, n2 = shape[axis1], shape[axis2]
    g = np.asarray(g)
    out = np.zeros((*rest, n1, n2), dtype=np.result_type(g.dtype, np.float32))
    k = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    rows = np.arange(k) + max(-offset, 0)
    cols = np.arange(k) + max(offset, 0)
    out[..., rows, cols] = g
    return np.moveaxis(out, (-2, -1), (axis1, axis2))


def tensordot_vjp(g, a, b, axes, side):
    """The adjoint of operand `side` (0: a, 1: b) in `np.tensordot(a, b, axes)`."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if isinstance(axes, (int, np.integer)):
        a_axes = list(range(a_nd - axes, a_nd))
        b_axes = list(range(axes))
    else:
        a_axes, b_axes = axes
        a_axes = [int(i) % a_nd for i in np.atleast_1d(a_axes)]
        b_axes = [int(i) % b_nd for i in np.atleast_1d(b_axes)]
    a_free = [i for i in range(a_nd) if i not in a_axes]
    b_free = [i for i in range(b_nd) if i not in b_axes]
    g_a = list(range(len(a_free)))  # the axes of g that come from a
    g_b = list(range(len(a_free), len(a_free) + len(b_free)))
    if side == 0:
        out = np.tensordot(g, b, (g_b, b_free))  # a_free + b's contracted axes, ascending
        order = a_free + [a_axes[b_axes.index(i)] for i in sorted(b_axes)]
        return np.transpose(out, np.argsort(order))
    out = np.tensordot(a, g, (a_free, g_a))  # a's contracted axes, ascending + b_free
    order = [b_axes[a_axes.index(i)] for i in sorted(a_axes)] + b_free
    return np.transpose(out, np.argsort(order))


def inner_vjp(g, a, b, side):
    """The adjoint of operand `side` (0: a, 1: b) in `np.inner(a, b)`."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 0 or b_nd == 0:
        other = b if side == 0 else a
        out = g * other
        return np.sum(out) if (a_nd if side == 0 else b_nd) == 0 else out
    if side == 0:  # g: a's leading axes + b's leading axes
        return np.tensordot(g, b, (list(range(a_nd - 1, a_nd + b_nd - 2)), list(range(b_nd - 1))))
    return np.tensordot(g, a, (list(range(a_nd - 1)), list(range(a_nd - 1))))


def einsum_vjp(g, subscripts, k, *operands):
    """The adjoint of operand `k` in `np.einsum(subscripts, *operands)`.

    An einsum of the output's adjoint with the other operands, spread back over
    indices that operand `k` alone sums (broadcast) or repeats (its diagonal),
    and summed over dimensions it broadcast (size 1). Trailing None operands
    (unused rule slots) are ignored.
    """
    operands = list(operands)
    while operands and operands[-1] is None:
        operands.pop()
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        inputs, output = spec.split("->")
    else:
        inputs, output = spec, None
    ins = inputs.split(",")
    used = set(spec) - set(",->.")
    spare = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used]
    pairs = list(zip(ins, operands, strict=True))
    ell_rank = max((np.ndim(op) - (len(s) - 3) for s, op in pairs if "..." in s), default=0)
    ell = "".join(spare[:ell_rank])
    ins = [
        s.replace("...", ell[ell_rank - (np.ndim(op) - (len(s) - 3)) :]) if "..." in s else s
        for s, op in pairs
    ]
    if output is None:
        counts = {c: "".join(ins).count(c) for c in set("".join(ins))}
        output = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        output = output.replace("...", ell)
    mine, op = ins[k], np.asarray(operands[k])
    others = [s for i, s in enumerate(ins) if i != k]
    other_ops = [o for i, o in enumerate(operands) if i != k]
    unique = "".join(dict.fromkeys(mine))
    reachable = set(output).union(*others)
    wanted = "".join(c for c in unique if c in reachable)
    t = np.einsum(",".join([output, *others]) + "->" + wanted, g, *other_ops)
    sizes = {c: op.shape[mine.index(c)] for c in unique}
    t = np.reshape(t, [t.shape[wanted.index(c)] if c in wanted else 1 for c in unique])
    t = np.broadcast_to(t, [t.shape[i] if c in wanted else sizes[c] for i, c in enumerate(unique)])
    summed = tuple(i for i, c in enumerate(unique) if sizes[c] == 1 and t.shape[i] != 1)
    if summed:
        t = np.sum(t, axis=summed, keepdims=True)
    if unique == mine:
        return t
    out = np.zeros(op.shape, dtype=np.result_type(t.dtype, np.float32))
    np.einsum(mine + "->" + unique, out)[...] = t
    return out


def kron_vjp(g, a, b, side):
    """The adjoint of operand `side` (0: a, 1: b) in `np.kron(a, b)`."""
    a, b = np.asarray(a), np.asarray(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    g = np.reshape(g, [n for pair in zip(sa, sb, strict=True) for n in pair])
    even, odd = list(range(0, 2 * nd, 2)), list(range(1, 2 * nd, 2))
    if side == 0:
        out = np.einsum(g, list(range(2 * nd)), b.reshape(sb), odd, even)
    else:
        out = np.einsum(g, list(range(2 * nd)), a.reshape(sa), even, odd)
    return np.reshape(out, a.shape if side == 0 else b.shape)


def unstack(g, arrays, kind):
    """Split the adjoint of `np.hstack`/`vstack`/`dstack`/`column_stack` back onto `arrays`."""
    if kind == "v":
        pieces = [np.atleast_2d(x) for x in arrays]
        axis = 0
    elif kind == "d":
        pieces = [np.atleast_3d(x) for x in arrays]
        axis = 2
    elif kind == "column":
        pieces = [np.reshape(x, (-1, 1)) if np.ndim(x) < 2 else x for x in arrays]
        axis = 1
    else:
        pieces = [np.atleast_1d(x) for x in arrays]
        axis = 0 if pieces[0].ndim == 1 else 1
    ends = np.cumsum([np.shape(p)[axis] for p in pieces])[:-1]
    parts = np.split(g, ends, axis=axis)
    return [np.reshape(p, np.shape(x)) for p, x in zip(parts, arrays, strict=True)]


def arange_vjp(g, arg, stop, result, side):
    """The adjoint of `start` (side 0) or `step` (side 2) in `np.arange(start, stop, step)`,
    whose values are start + i * step. With one argument (stop is None) that argument is
    the stop: the values are counts, locally constant in it; so are integer results."""
    dtype = np.result_type(arg)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    if stop is None or g is None or not np.issubdtype(np.result_type(result), np.inexact):
        return np.zeros(np.shape(arg), dtype=dtype)
    weights = 1.0 if side == 0 else np.arange(np.size(result))
    return np.asarray(np.sum(np.asarray(g) * weights), dtype=dtype)


def linspace_vjp(g, arg, result, num, endpoint, retstep, axis, side):
    """The adjoint of `start` (side 0) or `stop` (side 1) in `np.linspace`: the samples are
    start + t_k (stop - start) along `axis`, t_k = k / div (div = num - 1 with the endpoint,
    num without); with retstep, result and g are (samples, step) pairs, step = (stop -
    start) / div. Zero for integer samples (they are floored: locally constant)."""
    g_step = None
    if retstep:
        g, g_step = (None, None) if g is None else g
        result = result[0]
    dtype = np.result_type(arg)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    shape = np.shape(arg)
    if not np.issubdtype(np.result_type(result), np.inexact):
        return np.zeros(shape, dtype=dtype)
    div = num - 1 if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    weights = t if side == 1 else 1.0 - t
    total = np.zeros(np.shape(np.take(result, 0, axis=axis)))
    if g is not None:
        total = total + np.tensordot(weights, np.moveaxis(np.asarray(g), axis, 0), axes=1)
    if g_step is not None and div > 0:
        total = total + np.asarray(g_step) * ((1.0 if side == 1 else -1.0) / div)
    total = sum_to(total, shape)  # start and stop broadcast together: sum back to arg
    return np.asarray(total, dtype=dtype)


def unconcatenate_index(g, concatenator, items):
    """The adjoints of the items of `concatenator[items]` (np.r_, np.c_): g cut along the
    concatenation axis into each item's piece, shaped like the item; None for a slice
    (a constant range)."""
    axis = concatenator.axis
    widths = [np.shape(concatenator[item])[axis] for item in items]
    parts = np.split(np.asarray(g), np.cumsum(widths)[:-1], axis=axis)
    return [
        None if isinstance(item, slice) else np.reshape(part, np.shape(item))
        for part, item in zip(parts, items, strict=True)
    ]


def unsplit(g, result, axis):
    """The adjoint of `np.split`-like functions: the pieces' adjoints joined along axis.

    A piece whose adjoint is None (unused) contributes zeros.
    """
    parts = [np.zeros_like(r) if p is None else p for p, r in zip(g, result, strict=True)]
    return np.concatenate(parts, axis=axis)


def untile(g, a, reps):
    """The adjoint of `np.tile(a, reps)`: the tiles' adjoints summed."""
    shape = np.shape(a)
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    nd = max(len(shape), len(reps))
    sa = (1,) * (nd - len(shape)) + tuple(shape)
    sr = (1,) * (nd - len(reps)) + reps
    g = np.reshape(g, [n for pair in zip(sr, sa, strict=True) for n in pair])
    return np.reshape(np.sum(g, axis=tuple(range(0, 2 * nd, 2))), shape)


def unrepeat(g, a, repeats, axis):
    """The adjoint of `np.repeat(a, repeats, axis)`: each run of copies summed."""
    shape = np.shape(a)
    g = np.asarray(g)
    if axis is None:
        g, axis, n = g.ravel(), 0, int(np.prod(shape, dtype=int))
    else:
        axis = axis % len(shape)
        n = shape[axis]
    if np.ndim(repeats) == 0 or np.size(repeats) == 1:
        r = int(np.reshape(repeats, -1)[0]) if np.ndim(repeats) else int(repeats)
        split = (*g.shape[:axis], n, r, *g.shape[axis + 1 :])
        out = np.sum(np.reshape(g, split), axis=axis + 1)
    else:
        counts = np.asarray(repeats)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        if g.shape[axis] == 0:
            out = np.zeros((*g.shape[:axis], n, *g.shape[axis + 1 :]), dtype=g.dtype)
        else:
            out = np.add.reduceat(g, np.minimum(starts, g.shape[axis] - 1), axis=axis)
            keep = np.reshape(counts > 0, [n if i == axis else 1 for i in range(g.ndim)])
            out = np.where(keep, out, 0.0)
    return np.reshape(out, shape)


def unpad(g, array, pad_width, mode):
    """The adjoint of `np.pad(array, pad_width, mode)` for constant, edge, reflect, symmetric
    and wrap modes: the inner block for constant, copies summed back for the others."""
    shape = np.shape(array)
    ndim = len(shape)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=int), (ndim, 2))
    g = np.asarray(g)
    if mode == "constant":
        return g[tuple(slice(lo, lo + n) for (lo, _), n in zip(widths, shape, strict=True))]
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(f"tangentlike: no gradient for np.pad with mode={mode!r}")
    size = int(np.prod(shape, dtype=int))
    index = np.pad(np.arange(size).reshape(shape), widths, mode=mode)
    out = np.bincount(index.ravel(), weights=g.ravel(), minlength=size)
    return out.astype(g.dtype, copy=False).reshape(shape)


def unsort(g, a, axis):
    """The adjoint of `np.sort(a, axis)`: g sent back through the sorting permutation."""
    a = np.asarray(a)
    g = np.asarray(g)
    if axis is None:
        order = np.argsort(a, axis=None, kind="stable")
        out = np.empty_like(g)
        out[order] = g
        return out.reshape(a.shape)
    order = np.argsort(a, axis=axis, kind="stable")
    out = np.empty_like(g)
    np.put_along_axis(out, order, g, axis=axis)
    return out


def untake(g, a, indices, axis, mode):
    """The adjoint of `np.take(a, indices, axis, mode=mode)`; repeated indices accumulate."""
    shape = np.shape(a)
    g = np.asarray(g)
    out = np.zeros(shape, dtype=np.result_type(g.dtype, np.float32))
    indices = np.asarray(indices)
    if axis is None:
        flat, n = out.reshape(-1), out.size
    else:
        axis = axis % len(shape)
        flat, n = np.moveaxis(out, axis, 0), shape[axis]
        g = np.moveaxis(g, list(range(axis, axis + indices.ndim)), list(range(indices.ndim)))
    if mode == "wrap":
        indices = indices % n
    elif mode == "clip":
        indices = np.clip(indices, 0, n - 1)
    np.add.at(flat, indices, g)
    return out


def untake_along_axis(g, arr, indices, axis):
    """The adjoint of `np.take_along_axis(arr, indices, axis)`; repeated indices accumulate."""
    shape = np.shape(arr)
    g = np.asarray(g)
    out = np.zeros(shape, dtype=np.result_type(g.dtype, np.float32))
    if axis is None:
        np.add.at(out.reshape(-1), indices, g)
        return out
    indices = np.asarray(indices)
    axis = axis % len(shape)
    index = [
        np.arange(n).reshape([n if j == i else 1 for j in range(len(shape))])
        for i, n in enumerate(g.shape)
    ]
    index[axis] = indices
    np.add.at(out, tuple(index), g)
    return out


def uncast(g, x, result):
    """The adjoint of `x.astype(dtype)`: g in x's float type; zero for non-float targets."""
    dtype = np.result_type(x)
    if not np.issubdtype(np.result_type(result), np.inexact):
        return np.zeros(np.shape(x), dtype=dtype)
    return np.asarray(g, dtype=dtype)


def undiff(g, a, n, axis):
    """The adjoint of `np.diff(a, n, axis)`: n transposed first differences."""
    g = np.asarray(g)
    ndim = g.ndim
    widths = [(0, 0)] * ndim
    widths[axis % ndim] = (1, 1)
    for _ in range(n):
        g = -np.diff(np.pad(g, widths), axis=axis)
    return np.reshape(g, np.shape(a))


def convolve_vjp(g, a, v, mode, side, correlate):
    """The adjoint of operand `side` (0: a, 1: v) in `np.convolve` or `np.correlate`
    (a scalar operand is a sequence of one)."""
    shape = np.shape(a if side == 0 else v)
    g, a, v = np.asarray(g), np.ravel(a), np.ravel(v)
    n, m = a.size, v.size
    low = min(n, m)
    if mode == "full":
        offset = 0
    elif mode == "valid":
        offset = low - 1
    else:  # "same"
        offset = low // 2 if correlate and m > n else (low - 1) // 2
    full = np.zeros(n + m - 1, dtype=np.result_type(g.dtype, np.float32))
    full[offset : offset + g.size] = g
    w = v[::-1] if correlate else v  # the full result is np.convolve(a, w)
    if side == 0:
        return np.reshape(np.correlate(full, w, "valid"), shape)
    out = np.correlate(full, a, "valid")
    return np.reshape(out[::-1] if correlate else out, shape)


def median_vjp(g, a, axis, keepdims):
    """The adjoint of `np.median(a, axis)`: g to the middle element, or half to each of two."""
    a = np.asarray(a)
    g = np.asarray(g)
    if axis is None:
        flat = a.reshape(-1)
        work, axis_ = flat, 0
        g = g.reshape(1)
    else:
        axes = tuple(int(x) % a.ndim for x in np.atleast_1d(axis))
        rest = [i for i in range(a.ndim) if i not in axes]
        moved = np.transpose(a, rest + list(axes))
        work = moved.reshape((*moved.shape[: len(rest)], -1))
        axis_ = work.ndim - 1
        if keepdims:
            g = np.squeeze(g, axis=axes)
        g = g[..., None]
    n = work.shape[axis_]
    order = np.argsort(work, axis=axis_, kind="stable")
    out = np.zeros(work.shape, dtype=np.result_type(g.dtype, np.float32))
    if n % 2:
        np.put_along_axis(out, order[..., n // 2 : n // 2 + 1], g, axis=axis_)
    else:
        np.put_along_axis(out, order[..., n // 2 - 1 : n // 2 + 1], 0.5 * g, axis=axis_)
    if axis is None:
        return out.reshape(a.shape)
    out = out.reshape(moved.shape)
    return np.transpose(out, np.argsort(rest + list(axes)))


def select_vjp(g, condlist, choicelist, default):
    """The adjoints (of the choices as a list, of default) in `np.select`.

    A choice gets g where its condition is the first true one; default where none is.
    """
    g = np.asarray(g)
    taken = np.zeros(g.shape, dtype=bool)
    out = []
    for cond, choice in zip(condlist, choicelist, strict=True):
        mine = np.broadcast_to(cond, g.shape) & ~taken
        taken = taken | mine
        part = np.where(mine, g, 0.0)
        out.append(sum_to(part, np.shape(choice)))
    return out, sum_to(np.where(taken, 0.0, g), np.shape(default))


def trapezoid_vjp(g, y, x, dx, axis, side):
    """The adjoint of `y` (side 0) or `x` (side 1) in `np.trapezoid(y, x, dx, axis)`."""
    y = np.asarray(y)
    g = np.expand_dims(np.asarray(g), axis)
    n = y.shape[axis]
    if x is None:
        steps = np.full(n - 1, dx, dtype=np.result_type(y.dtype, np.float32))
    else:
        steps = np.diff(x, axis=axis if np.ndim(x) > 1 else -1)
    if np.ndim(steps) == 1:
        shape = [1] * y.ndim
        shape[axis] = n - 1
        steps = steps.reshape(shape)
    widths = [(0, 0)] * y.ndim
    widths[axis] = (1, 1)
    if side == 0:  # y_i weighs (x_{i+1} - x_{i-1}) / 2, ends half a step
        padded = np.pad(steps, widths)
        k = padded.shape[axis]
        return g * 0.5 * (np.take(padded, range(k - 1), axis) + np.take(padded, range(1, k), axis))
    pair = np.take(y, range(n - 1), axis) + np.take(y, range(1, n), axis)  # y_i + y_{i+1}
    padded = np.pad(g * 0.5 * pair, widths)  # d/dx_i of step i-1 is +, of step i is -
    k = padded.shape[axis]
    out = np.take(padded, range(k - 1), axis) - np.take(padded, range(1, k), axis)
    if np.ndim(x) == 1 and y.ndim > 1:
        out = np.sum(out, axis=tuple(i for i in range(y.ndim) if i != axis % y.ndim))
    return out


def interp_vjp(g, x, xp, fp, side):
    """The adjoint of `x` (side 0) or `fp` (side 2) in `np.interp(x, xp, fp)`.

    Outside [xp[0], xp[-1]] the value is constant (fp[0] or fp[-1]): x gets 0
    there. At a knot x gets the slope of the segment to its right.
    """
    g, x, xp, fp = np.asarray(g), np.asarray(x), np.asarray(xp), np.asarray(fp)
    n = xp.size
    i = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, n - 2)
    width = xp[i + 1] - xp[i]
    inside = (x >= xp[0]) & (x <= xp[-1])
    if side == 0:
        return np.where(inside & (x < xp[-1]), g * (fp[i + 1] - fp[i]) / width, 0.0)
    t = np.clip((x - xp[i]) / width, 0.0, 1.0)
    weights_hi = np.where(x > xp[-1], 1.0, np.where(inside, t, 0.0))
    weights_lo = np.where(x < xp[0], 1.0, np.where(inside, 1.0 - t, 0.0))
    out = np.bincount(i.ravel(), (g * weights_lo).ravel(), minlength=n)
    out = out + np.bincount((i + 1).ravel(), (g * weights_hi).ravel(), minlength=n)
    return out.astype(np.result_type(g.dtype, fp.dtype), copy=False)
