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
        try:  # a list of same-shape values: its adjoint is their stacked array
            x = np.asarray(x, dtype=float)
        except ValueError:
            raise TypeError(
                "tangentlike: indexing a tuple or list that holds differentiated values of "
                "different shapes is not supported yet; unpack it where it is built "
                "(a, b = x, y) or stack the values into an array"
            ) from None
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
    extra = total.ndim - len(shape)  # start and stop broadcast together: sum back to arg
    if extra > 0:
        total = total.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and total.shape[i] != 1)
    if axes:
        total = total.sum(axis=axes, keepdims=True)
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


def norm_vjp(g, x, r, ord, axis, keepdims, kind):
    """The adjoint of `x` in `np.linalg.norm` (kind "norm"), `vector_norm` or `matrix_norm`.

    Subgradients at kinks: 0 where a 2-norm or p-norm is 0; `inf`/`-inf` and
    matrix 1/inf orders share the gradient equally among tied maxima (minima);
    ord=0 (a count) has zero gradient; 2 and -2 on matrices follow one singular
    vector pair, which assumes the extreme singular value is simple.
    """
    x, g, r = np.asarray(x), np.asarray(g), np.asarray(r)
    nd = x.ndim
    if axis is None:
        if kind == "matrix":
            axes = (nd - 2, nd - 1)
        elif kind == "vector" or ord is None or nd == 1:
            axes = tuple(range(nd))
        else:
            axes = (0, 1)
    else:
        axes = tuple(int(a) % nd for a in np.atleast_1d(axis))
    if not keepdims:
        g, r = np.expand_dims(g, axes), np.expand_dims(r, axes)
    matrix = kind == "matrix" or (kind == "norm" and len(axes) == 2 and ord is not None)
    safe_r = np.where(r == 0, 1.0, r)
    if not matrix:
        if ord is None or ord == 2:
            return g * x / safe_r
        if ord == 1:
            return g * np.sign(x)
        if ord in (np.inf, -np.inf):
            hit = np.abs(x) == r
            return g * np.sign(x) * hit / np.sum(hit, axis=axes, keepdims=True)
        if ord == 0:
            return np.zeros_like(g * x)
        return g * np.where(x == 0, 0.0, np.sign(x) * (np.abs(x) / safe_r) ** (ord - 1))
    a0, a1 = axes
    if ord is None or ord == "fro":
        return g * x / safe_r
    if ord in (1, -1, np.inf, -np.inf):
        summed, other = (a0, a1) if ord in (1, -1) else (a1, a0)
        hit = np.sum(np.abs(x), axis=summed, keepdims=True) == r
        return g * np.sign(x) * hit / np.sum(hit, axis=other, keepdims=True)
    xm = np.moveaxis(x, axes, (-2, -1))
    u, _, vt = np.linalg.svd(xm, full_matrices=False)
    if ord == "nuc":
        grad = u @ vt
    elif ord == 2:
        grad = u[..., :, :1] @ vt[..., :1, :]
    else:
        grad = u[..., :, -1:] @ vt[..., -1:, :]
    return g * np.moveaxis(grad, (-2, -1), axes)


def solve_vjp(g, a, b, x):
    """The adjoints (of a, of b) in `x = np.linalg.solve(a, b)`, batched, b a vector or matrix."""
    a, g, x = np.asarray(a), np.asarray(g), np.asarray(x)
    vector = np.ndim(b) == 1
    if vector:
        g, x = g[..., None], x[..., None]
    gb = np.linalg.solve(np.swapaxes(a, -1, -2), g)
    ga = -gb @ np.swapaxes(x, -1, -2)
    if vector:
        gb = gb[..., 0]
    extra = gb.ndim - np.ndim(b)
    if extra > 0:
        gb = gb.sum(axis=tuple(range(extra)))
    extra = ga.ndim - a.ndim
    if extra > 0:
        ga = ga.sum(axis=tuple(range(extra)))
    return ga, gb


def slogdet_vjp(g, a):
    """The adjoint of `a` in `np.linalg.slogdet(a)`; only log|det| carries a gradient."""
    g_logdet = g[1]
    if g_logdet is None:
        return np.zeros_like(a)
    inv_t = np.swapaxes(np.linalg.inv(a), -1, -2)
    return np.expand_dims(g_logdet, (-2, -1)) * inv_t


