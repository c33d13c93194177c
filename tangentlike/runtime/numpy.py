"""Rule maths of rules/numpy_reductions.py, numpy_shape.py and numpy_values.py: adjoints
too long for a one-line template (the products' are in numpy_products.py).

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to


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
    flat = moved.reshape(moved.shape[: len(rest)] + (-1,))  # noqa: RUF005 (read as source)
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

    With no zero in `a`: a reverse cumulative sum of g * result, divided by a. This
    source is differentiated again for second order (rules/runtime_helpers.py
    THROUGH_SOURCE); `a` holding a zero goes to cumprod_vjp_at_zeros, whose rule refuses
    a second derivative at run time (its formula takes the lane after a zero as 0).
    """
    shape = np.shape(a)
    a, g, result = np.asarray(a), np.asarray(g), np.asarray(result)
    if np.any(a == 0):
        return cumprod_vjp_at_zeros(g, a, result, axis)
    if axis is None:
        a, axis = a.ravel(), 0
    tail = np.flip(np.cumsum(np.flip(g * result, axis), axis), axis)
    return np.reshape(tail / a, shape)


def cumprod_vjp_at_zeros(g, a, product, axis):
    """cumprod_vjp where `a` holds zeros (exact); `product` is np.cumprod(a, axis).

    Before the first zero of a lane the gradient is a reverse cumulative sum of
    g * product divided by a; at the first zero it is the reverse cumulative sum
    of g times the products with that zero replaced by one; after it, zero.
    """
    shape = np.shape(a)
    a, g, result = np.asarray(a), np.asarray(g), np.asarray(product)
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


def unstack(g, arrays, kind):
    """Split the adjoint of `np.hstack`/`vstack`/`dstack`/`column_stack` back onto `arrays`."""
    pieces, axis = _stack_layout(arrays, kind)
    ends = np.cumsum([np.shape(p)[axis] for p in pieces])[:-1]
    parts = np.split(g, ends, axis=axis)
    return [np.reshape(p, np.shape(x)) for p, x in zip(parts, arrays, strict=True)]


def _stack_layout(arrays, kind):
    """The pieces `np.hstack`/`vstack`/`dstack`/`column_stack` (kind "h", "v", "d",
    "column") join, each raised to the dimension they join at, and the joining axis."""
    if kind == "v":
        return [np.atleast_2d(x) for x in arrays], 0
    if kind == "d":
        return [np.atleast_3d(x) for x in arrays], 2
    if kind == "column":
        return [np.reshape(x, (-1, 1)) if np.ndim(x) < 2 else x for x in arrays], 1
    pieces = [np.atleast_1d(x) for x in arrays]
    return pieces, 0 if pieces[0].ndim == 1 else 1


def arange_vjp(g, arg, stop, values, side):
    """The adjoint of `start` (side 0) or `step` (side 2) in `np.arange(start, stop, step)`,
    whose values are start + i * step. With one argument (stop is None) that argument is
    the stop: the values are counts, locally constant in it; so are integer results."""
    dtype = np.result_type(arg)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    if stop is None or g is None or not np.issubdtype(np.result_type(values), np.inexact):
        return np.zeros(np.shape(arg), dtype=dtype)
    weights = 1.0 if side == 0 else np.arange(np.size(values))
    return np.asarray(np.sum(np.asarray(g) * weights), dtype=dtype)


def linspace_vjp(g, arg, out, num, endpoint, retstep, axis, side):
    """The adjoint of `start` (side 0) or `stop` (side 1) in `np.linspace`: the samples are
    start + t_k (stop - start) along `axis`, t_k = k / div (div = num - 1 with the endpoint,
    num without); with retstep, out and g are (samples, step) pairs, step = (stop -
    start) / div. Zero for integer samples (they are floored: locally constant)."""
    g_step = None
    if retstep:
        g, g_step = (None, None) if g is None else g
        out = out[0]
    dtype = np.result_type(arg)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    shape = np.shape(arg)
    if not np.issubdtype(np.result_type(out), np.inexact):
        return np.zeros(shape, dtype=dtype)
    div = num - 1 if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    weights = t if side == 1 else 1.0 - t
    sample_shape = list(np.shape(out))
    del sample_shape[axis]  # the shape of one sample (none may exist: num = 0)
    total = np.zeros(sample_shape)
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


