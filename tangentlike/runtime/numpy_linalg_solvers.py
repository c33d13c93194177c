"""Rule maths of rules/numpy_linalg.py for `lstsq` and `eig`/`eigvals`, both forms.

Part of the runtime: copied into generated modules that use it (NumPy only).
`lstsq` is differentiated where `a` has full rank (x = pinv(a) b, the rank
constant nearby); `eig` where the eigenvalues are real and distinct. Outside
those, each helper raises a check error: a gradient there would be wrong.
"""

from __future__ import annotations

import numpy as np

from .numpy_linalg import svd_vjp


def _full_rank(a, rank):
    """`a`, checked to have full rank (what lstsq's rule differentiates)."""
    if rank < min(np.shape(a)):
        raise ValueError(
            f"tangentlike: np.linalg.lstsq of a rank-deficient matrix (rank {rank} of "
            f"shape {np.shape(a)}): its solution jumps with the rank, no gradient follows it\n"
            "What to do: regularize (add a small ridge) or drop the dependent columns."
        )
    return np.asarray(a)


def _columns(v):
    """A vector as one column, a matrix as itself."""
    v = np.asarray(v)
    return v[:, None] if v.ndim == 1 else v


def lstsq_vjp(g, a, b, result):
    """The adjoints (of a, of b) in `x, res, rank, s = np.linalg.lstsq(a, b)`, with
    x = pinv(a) b for full-rank a; `g` holds the four cotangents (None: zero)."""
    x, res, rank, s = result
    g_x, g_res, _, g_s = g
    a = _full_rank(a, rank)
    xs, bs = _columns(x), _columns(b)
    r = bs - a @ xs  # the residuals, zero when a has full row rank
    ga = np.zeros(a.shape, dtype=np.result_type(a, xs))
    gb = np.zeros(bs.shape, dtype=ga.dtype)
    if g_x is not None:
        p = np.linalg.pinv(a)
        gx = _columns(g_x)
        ptg = p.T @ gx
        # d pinv(a) = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P
        ga = ga - ptg @ xs.T + r @ (p @ ptg).T + (p.T @ xs) @ (gx - p @ (a @ gx)).T
        gb = gb + ptg
    if g_res is not None and np.size(res):  # res_k = |r_k|^2, stationary in x
        weighted = 2.0 * r * np.asarray(g_res)
        ga = ga - weighted @ xs.T
        gb = gb + weighted
    if g_s is not None:
        ga = ga + svd_vjp(g_s, a, s, False)
    return ga, gb.reshape(np.shape(b))


def lstsq_jvp(ta, tb, a, b, result):
    """The tangent (dx, dres, None, ds) of `np.linalg.lstsq(a, b)` along (ta, tb)."""
    x, res, rank, _ = result
    a = _full_rank(a, rank)
    ta, tb = np.asarray(ta), np.asarray(tb)
    xs, bs = _columns(x), _columns(b)
    r = bs - a @ xs
    p = np.linalg.pinv(a)
    n = a.shape[1]
    dx = (
        -p @ ta @ xs
        + p @ p.T @ ta.T @ r
        + (np.eye(n, dtype=p.dtype) - p @ a) @ ta.T @ p.T @ xs
        + p @ _columns(tb)
    )
    dres = res
    if np.size(res):
        dres = 2.0 * np.sum(r * (_columns(tb) - ta @ xs), axis=0)
    u, _, vt = np.linalg.svd(a, full_matrices=False)
    ds = np.einsum("ik,ij,jk->k", u, ta, vt.T)
    return dx.reshape(np.shape(x)), dres, None, ds


def _real_eigen(w, what):
    """The eigenvalues `w`, checked to be real (what eig's rule differentiates)."""
    if np.iscomplexobj(w):
        raise ValueError(
            f"tangentlike: {what} has complex eigenvalues here: tangentlike differentiates "
            "real code, and the real part of a complex eigendecomposition is not the "
            "derivative\nWhat to do: use np.linalg.eigh for a symmetric matrix, or keep "
            "the matrix's eigenvalues real."
        )
    return np.asarray(w)


def _eig_like(a, w):
    """`np.linalg.eig(a)` with its eigenpairs in the order of `w = eigvals(a)`."""
    w = _real_eigen(w, "np.linalg.eigvals")
    w2, v = np.linalg.eig(a)
    w2 = _real_eigen(w2, "np.linalg.eigvals")
    order = np.argmin(np.abs(w[..., :, None] - w2[..., None, :]), axis=-1)
    return w, np.take_along_axis(v, order[..., None, :], axis=-1)


def _gaps(w):
    """F[i, j] = 1 / (w[j] - w[i]) off the diagonal, 0 on it."""
    eye = np.eye(w.shape[-1], dtype=w.dtype)
    return (1.0 - eye) / (w[..., None, :] - w[..., :, None] + eye)


def eig_vjp(g_w, g_v, a, w, v):
    """The adjoint of `a` in `w, v = np.linalg.eig(a)`, or in `w = eigvals(a)` (v None),
    for real distinct eigenvalues; NumPy's eigenvectors have unit norm."""
    if v is None:
        w, v = _eig_like(a, w)
    w, v = _real_eigen(w, "np.linalg.eig"), np.asarray(v)
    vt = np.swapaxes(v, -1, -2)
    n = w.shape[-1]
    eye = np.eye(n, dtype=w.dtype)
    inner = np.zeros(w.shape + (n,), dtype=w.dtype)  # noqa: RUF005 (read as source)
    if g_w is not None:
        inner = inner + eye * np.expand_dims(g_w, -2)
    if g_v is not None:
        vtg = vt @ g_v
        # unit-norm columns: dv_i has no part along v_i
        k = vtg - (vt @ v) @ (vtg * eye)
        inner = inner + _gaps(w) * k
    return np.linalg.solve(vt, inner @ vt)  # V^-T H V^T


def eig_jvp(t, a, w, v):
    """The tangent of `w, v = np.linalg.eig(a)` as (dw, dv), or of `w = eigvals(a)`
    (v None) as dw, for real distinct eigenvalues."""
    values_only = v is None
    if values_only:
        w, v = _eig_like(a, w)
    w, v = _real_eigen(w, "np.linalg.eig"), np.asarray(v)
    e = np.linalg.solve(v, np.asarray(t) @ v)  # V^-1 dA V
    dw = np.diagonal(e, axis1=-2, axis2=-1)
    if values_only:
        return dw
    c = _gaps(w) * e
    vtvc = np.swapaxes(v, -1, -2) @ v @ c
    dv = v @ (c - np.eye(w.shape[-1], dtype=w.dtype) * vtvc)
    return dw, dv