def cholesky_vjp(g, L, upper):
    """The adjoint of `a` in `L = np.linalg.cholesky(a)`.

    NumPy reads one triangle of `a` (the lower, or the upper when upper=True),
    so the gradient lives on that triangle: it is the symmetric gradient with
    the off-diagonal halves folded onto the triangle read.
    """
    g, L = np.asarray(g), np.asarray(L)
    if upper:  # a = U^T U with U = L^T
        g, L = np.swapaxes(g, -1, -2), np.swapaxes(L, -1, -2)
    n = L.shape[-1]
    eye = np.eye(n, dtype=L.dtype)
    p = np.tril(np.swapaxes(L, -1, -2) @ g)
    p = p - 0.5 * p * eye
    lt = np.swapaxes(L, -1, -2)
    s = np.swapaxes(np.linalg.solve(lt, np.swapaxes(np.linalg.solve(lt, p), -1, -2)), -1, -2)
    sym = s + np.swapaxes(s, -1, -2)
    folded = np.tril(sym) - 0.5 * sym * eye
    return np.swapaxes(folded, -1, -2) if upper else folded


def eigh_vjp(g_w, g_v, a, w, v, UPLO):
    """The adjoint of `a` in `w, v = np.linalg.eigh(a)`, or in `w = eigvalsh(a)` (v None).

    Assumes distinct eigenvalues where eigenvectors carry a gradient. NumPy
    reads one triangle of `a`, so the gradient is folded onto it.
    """
    if v is None:
        w, v = np.linalg.eigh(a, UPLO)
    w, v = np.asarray(w), np.asarray(v)
    vt = np.swapaxes(v, -1, -2)
    inner = np.zeros(w.shape + w.shape[-1:], dtype=w.dtype)
    n = w.shape[-1]
    eye = np.eye(n, dtype=w.dtype)
    if g_w is not None:
        inner = inner + eye * np.expand_dims(g_w, -2)
    if g_v is not None:
        gap = w[..., None, :] - w[..., :, None] + eye
        inner = inner + (1.0 - eye) / gap * (vt @ g_v)
    sym = v @ inner @ vt
    sym = 0.5 * (sym + np.swapaxes(sym, -1, -2))
    tri = np.tril if UPLO == "L" else np.triu
    doubled = sym + np.swapaxes(sym, -1, -2)
    return tri(doubled) - 0.5 * doubled * eye


def svd_vjp(g, a, result, compute_uv):
    """The adjoint of `a` in `np.linalg.svd(a, full_matrices=False, compute_uv=...)`.

    With singular vectors: assumes distinct nonzero singular values.
    """
    a = np.asarray(a)
    if not compute_uv:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        return (u * np.expand_dims(g, -2)) @ vt
    u, s, vt = result
    g_u, g_s, g_vt = g
    m, n = a.shape[-2:]
    k = min(m, n)
    if u.shape[-1] != k or vt.shape[-2] != k:
        raise NotImplementedError(
            "tangentlike: the gradient of np.linalg.svd with singular vectors needs "
            "full_matrices=False (or a square matrix)"
        )
    v = np.swapaxes(vt, -1, -2)
    eye = np.eye(k, dtype=s.dtype)
    f = 1.0 / (s[..., None, :] ** 2 - s[..., :, None] ** 2 + eye) * (1.0 - eye)
    t = np.zeros((*s.shape, k), dtype=s.dtype)
    if g_s is not None:
        t = t + eye * np.expand_dims(g_s, -1)
    if g_u is not None:
        utgu = np.swapaxes(u, -1, -2) @ g_u
        t = t + f * (utgu - np.swapaxes(utgu, -1, -2)) * s[..., None, :]
    if g_vt is not None:
        g_v = np.swapaxes(g_vt, -1, -2)
        vtgv = vt @ g_v
        t = t + s[..., :, None] * (f * (vtgv - np.swapaxes(vtgv, -1, -2)))
    out = u @ t @ vt
    if m > n and g_u is not None:
        proj = np.eye(m, dtype=s.dtype) - u @ np.swapaxes(u, -1, -2)
        out = out + proj @ (g_u / s[..., None, :]) @ vt
    if m < n and g_vt is not None:
        proj = np.eye(n, dtype=s.dtype) - v @ vt
        out = out + u @ (np.swapaxes(g_v / s[..., None, :], -1, -2)) @ proj
    return out


def pinv_vjp(g, a, p):
    """The adjoint of `a` in `p = np.linalg.pinv(a)`, assuming the rank is locally constant."""
    a, g, p = np.asarray(a), np.asarray(g), np.asarray(p)
    pt, gt = np.swapaxes(p, -1, -2), np.swapaxes(g, -1, -2)
    m, n = a.shape[-2:]
    left = np.eye(m, dtype=p.dtype) - a @ p  # I - A A+
    right = np.eye(n, dtype=p.dtype) - p @ a  # I - A+ A
    return -pt @ g @ pt + left @ gt @ p @ pt + pt @ p @ gt @ right