def unsplit(g, pieces, axis):
    """The adjoint of `np.split`-like functions: the pieces' adjoints joined along axis
    (`pieces`: the function's result, the pieces).

    A piece whose adjoint is None (unused) contributes zeros.
    """
    parts = [np.zeros_like(r) if p is None else p for p, r in zip(g, pieces, strict=True)]
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


def _permutation(a, result, axis):
    """For `result`, a permutation of `a` along `axis` (np.partition's, whose order apart
    from the kth entries is NumPy's choice): (where in a, where in result) of each entry,
    as index arrays along the axis (the k-th smallest of each: ties pair up in order)."""
    return np.argsort(a, axis=axis, kind="stable"), np.argsort(result, axis=axis, kind="stable")


def unpartition(g, a, partitioned, axis):
    """The adjoint of `np.partition(a, kth, axis)` (its value `partitioned`): g sent back
    through the permutation that made partitioned from a."""
    a, g, partitioned = np.asarray(a), np.asarray(g), np.asarray(partitioned)
    if axis is None:
        return unpartition(g, a.reshape(-1), partitioned, 0).reshape(a.shape)
    source, target = _permutation(a, partitioned, axis)
    out = np.empty(a.shape, dtype=np.result_type(g, np.float32))
    np.put_along_axis(out, source, np.take_along_axis(g, target, axis=axis), axis=axis)
    return out


def partitioned_like(t, a, partitioned, axis):
    """The tangent of `partitioned = np.partition(a, kth, axis)`: t permuted as a was."""
    a, partitioned = np.asarray(a), np.asarray(partitioned)
    t = np.broadcast_to(t, a.shape)
    if axis is None:
        return partitioned_like(t.reshape(-1), a.reshape(-1), partitioned, 0)
    source, target = _permutation(a, partitioned, axis)
    out = np.empty(partitioned.shape, dtype=np.result_type(t, np.float32))
    np.put_along_axis(out, target, np.take_along_axis(t, source, axis=axis), axis=axis)
    return out


def unrollaxis(g, a, axis, start=0):
    """The adjoint of `np.rollaxis(a, axis, start)`: g with the moved axis put back."""
    nd = np.ndim(a)
    axis = axis % nd
    start = start + nd if start < 0 else start
    if axis < start:
        start -= 1
    order = [i for i in range(nd) if i != axis]
    order.insert(start, axis)
    return np.transpose(g, np.argsort(order))


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


def uncast(g, x, out):
    """The adjoint of `x` in `out = x.astype(dtype)`: g in x's float type; zero for
    non-float targets."""
    dtype = np.result_type(x)
    if not np.issubdtype(np.result_type(out), np.inexact):
        return np.zeros(np.shape(x), dtype=dtype)
    if np.iscomplexobj(g) and dtype.kind != "c":
        if not np.iscomplexobj(out):  # a complex adjoint of a real value: a bug upstream
            raise ValueError(
                "tangentlike: a complex adjoint reached a real value through a cast: a complex "
                "value was computed where tangentlike did not see it being made"
            )
        g = np.real(g)  # x.astype(complex): the real x takes the real part
    return np.asarray(g, dtype=dtype)


