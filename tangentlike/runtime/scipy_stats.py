"""Rule maths of rules/scipy_stats.py: the multivariate normal's log density.

Part of the runtime: copied into generated modules that use it (NumPy only).

SciPy's `multivariate_normal` reads the lower triangle of `cov` (a scalar is
a multiple of the identity, a vector a diagonal): the density is that of the
symmetric matrix built from it, so a gradient in `cov` lives on the lower
triangle, like NumPy's cholesky's (runtime/numpy_linalg.py).
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to


def _mvn_parts(x, mean, cov):
    """(residuals as (..., d), the symmetric cov, its inverse, alpha = r C^-1)."""
    cov = np.asarray(cov, dtype=np.result_type(cov, 1.0))
    # SciPy's rule: the mean's size, else a matrix cov's, else 1
    dim = np.size(mean) if mean is not None else cov.shape[0] if cov.ndim == 2 else 1
    x = np.asarray(x)
    if x.ndim == 0:
        x = x[None]
    if x.ndim == 1:
        x = x[:, None] if dim == 1 else x[None, :]
    r = x - (0.0 if mean is None else np.asarray(mean))
    if cov.ndim == 0:
        full = cov * np.eye(dim)
    elif cov.ndim == 1:
        full = np.diag(cov)
    else:
        lower = np.tril(cov)
        full = lower + np.tril(cov, -1).T
    inverse = np.linalg.inv(full)
    return r, full, inverse, r @ inverse


def _on_cov(sym, cov):
    """A symmetric gradient in the full matrix, onto the `cov` SciPy reads."""
    if np.ndim(cov) == 0:
        return np.trace(sym)
    if np.ndim(cov) == 1:
        return np.diagonal(sym).copy()
    return 2.0 * np.tril(sym, -1) + np.diag(np.diagonal(sym))


def _from_cov(dcov, cov, dim):
    """The symmetric matrix a perturbation `dcov` of `cov` makes."""
    dcov = np.asarray(dcov, dtype=float)
    if np.ndim(cov) == 0:
        return dcov * np.eye(dim)
    if np.ndim(cov) == 1:
        return np.diag(dcov)
    return np.tril(dcov) + np.tril(dcov, -1).T


def mvn_logpdf_vjp(g, x, mean, cov):
    """The adjoints (of x, of mean, of cov) in `multivariate_normal.logpdf(x, mean, cov)`."""
    r, _, inverse, alpha = _mvn_parts(x, mean, cov)
    g = np.reshape(np.asarray(g, dtype=float), r.shape[:-1])
    weighted = g[..., None] * alpha
    gx = np.reshape(-weighted, np.shape(x))
    gmean = None
    if mean is not None:
        gmean = sum_to(np.sum(weighted.reshape(-1, r.shape[-1]), 0), np.shape(mean))
    flat_w, flat_a = np.reshape(g, -1), alpha.reshape(-1, r.shape[-1])
    outer = flat_a.T @ (flat_w[:, None] * flat_a)
    sym = 0.5 * (outer - np.sum(flat_w) * inverse)
    return gx, gmean, _on_cov(sym, cov)


def mvn_logpdf_jvp(x, mean, cov, dx, dmean, dcov):
    """The tangent of `multivariate_normal.logpdf(x, mean, cov)` along (dx, dmean, dcov)."""
    r, full, inverse, alpha = _mvn_parts(x, mean, cov)
    dr = np.zeros_like(r)
    if dx is not None:
        dr = dr + np.reshape(np.asarray(dx, dtype=float), r.shape)
    if mean is not None and dmean is not None:
        dr = dr - np.asarray(dmean, dtype=float)
    out = -np.sum(alpha * dr, axis=-1)
    if dcov is not None:
        dfull = _from_cov(dcov, cov, full.shape[0])
        quad = np.sum((alpha @ dfull) * alpha, axis=-1)
        out = out + 0.5 * quad - 0.5 * np.trace(inverse @ dfull)
    out = np.squeeze(out)
    return out[()] if out.ndim == 0 else out
