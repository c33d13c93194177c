"""Rule maths of rules/numpy_products.py: the adjoints of NumPy's products (matmul, dot,
tensordot, einsum, kron, convolve, interp, trapezoid).

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
    """The adjoint of `a` in `np.dot(a, b)`: scalars, vectors, matrices, and N-D operands
    (a sum product over a's last axis and b's second-to-last: a tensordot)."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 0 or b_nd == 0:
        ga = g * b
        return ga if a_nd else np.sum(ga)
    if a_nd > 2 or b_nd > 2:
        return tensordot_vjp(g, a, b, ([a_nd - 1], [max(b_nd - 2, 0)]), 0)
    if a_nd == 1 and b_nd == 1:
        return g * np.asarray(b)
    if b_nd == 1:
        return np.multiply.outer(g, b)
    return np.dot(g, np.transpose(b))


def dot_vjp_b(g, a, b):
    """The adjoint of `b` in `np.dot(a, b)` (scalars, vectors, matrices, N-D operands)."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 0 or b_nd == 0:
        gb = g * a
        return gb if b_nd else np.sum(gb)
    if a_nd > 2 or b_nd > 2:
        return tensordot_vjp(g, a, b, ([a_nd - 1], [max(b_nd - 2, 0)]), 1)
    if a_nd == 1 and b_nd == 1:
        return g * np.asarray(a)
    if a_nd == 1:
        return np.multiply.outer(a, g)
    return np.dot(np.transpose(a), g)


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


def einsum_vjp(g, subscripts, k, x0, x1=None, x2=None, x3=None, x4=None, x5=None):
    """The adjoint of operand `k` in `np.einsum(subscripts, x0, ...)`.

    An einsum of the output's adjoint with the other operands, spread back over
    indices that operand `k` alone sums (broadcast) or repeats (its diagonal),
    and summed over dimensions it broadcast (size 1). Trailing None operands
    (unused rule slots) are ignored.
    """
    operands = [x0, x1, x2, x3, x4, x5]
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


def interp_slope_vjp(c, x, xp, fp):
    """The adjoint of fp in `interp_vjp(c, x, xp, fp, 0)` (c times np.interp's slope in
    x, linear in fp), and the term of x's tangent in `interp_vjp(g, x, xp, fp, 2)` given
    c = g times that tangent: c / width sent to the right knot of x's segment, minus to
    its left, where x has a slope (inside [xp[0], xp[-1]), as interp_vjp takes it); in
    fp's float type. x's segment among the knots is locally constant."""
    c, x, xp = np.asarray(c), np.asarray(x), np.asarray(xp)
    n = xp.size
    i = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, n - 2)
    w = np.where((x >= xp[0]) & (x < xp[-1]), c / (xp[i + 1] - xp[i]), 0.0)
    w = np.broadcast_to(w, np.shape(i))
    out = np.bincount((i + 1).ravel(), w.ravel(), minlength=n)
    out = out - np.bincount(i.ravel(), w.ravel(), minlength=n)
    return out.astype(np.result_type(w.dtype, np.asarray(fp).dtype), copy=False)


def cross_vjp(g, a, b, axisa, axisb, axisc, axis, side):
    """The adjoint of operand `side` (0: a, 1: b) in `np.cross(a, b, axisa, axisb, axisc,
    axis)`: the vectors along axisa of a and axisb of b (2 or 3 components; a 2-vector is
    a 3-vector with a zero third component, and two 2-vectors give the third component
    only), the result's along axisc; `axis` overrides all three. With c = a x b,
    d[a] = b x d[c] and d[b] = d[c] x a, summed over broadcast axes."""
    if axis is not None:
        axisa = axisb = axisc = axis
    va = np.moveaxis(np.asarray(a), axisa, -1)
    vb = np.moveaxis(np.asarray(b), axisb, -1)
    na, nb = va.shape[-1], vb.shape[-1]
    pad = [(0, 0)] * (va.ndim - 1) + [(0, 1)]
    va3 = va if na == 3 else np.pad(va, pad)
    vb3 = vb if nb == 3 else np.pad(vb, [(0, 0)] * (vb.ndim - 1) + [(0, 1)])
    g = np.asarray(g)
    if na == 2 and nb == 2:  # the result is the third component alone
        g3 = np.zeros((*g.shape, 3), dtype=np.result_type(g, float))
        g3[..., 2] = g
    else:
        g3 = np.moveaxis(g, axisc, -1)
    if side == 0:
        out, n, shape = np.cross(vb3, g3), na, va.shape
    else:
        out, n, shape = np.cross(g3, va3), nb, vb.shape
    out = sum_to(out[..., :n], shape)
    return np.moveaxis(out, -1, axisa if side == 0 else axisb)