def unconcatenate(g, arrays, axis):
    """The adjoint of `np.concatenate(arrays, axis)`: g cut along the axis into pieces
    of the arrays' lengths (views of g, as np.split gives)."""
    if type(g) is np.ndarray and g.ndim == 1 and axis in (0, -1):
        # the common case first: vectors (lists or 1-D arrays), cut without index tuples
        pieces = []
        start = 0
        for x in arrays:
            end = start + (x.shape[0] if type(x) is np.ndarray else len(x))
            pieces.append(g[start:end])
            start = end
        return pieces
    g = np.asarray(g)
    pieces = []
    start = 0
    index = [slice(None)] * g.ndim
    for x in arrays:
        size = np.shape(x)[axis]
        index[axis] = slice(start, start + size)
        pieces.append(g[tuple(index)])
        start += size
    return pieces


def undiff(g, a, n, axis):
    """The adjoint of `np.diff(a, n, axis)`: n transposed first differences."""
    if (
        n == 1
        and type(g) is np.ndarray
        and g.ndim == 1
        and type(a) is np.ndarray
        and a.shape == (g.shape[0] + 1,)
    ):
        # the common case first, a vector: out[k] = g[k - 1] - g[k] (g[-1], g[len]: 0)
        out = np.zeros(a.shape, dtype=g.dtype)
        out[1:] = g
        out[:-1] -= g
        return out
    g = np.asarray(g)
    ndim = g.ndim
    if n == 1 and np.ndim(a) == ndim and np.shape(a)[axis] == g.shape[axis] + 1:
        # the common case first: out[k] = g[k - 1] - g[k], without padding
        out = np.zeros(np.shape(a), dtype=g.dtype)
        later = [slice(None)] * ndim
        earlier = [slice(None)] * ndim
        later[axis], earlier[axis] = slice(1, None), slice(None, -1)
        out[tuple(later)] += g
        out[tuple(earlier)] -= g
        return out
    widths = [(0, 0)] * ndim
    widths[axis % ndim] = (1, 1)
    for _ in range(n):
        g = -np.diff(np.pad(g, widths), axis=axis)
    return np.reshape(g, np.shape(a))


def gradient_vjp(g, f, spacings, axis, edge_order):
    """The adjoint of `np.gradient(f, *spacings, axis=axis, edge_order=edge_order)` (the
    spacings are given positionally, None past the last): per differentiated axis of
    length n, the difference matrix D = np.gradient(I_n) along that spacing (scalar or
    coordinates), and the adjoint D^T applied along the axis; g is one array, or one per
    axis (a list) when several axes are differentiated."""
    f = np.asarray(f)
    axes = list(range(f.ndim)) if axis is None else [int(a) % f.ndim for a in np.atleast_1d(axis)]
    given = [h for h in spacings if h is not None]
    per_axis = given * len(axes) if len(given) == 1 else given or [1.0] * len(axes)
    parts = [g] if len(axes) == 1 else list(g)
    out = np.zeros(f.shape, dtype=np.result_type(f, np.float32))
    for ax, h, part in zip(axes, per_axis, parts, strict=True):
        if part is None:
            continue
        n = f.shape[ax]
        matrix = np.gradient(np.eye(n), h, axis=0, edge_order=edge_order)
        back = np.tensordot(matrix.T, np.moveaxis(np.asarray(part), ax, 0), axes=1)
        out += np.moveaxis(back, 0, ax)
    return out


def zero_if_real(g, x, what):
    """The zero gradient of `what` (np.imag, np.angle) at a real `x`: locally constant
    there. A complex x raises: tangentlike differentiates real code only, and zero
    would be wrong for it."""
    if np.iscomplexobj(x):
        raise ValueError(
            f"tangentlike: {what} of a complex value: tangentlike differentiates real code "
            "only (no complex convention)"
        )
    return np.zeros(np.shape(x), dtype=np.result_type(g, np.float32))


def gradient_of(f, spacings, axis, edge_order):
    """`np.gradient(f, *spacings, axis=axis, edge_order=edge_order)` over the spacings
    given (the rule's unused slots are None): linear in f, its own tangent."""
    given = [h for h in spacings if h is not None]
    return np.gradient(f, *given, axis=axis, edge_order=edge_order)


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