def qr_vjp(g, a, result, mode):
    """The adjoint of `a` in `np.linalg.qr(a, mode)` for mode "reduced" or "r", rows >= cols."""
    a = np.asarray(a)
    m, n = a.shape[-2:]
    if m < n or mode not in ("reduced", "r"):
        raise NotImplementedError(
            "tangentlike: the gradient of np.linalg.qr needs mode='reduced' or 'r' and "
            "at least as many rows as columns"
        )
    if mode == "r":
        q, r = np.linalg.qr(a)
        g_q, g_r = None, g
    else:
        q, r = result
        g_q, g_r = g
    m_ = np.zeros(r.shape, dtype=r.dtype)
    if g_r is not None:
        m_ = m_ + r @ np.swapaxes(g_r, -1, -2)
    if g_q is not None:
        m_ = m_ - np.swapaxes(g_q, -1, -2) @ q
    copyltu = np.tril(m_) + np.swapaxes(np.tril(m_, -1), -1, -2)
    b = q @ copyltu
    if g_q is not None:
        b = b + g_q
    # b @ R^{-T}
    return np.swapaxes(np.linalg.solve(r, np.swapaxes(b, -1, -2)), -1, -2)


def matrix_power_vjp(g, a, n):
    """The adjoint of `a` in `np.linalg.matrix_power(a, n)` (n any integer)."""
    a, g = np.asarray(a), np.asarray(g)
    if n == 0:
        return np.zeros_like(a, dtype=np.result_type(a.dtype, g.dtype))
    base = a if n > 0 else np.linalg.inv(a)
    bt = np.swapaxes(base, -1, -2)
    k = abs(n)
    powers = [np.broadcast_to(np.eye(a.shape[-1], dtype=base.dtype), base.shape)]
    for _ in range(k - 1):
        powers.append(powers[-1] @ bt)
    gb = sum(powers[i] @ g @ powers[k - 1 - i] for i in range(k))
    if n > 0:
        return gb
    return -bt @ gb @ bt


def multi_dot_vjp(g, arrays):
    """The adjoints of the operands of `np.linalg.multi_dot(arrays)` (a list)."""
    mats = [np.asarray(x) for x in arrays]
    first_vec, last_vec = mats[0].ndim == 1, mats[-1].ndim == 1
    if first_vec:
        mats[0] = mats[0][None, :]
    if last_vec:
        mats[-1] = mats[-1][:, None]
    g = np.asarray(g).reshape(mats[0].shape[0], mats[-1].shape[1])
    left = [np.eye(mats[0].shape[0], dtype=g.dtype)]
    for x in mats[:-1]:
        left.append(left[-1] @ x)
    right = [np.eye(mats[-1].shape[1], dtype=g.dtype)]
    for x in mats[:0:-1]:
        right.append(x @ right[-1])
    right = right[::-1]
    return [np.reshape(left[i].T @ g @ right[i].T, np.shape(arrays[i])) for i in range(len(mats))]


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
        shape = np.shape(choice)
        extra = part.ndim - len(shape)
        if extra > 0:
            part = part.sum(axis=tuple(range(extra)))
        axes = tuple(i for i, k in enumerate(shape) if k == 1 and part.shape[i] != 1)
        if axes:
            part = part.sum(axis=axes, keepdims=True)
        out.append(part)
    rest = np.where(taken, 0.0, g)
    extra = rest.ndim - np.ndim(default)
    if extra > 0:
        rest = rest.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, k in enumerate(np.shape(default)) if k == 1 and rest.shape[i] != 1)
    if axes:
        rest = rest.sum(axis=axes, keepdims=True)
    return out, rest


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


def unsetitem(g, index):
    """The adjoint of `y[index] = v`: (g with the written region zeroed, g's region).

    Both are new arrays. Repeated integer indices in a write are refused: only
    the last write survives, and which one that is is not something to guess.
    """
    g = np.array(g, dtype=np.result_type(g, np.float32), copy=True)
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (list, np.ndarray)) and np.asarray(p).dtype.kind in "iu" for p in parts):
        hits = np.zeros(g.shape, dtype=np.intp)
        np.add.at(hits, index, 1)
        if hits.max(initial=0) > 1:
            raise ValueError("tangentlike: y[index] = v with repeated indices is not supported")
    region = np.array(g[index], copy=True)
    g[index] = 0.0
    return g, region


