"""Forward-mode (tangent) maths of rules/numpy_linalg.py: the directional derivatives of
the matrix functions, each linear in its first argument, the input's tangent.

Part of the runtime: copied into generated modules that use it (NumPy only). Where
NumPy reads one triangle of its input (cholesky, eigh, eigvalsh) the tangent is that
of the function NumPy computes: of the symmetric matrix made from that triangle.
"""

from __future__ import annotations

import numpy as np

from .numpy_linalg import norm_vjp


def _t(x):
    return np.swapaxes(x, -1, -2)


def _from_triangle(t, lower):
    """The symmetric matrix NumPy sees when it reads one triangle of t."""
    tri = np.tril(t) if lower else np.triu(t)
    strict = np.tril(t, -1) if lower else np.triu(t, 1)
    return tri + _t(strict)


def cholesky_jvp(t, L, upper):
    """The tangent of `L = np.linalg.cholesky(a, upper=upper)`: L phi(L^-1 dA L^-T), phi
    taking the lower triangle with half the diagonal."""
    t, L = np.asarray(t), np.asarray(L)
    if upper:  # a = U^T U reads the upper triangle: the lower one of a^T, with L = U^T
        t, L = _t(t), _t(L)
    sym = _from_triangle(t, lower=True)
    inner = np.linalg.solve(L, _t(np.linalg.solve(L, _t(sym))))  # L^-1 dA L^-T
    phi = np.tril(inner) - 0.5 * inner * np.eye(L.shape[-1], dtype=inner.dtype)
    out = L @ phi
    return _t(out) if upper else out


def eigh_jvp(t, a, w, v, UPLO):
    """The tangent of `w, v = np.linalg.eigh(a, UPLO)` as (dw, dv), or of
    `w = np.linalg.eigvalsh(a, UPLO)` (v None) as dw. Eigenvector tangents assume
    distinct eigenvalues."""
    values_only = v is None
    if values_only:
        w, v = np.linalg.eigh(a, UPLO)
    w, v = np.asarray(w), np.asarray(v)
    m = _t(v) @ _from_triangle(np.asarray(t), UPLO == "L") @ v
    dw = np.diagonal(m, axis1=-2, axis2=-1)
    if values_only:
        return dw
    eye = np.eye(w.shape[-1], dtype=w.dtype)
    f = (1.0 - eye) / (w[..., None, :] - w[..., :, None] + eye)  # 1 / (w_j - w_i)
    return dw, v @ (f * m)


def svd_jvp(t, a, result, compute_uv):
    """The tangent of `np.linalg.svd(a, full_matrices=False, compute_uv=...)`: ds alone,
    or (du, ds, dvt). With singular vectors: distinct nonzero singular values."""
    t, a = np.asarray(t), np.asarray(a)
    if not compute_uv:
        u, _, vt = np.linalg.svd(a, full_matrices=False)
        return np.diagonal(_t(u) @ t @ _t(vt), axis1=-2, axis2=-1)
    u, s, vt = result
    m, n = a.shape[-2:]
    k = min(m, n)
    if u.shape[-1] != k or vt.shape[-2] != k:
        raise NotImplementedError(
            "tangentlike: the tangent of np.linalg.svd with singular vectors needs "
            "full_matrices=False (or a square matrix)"
        )
    v = _t(vt)
    p = _t(u) @ t @ v
    ds = np.diagonal(p, axis1=-2, axis2=-1)
    eye = np.eye(k, dtype=s.dtype)
    f = (1.0 - eye) / (s[..., None, :] ** 2 - s[..., :, None] ** 2 + eye)
    sr, sc = s[..., None, :], s[..., :, None]  # scale columns, rows
    du = u @ (f * (p * sr + sc * _t(p)))
    dv = v @ (f * (sc * p + _t(p) * sr))
    if m > k:
        du = du + (t @ v - u @ p) / sr
    if n > k:
        dv = dv + (_t(t) @ u - v @ _t(p)) / sr
    return du, ds, _t(dv)


