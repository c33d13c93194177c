"""Rule maths of rules/numpy_linalg.py: adjoints of numpy.linalg functions.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to


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
    return sum_to(ga, a.shape), sum_to(gb, np.shape(b))


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
    doubled = sym + np.swapaxes(sym, -1, -2)
    if UPLO == "L":
        return np.tril(doubled) - 0.5 * doubled * eye
    return np.triu(doubled) - 0.5 * doubled * eye


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
    t = np.zeros(s.shape + (k,), dtype=s.dtype)  # noqa: RUF005 (read as source)
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