def unshared(value, others, what):
    """Raise ValueError when an array `value` holds (itself, or inside a list, tuple, dict
    or object) may share memory with one of `others` (or whatever they hold): an update
    in place, which `what` describes, would change them too.

    Numbers never raise: `value += v` makes a new one. Objects that hold neither arrays
    nor plain values (functions, say) count as sharing.
    """

    def held(x, found, seen):  # the arrays and lists in x, or None for an unknown object
        if id(x) in seen or isinstance(x, (int, float, complex, str, bytes, np.generic)):
            return found
        seen.add(id(x))
        if x is None:
            return found
        if isinstance(x, np.ndarray):
            return [*found, x]
        if isinstance(x, (list, tuple, dict)):
            found = [*found, x] if isinstance(x, list) else found
            parts = x.values() if isinstance(x, dict) else x
        elif hasattr(x, "__dict__") and not callable(x):
            parts = vars(x).values()
        else:
            return None
        for part in parts:
            found = held(part, found, seen) if found is not None else None
        return found

    mine = held(value, [], set())
    if not mine:
        return
    theirs = held(others, [], set())
    if theirs is None or any(
        a is b
        or (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.may_share_memory(a, b))
        for a in mine
        for b in theirs
    ):
        raise ValueError(
            f"tangentlike: {what}. tangentlike differentiates that as making a new array, "
            "which is not what runs: update out of place (z = z + ..., or return a new "
            "array and use it) if a new array was meant, or take a copy (.copy()) where "
            "the arrays start sharing memory"
        )


def selects(x, what):
    """Raise TypeError unless `x[...]` selects: x is an array, list, tuple, dict, string or
    range, whose index the gradient takes for an integer or a key (`what` says where)."""
    if not isinstance(x, (np.ndarray, np.generic, list, tuple, dict, str, bytes, range)):
        raise TypeError(
            f"tangentlike: {what}; a {type(x).__name__} computes its [...] with its own "
            "__getitem__, which this gradient did not differentiate: index an array, list, "
            "tuple or dict, or call the method (type(x).__getitem__(x, k)) in a function "
            "whose objects are globals or a bound self"
        )


def stop_gradient(x):
    """`x` itself; tangentlike sends no gradient through it."""
    return x


# --- containers: adjoints of lists, tuples and dicts -------------------------------
# The adjoint of a list or tuple is a list of per-element adjoints, the adjoint of a
# dict a dict of per-key adjoints; None stands for a zero adjoint at any level.


def add(a, b):
    """The sum of two adjoints that may be containers (None is zero).

    Lists add element by element (an array against a list adds along its first
    axis), dicts key by key; anything else adds with `+`, out of place.
    """
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) or isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = add(out.get(key), value)
        return out
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"tangentlike: adjoints of lengths {len(a)} and {len(b)} added")
        return [add(x, y) for x, y in zip(a, b)]  # noqa: B905 (lengths checked above)
    return a + b


def add_item(b, x, index, g):
    """`b` plus the adjoint `g` of the read `x[index]`.

    For a list, tuple or dict `x`, `b` is a list or dict of per-element adjoints,
    created on first use and updated in place (each read costs O(1)); for an array
    `x`, a new array (repeated integer indices accumulate).
    """
    if isinstance(x, dict):
        b = {} if b is None else b
        b[index] = add(b.get(index), g)
        return b
    if isinstance(x, (list, tuple)):
        b = [None] * len(x) if b is None else list(b) if isinstance(b, np.ndarray) else b
        if isinstance(index, slice):
            positions = range(len(x))[index]
            for k, piece in zip(positions, g):  # noqa: B905 (g is the slice's adjoint)
                b[k] = add(b[k], piece)
        else:
            b[index] = add(b[index], g)
        return b
    out = unsubscript(g, x, index)
    return out if b is None else b + out


def zeros_of(x):
    """The zero adjoint of `x`: None for a list, tuple or dict (or a str, None: keys
    and labels carry no gradient), float zeros otherwise."""
    if isinstance(x, (list, tuple, dict, str, bytes)) or x is None:
        return None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(x), dtype=dtype)


def part(b, key, like):
    """Element `key` of the container adjoint `b`, or the zero adjoint of `like` when the
    element (or all of b) is zero. `b` may also be an array (a list's stacked adjoint)."""
    value = None if b is None else b.get(key) if isinstance(b, dict) else b[key]
    if value is not None:
        return value
    if isinstance(like, (list, tuple, dict, str, bytes)) or like is None:
        return None
    dtype = np.result_type(like)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(like), dtype=dtype)