def pinv_jvp(t, a, p):
    """The tangent of `p = np.linalg.pinv(a)`, the rank locally constant."""
    t, a, p = np.asarray(t), np.asarray(a), np.asarray(p)
    m, n = a.shape[-2:]
    left = np.eye(m, dtype=p.dtype) - a @ p  # I - A A+
    right = np.eye(n, dtype=p.dtype) - p @ a  # I - A+ A
    return -p @ t @ p + p @ _t(p) @ _t(t) @ left + right @ _t(t) @ _t(p) @ p


def qr_jvp(t, a, result, mode):
    """The tangent of `np.linalg.qr(a, mode)` for mode "reduced" (dq, dr) or "r" (dr),
    rows >= cols."""
    t, a = np.asarray(t), np.asarray(a)
    m, n = a.shape[-2:]
    if m < n or mode not in ("reduced", "r"):
        raise NotImplementedError(
            "tangentlike: the tangent of np.linalg.qr needs mode='reduced' or 'r' and "
            "at least as many rows as columns"
        )
    q, r = np.linalg.qr(a) if mode == "r" else result
    x = _t(np.linalg.solve(_t(r), _t(t)))  # t R^-1
    qx = _t(q) @ x
    lower = np.tril(qx, -1)
    omega = lower - _t(lower)  # Q^T dQ, skew
    dr = _t(q) @ t - omega @ r
    if mode == "r":
        return dr
    return q @ omega + x - q @ qx, dr


def matrix_power_jvp(t, a, n):
    """The tangent of `np.linalg.matrix_power(a, n)` (n any integer)."""
    t, a = np.asarray(t), np.asarray(a)
    if n == 0:
        return np.zeros(a.shape, dtype=np.result_type(a.dtype, t.dtype))
    base, dbase = a, t
    if n < 0:
        base = np.linalg.inv(a)
        dbase = -base @ t @ base
    k = abs(n)
    powers = [np.broadcast_to(np.eye(a.shape[-1], dtype=base.dtype), base.shape)]
    for _ in range(k - 1):
        powers.append(powers[-1] @ base)
    return sum(powers[i] @ dbase @ powers[k - 1 - i] for i in range(k))


def multi_dot_jvp(ts, arrays):
    """The tangent of `np.linalg.multi_dot(arrays)` from the operands' tangents `ts` (a
    list; None for an operand that does not move)."""
    total = None
    for i, t in enumerate(ts):
        if t is None:
            continue
        operands = list(arrays[:i]) + [t] + list(arrays[i + 1 :])  # noqa: RUF005 (read as source)
        term = np.linalg.multi_dot(operands)
        total = term if total is None else total + term
    if total is None:
        return np.zeros(np.shape(np.linalg.multi_dot(arrays)))
    return total


def norm_jvp(t, x, r, ord, axis, keepdims, kind):
    """The tangent of a norm (`np.linalg.norm`, `vector_norm`, `matrix_norm` by `kind`):
    each result entry is a function of its own slice, so its weights are the reverse
    form of a cotangent of ones."""
    weights = norm_vjp(np.ones_like(r), x, r, ord, axis, keepdims, kind)
    axes = (-2, -1) if kind == "matrix" else axis
    return np.sum(weights * t, axis=axes, keepdims=keepdims)


def solve_jvp(t, a, b, x):
    """The part of the tangent of `x = np.linalg.solve(a, b)` from t, the tangent of a:
    solve(a, t x), batched, b a vector or matrix (the part from b is solve(a, db))."""
    x = np.asarray(x)
    if np.ndim(b) == 1:
        return np.linalg.solve(a, (np.asarray(t) @ x[..., None]))[..., 0]
    return np.linalg.solve(a, np.asarray(t) @ x)


def slogdet_jvp(t, a, result):
    """The tangent of `np.linalg.slogdet(a)`: (0 for the sign, trace(a^-1 t))."""
    trace = np.sum(_t(np.linalg.inv(a)) * np.asarray(t), axis=(-2, -1))
    return np.zeros(np.shape(result[0])), trace
