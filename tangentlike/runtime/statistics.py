"""Rule maths of rules/numpy_statistics.py: quantiles, covariance and correlation,
Vandermonde matrices and polynomials (both forms); the median's adjoint. NumPy only.

A quantile (method "linear", NumPy's default) mixes two order statistics of each slice
with fixed weights: `quantile_weights` gives them, so both forms are a weighted sum.
Ties are broken by position (a stable sort), the subgradient the sort picks.
"""

from __future__ import annotations

import numpy as np


def _refuse(what: str, hint: str):
    raise ValueError(f"tangentlike: {what}\nWhat to do: {hint}")


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted(int(ax) % ndim for ax in np.atleast_1d(axis)))


def quantile_weights(a, q, axis, method):
    """W of shape (q.size, *a.shape) with np.quantile(a, q, axis)[j] the sum of W[j] * a
    over the reduced axes (method "linear"; any other method is refused)."""
    if method != "linear":
        _refuse(
            f"the gradient of np.quantile/np.percentile with method={method!r}",
            "use the default method ('linear'), or np.median / np.max for those order statistics",
        )
    a = np.asarray(a)
    qs = np.asarray(q, dtype=np.float64).reshape(-1)
    axes = _axes(axis, a.ndim)
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = np.transpose(a, rest + list(axes))
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    work = moved.reshape(-1, n)
    order = np.argsort(work, axis=-1, kind="stable")
    position = qs * (n - 1)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, n - 1)
    share = position - low
    weights = np.zeros((qs.size, *work.shape), dtype=np.result_type(a.dtype, np.float32))
    rows = np.arange(work.shape[0])
    for j in range(qs.size):
        weights[j, rows, order[:, low[j]]] += 1.0 - share[j]
        weights[j, rows, order[:, high[j]]] += share[j]
    weights = weights.reshape(qs.size, *moved.shape)
    back = np.argsort(rest + list(axes))
    return np.transpose(weights, [0, *(1 + back)])


def quantile_vjp(g, a, q, axis, keepdims, method):
    """The adjoint of `np.quantile(a, q, axis, keepdims=keepdims, method=method)`."""
    weights = quantile_weights(a, q, axis, method)
    kept = list(np.shape(a))
    for ax in _axes(axis, np.ndim(a)):
        kept[ax] = 1
    return np.sum(weights * np.reshape(g, (weights.shape[0], *kept)), axis=0)


def quantile_jvp(da, a, q, axis, keepdims, method):
    """The tangent of `np.quantile(a, q, axis, keepdims=keepdims, method=method)`."""
    weights = quantile_weights(a, q, axis, method)
    reduced = tuple(1 + ax for ax in _axes(axis, np.ndim(a)))
    mixed = np.sum(weights * np.asarray(da)[None], axis=reduced, keepdims=bool(keepdims))
    return mixed.reshape(np.shape(q) + mixed.shape[1:])


def _variables(m, rowvar):
    """np.cov's reading of m: variables as rows (a 2-D array), and whether it turned it."""
    x = np.atleast_2d(np.asarray(m, dtype=np.result_type(m, np.float64)))
    turned = not rowvar and x.shape[0] != 1
    return (x.T if turned else x), turned


def _cov_parts(m, y, rowvar, bias, ddof, fweights, aweights):
    if y is not None or fweights is not None or aweights is not None:
        _refuse(
            "the gradient of np.cov/np.corrcoef with y, fweights or aweights",
            "stack the variables into one array (np.vstack([m, y])) and pass it alone",
        )
    x, turned = _variables(m, rowvar)
    if ddof is None:
        ddof = 0 if bias else 1
    centred = x - np.mean(x, axis=1, keepdims=True)
    return x, turned, centred, x.shape[1] - ddof


def _as_input(dx, m, turned):
    return np.reshape(dx.T if turned else dx, np.shape(m))


def cov_vjp(g, m, y, rowvar, bias, ddof, fweights, aweights):
    """The adjoint of `np.cov(m, rowvar=rowvar, bias=bias, ddof=ddof)` (m alone)."""
    x, turned, centred, norm = _cov_parts(m, y, rowvar, bias, ddof, fweights, aweights)
    k = x.shape[0]
    g = np.reshape(g, (k, k))
    # rows of the centred data have zero mean, so (G + G^T) @ centred already does
    return _as_input((g + g.T) @ centred / norm, m, turned)


def cov_jvp(dm, m, y, rowvar, bias, ddof, fweights, aweights):
    """The tangent of `np.cov(m, rowvar=rowvar, bias=bias, ddof=ddof)` (m alone)."""
    _, turned, centred, norm = _cov_parts(m, y, rowvar, bias, ddof, fweights, aweights)
    dx = np.atleast_2d(np.asarray(dm, dtype=np.result_type(dm, np.float64)))
    dx = dx.T if turned else dx
    dcentred = dx - np.mean(dx, axis=1, keepdims=True)
    dc = (dcentred @ centred.T + centred @ dcentred.T) / norm
    return dc.squeeze()


def _correlation(x, rowvar):
    c = np.atleast_2d(np.cov(x, rowvar=rowvar))
    s = np.sqrt(np.diag(c))
    return c, s, c / np.outer(s, s)


def corrcoef_vjp(g, x, y, rowvar):
    """The adjoint of `np.corrcoef(x, rowvar=rowvar)` (x alone)."""
    c, s, r = _correlation(x, rowvar)
    k = c.shape[0]
    g = np.reshape(g, (k, k))
    dc = g / np.outer(s, s)
    dc[np.diag_indices(k)] -= np.sum((g + g.T) * r, axis=1) / (2.0 * s**2)
    return cov_vjp(dc, x, y, rowvar, False, None, None, None)


def corrcoef_jvp(dx, x, y, rowvar):
    """The tangent of `np.corrcoef(x, rowvar=rowvar)` (x alone)."""
    _, s, r = _correlation(x, rowvar)
    dc = np.atleast_2d(cov_jvp(dx, x, y, rowvar, False, None, None, None))
    ds = np.diag(dc) / (2.0 * s)
    dr = dc / np.outer(s, s) - r * (ds[:, None] / s[:, None] + ds[None, :] / s[None, :])
    return dr.squeeze()


def vander_slope(x, n, increasing):
    """S with S[i, j] = d np.vander(x, n, increasing)[i, j] / d x[i]."""
    x = np.asarray(x)
    n = x.shape[0] if n is None else int(n)
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    lowered = np.maximum(powers - 1, 0)  # x ** 0 where the power is 0: no nan at x = 0
    return powers * x[:, None] ** lowered


def polyval_slope(p, x):
    """d np.polyval(p, x) / dx: the derivative polynomial's value at x (the coefficients
    along p's first axis, as np.polyval reads them)."""
    p = np.asarray(p)
    n = p.shape[0]
    powers = np.reshape(np.arange(n - 1, 0, -1), (n - 1,) + (1,) * (p.ndim - 1))
    return np.polyval(p[:-1] * powers, x)


def polyval_vjp_p(g, p, x):
    """The adjoint of `np.polyval(p, x)` with respect to the coefficients p."""
    n = np.shape(p)[0]
    x = np.asarray(x, dtype=np.result_type(x, np.float64))
    powers = x[..., None] ** np.arange(n - 1, -1, -1)
    return np.tensordot(g, powers, axes=np.ndim(x))


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