def unappend(b, value):
    """The adjoint of `xs.append(value)`: (b without its last element, that element's
    adjoint, zeros like `value` when it is zero). Shortens the list `b` in place."""
    if isinstance(b, np.ndarray):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    g = None if b is None else b.pop()
    if g is None and not (isinstance(value, (list, tuple, dict, str, bytes)) or value is None):
        dtype = np.result_type(value)
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        g = np.zeros(np.shape(value), dtype=dtype)
    return b, g


def unextend(b, n):
    """The adjoint of `xs.extend(items)` with len(items) == n: (b without its last n
    elements, their adjoints as a list, or None when all are zero). Shortens b in place."""
    if b is None:
        return None, None
    if isinstance(b, np.ndarray):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    tail = b[len(b) - n :]
    del b[len(b) - n :]
    return b, tail


def unsum(g, iterable, start=0):
    """The adjoint of the builtin `sum(iterable, start)` for each item: g undone of any
    broadcasting against that item."""
    out = []
    for item in iterable:
        if isinstance(item, (list, tuple, dict)):
            raise TypeError("tangentlike: sum() over containers is not differentiable")
        shape = np.shape(item)
        piece = np.asarray(g)
        if piece.shape != shape:
            extra = piece.ndim - len(shape)
            if extra > 0:
                piece = piece.sum(axis=tuple(range(extra)))
            axes = tuple(i for i, n in enumerate(shape) if n == 1 and piece.shape[i] != 1)
            if axes:
                piece = piece.sum(axis=axes, keepdims=True)
        out.append(piece)
    return out


def dict_of(keys, values):
    """The dict a dict comprehension builds: `values[i]` under `keys[i]`, later ones win."""
    return dict(zip(keys, values))  # noqa: B905 (built together by the comprehension)


def undict_of(g, keys):
    """The adjoint of `dict_of(keys, values)` for `values`: per position, the adjoint of
    its key, only for the last position holding that key (earlier ones were replaced)."""
    last = {key: i for i, key in enumerate(keys)}
    return [g.get(key) if g is not None and last[key] == i else None for i, key in enumerate(keys)]


def iterable(x):
    """What a `for` loop over `x` visits, as something indexable: a dict's keys (a list),
    anything else unchanged."""
    return list(x) if isinstance(x, dict) else x


def unadd(g, x, y):
    """The adjoints of x and y in `x + y`: for two lists or tuples (concatenation) the
    two parts of g; otherwise g undone of broadcasting against each. None is zero."""
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        if g is None:
            return None, None
        g = list(g)
        return g[: len(x)], g[len(x) :]

    def undo(g, x):
        shape = np.shape(x)
        g = np.asarray(g)
        extra = g.ndim - len(shape)
        if extra > 0:
            g = g.sum(axis=tuple(range(extra)))
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
        return g.sum(axis=axes, keepdims=True) if axes else g

    if g is None:
        return None, None
    return undo(g, x), undo(g, y)


def unmul(g, x, y):
    """The adjoints of x and y in `x * y`: for a list or tuple times an int (repetition)
    the sum of g's repeats for the sequence; otherwise the product rule, g undone of
    broadcasting against each. None is zero."""
    if isinstance(y, (list, tuple)):
        gy, gx = unmul(g, y, x)
        return gx, gy
    if isinstance(x, (list, tuple)):
        if g is None or len(x) == 0:
            return None, None
        g = list(g)
        n = len(x)
        total = g[:n]
        for k in range(n, len(g), n):
            total = [
                a if b is None else b if a is None else a + b
                for a, b in zip(total, g[k : k + n], strict=True)
            ]
        return total, None

    def undo(g, x):
        shape = np.shape(x)
        g = np.asarray(g)
        extra = g.ndim - len(shape)
        if extra > 0:
            g = g.sum(axis=tuple(range(extra)))
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
        return g.sum(axis=axes, keepdims=True) if axes else g

    if g is None:
        return None, None
    return undo(g * y, x), undo(g * x, y)


def unsequence(g, x):
    """The adjoint of `x` in `list(x)` / `tuple(x)`: g itself for a list or tuple x, the
    stacked rows for an array x (zeros where g holds None), None for a dict (keys)."""
    if isinstance(x, dict) or g is None:
        return None
    if isinstance(x, (list, tuple)) or isinstance(g, np.ndarray):
        return g
    rows = [np.zeros(np.shape(r)) if p is None else p for p, r in zip(g, x, strict=True)]
    return np.reshape(np.asarray(rows), np.shape(x))
