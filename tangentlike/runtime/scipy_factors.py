"""Rule maths of rules/scipy_linalg.py for the factor-and-solve pairs (cho_factor and
cho_solve, lu_factor and lu_solve) and sqrtm's checks, both forms. NumPy only.

Part of the runtime: copied into generated modules that use it. A factor is
differentiated as the packed array SciPy returns: `cho_factor`'s c holds the
Cholesky factor in one triangle and a copy of `a` in the other (checked: SciPy
documents that triangle as unspecified, so anything else is refused); `lu_factor`'s
lu holds L below the diagonal (unit diagonal implied) and U on and above it, with
the pivots constant (they change only at ties). The solves read only the parts
the factors define.
"""

from __future__ import annotations

import numpy as np

from .numpy_linalg import cholesky_vjp
from .numpy_linalg_tangents import cholesky_jvp


def _t(x):
    return np.swapaxes(x, -1, -2)


def _columns(v, b):
    """v as a matrix of columns: for a vector right-hand side b, one column."""
    v = np.asarray(v)
    return v[..., None] if np.ndim(b) == 1 else v


def _other_triangle(c, lower):
    """The part of a cho_factor result that is not the factor."""
    return np.triu(c, 1) if lower else np.tril(c, -1)


def _copied(c, a, lower):
    """Whether cho_factor's unused triangle holds a copy of a's (else it must be zero)."""
    other = _other_triangle(np.asarray(c), lower)
    if np.array_equal(other, _other_triangle(np.asarray(a), lower)):
        return True
    if not np.any(other):
        return False
    raise ValueError(
        "tangentlike: scipy.linalg.cho_factor left values in the triangle it does not use "
        "that are neither a's nor zero: no gradient follows them\n"
        "What to do: use scipy.linalg.cholesky, which zeroes that triangle."
    )


def cho_factor_vjp(g, a, c, lower):
    """The adjoint of `a` in `c, lower = scipy.linalg.cho_factor(a, lower)`: the factor's
    triangle as in np.linalg.cholesky, the other triangle as the copy of a's it is."""
    g, c = np.asarray(g), np.asarray(c)
    if lower:
        out = cholesky_vjp(np.tril(g), np.tril(c), False)
    else:
        out = cholesky_vjp(np.triu(g), np.triu(c), True)
    if _copied(c, a, lower):
        out = out + _other_triangle(g, lower)
    return out


def cho_factor_jvp(t, a, c, lower):
    """The tangent (dc, 0.0) of `c, lower = scipy.linalg.cho_factor(a, lower)` (`lower`, a
    flag, has the tangent zero)."""
    t, c = np.asarray(t), np.asarray(c)
    dc = cholesky_jvp(t, np.tril(c) if lower else np.triu(c), not lower)
    if _copied(c, a, lower):
        dc = dc + _other_triangle(t, lower)
    return dc, 0.0


def _cho_matrix(c, lower):
    """The matrix a = L L^T that cho_solve solves with, from c's factor triangle."""
    factor = np.tril(c) if lower else np.triu(c)
    return factor @ _t(factor) if lower else _t(factor) @ factor


def cho_solve_vjp(g, c_and_lower, b, x):
    """The adjoints ((of c, 0.0), of b) in `x = scipy.linalg.cho_solve((c, lower), b)`: the
    flag `lower`'s adjoint is zero (0.0, not None: adjoints of one pair used twice add)."""
    c, lower = c_and_lower
    c = np.asarray(c)
    a = _cho_matrix(c, lower)
    gs, xs = _columns(g, b), _columns(x, b)
    gb = np.linalg.solve(a, gs)
    ga = -gb @ _t(xs)
    sym = ga + _t(ga)
    gc = np.tril(sym @ np.tril(c)) if lower else np.triu(np.triu(c) @ sym)
    return (gc, 0.0), gb.reshape(np.shape(b))


def cho_solve_jvp(tc, tb, c_and_lower, b, x):
    """The tangent of `x = scipy.linalg.cho_solve((c, lower), b)` along (tc, tb), either
    None (zero); tc is the tangent of the pair, (dc, 0.0)."""
    c, lower = c_and_lower
    c = np.asarray(c)
    a = _cho_matrix(c, lower)
    xs = _columns(x, b)
    rhs = 0.0 if tb is None else _columns(tb, b)
    if tc is not None and tc[0] is not None:
        factor = np.tril(c) if lower else np.triu(c)
        d = np.tril(tc[0]) if lower else np.triu(tc[0])
        da = d @ _t(factor) + factor @ _t(d) if lower else _t(d) @ factor + _t(factor) @ d
        rhs = rhs - da @ xs
    return np.linalg.solve(a, np.broadcast_to(rhs, xs.shape)).reshape(np.shape(x))


def pivot_order(piv):
    """The row order `perm` of LAPACK's pivots: a[perm] = L U (integers: no gradient)."""
    piv = np.asarray(piv)
    n = piv.shape[-1]
    perm = np.array(np.broadcast_to(np.arange(n), piv.shape))
    for i in range(n):
        j = piv[..., i : i + 1]
        here = perm[..., i : i + 1].copy()
        perm[..., i : i + 1] = np.take_along_axis(perm, j, -1)
        np.put_along_axis(perm, j, here, -1)
    return perm


def _rows(m, order):
    return np.take_along_axis(m, order[..., :, None], axis=-2)


def _square(lu):
    if np.shape(lu)[-1] != np.shape(lu)[-2]:
        raise ValueError(
            "tangentlike: the gradient of scipy.linalg.lu_factor covers square matrices "
            f"(got shape {np.shape(lu)})\nWhat to do: use scipy.linalg.qr for a "
            "rectangular matrix."
        )
    return np.asarray(lu)


def _lu_parts(lu):
    lu = _square(lu)
    eye = np.eye(lu.shape[-1], dtype=lu.dtype)
    return np.tril(lu, -1) + eye, np.triu(lu)


def lu_factor_vjp(g, a, lu, piv):
    """The adjoint of `a` in `lu, piv = scipy.linalg.lu_factor(a)` (pivots constant)."""
    low, up = _lu_parts(lu)
    g = np.asarray(g)
    h = np.tril(_t(low) @ np.tril(g, -1), -1) + np.triu(np.triu(g) @ _t(up))
    # a[perm] = L U: the permuted adjoint is L^-T H U^-T
    permuted = _t(np.linalg.solve(up, _t(np.linalg.solve(_t(low), h))))
    return _rows(permuted, np.argsort(pivot_order(piv), axis=-1))


def lu_factor_jvp(t, a, lu, piv):
    """The tangent (dlu, zeros) of `lu, piv = scipy.linalg.lu_factor(a)` (the pivots,
    integers, have the tangent zero)."""
    low, up = _lu_parts(lu)
    permuted = _rows(np.asarray(t), pivot_order(piv))
    f = _t(np.linalg.solve(_t(up), _t(np.linalg.solve(low, permuted))))  # L^-1 dA U^-1
    return low @ np.tril(f, -1) + np.triu(f) @ up, np.zeros(np.shape(piv))


def _lu_matrix(lu, piv, trans):
    """The matrix lu_solve solves with: P L U, or its transpose."""
    low, up = _lu_parts(lu)
    a = _rows(low @ up, np.argsort(pivot_order(piv), axis=-1))
    return _t(a) if trans in (1, 2, "T", "C") else a


def lu_solve_vjp(g, lu_and_piv, b, x, trans):
    """The adjoints ((of lu, of piv), of b) in `x = scipy.linalg.lu_solve((lu, piv), b)`:
    the pivots' adjoint is zeros (not None: adjoints of one pair used twice add)."""
    lu, piv = lu_and_piv
    op = _lu_matrix(lu, piv, trans)
    gs, xs = _columns(g, b), _columns(x, b)
    gb = np.linalg.solve(_t(op), gs)
    ga = -gb @ _t(xs)
    if trans in (1, 2, "T", "C"):
        ga = _t(ga)
    low, up = _lu_parts(lu)
    permuted = _rows(ga, pivot_order(piv))  # the adjoint of L U = a[perm]
    glu = np.tril(permuted @ _t(up), -1) + np.triu(_t(low) @ permuted)
    return (glu, np.zeros(np.shape(piv))), gb.reshape(np.shape(b))


def lu_solve_jvp(tlu, tb, lu_and_piv, b, x, trans):
    """The tangent of `x = scipy.linalg.lu_solve((lu, piv), b, trans)` along (tlu, tb),
    either None (zero); tlu is the tangent of the pair, (dlu, zeros)."""
    lu, piv = lu_and_piv
    op = _lu_matrix(lu, piv, trans)
    xs = _columns(x, b)
    rhs = 0.0 if tb is None else _columns(tb, b)
    if tlu is not None and tlu[0] is not None:
        low, up = _lu_parts(lu)
        d = np.asarray(tlu[0])
        da = _rows(np.tril(d, -1) @ up + low @ np.triu(d), np.argsort(pivot_order(piv), axis=-1))
        rhs = rhs - (_t(da) if trans in (1, 2, "T", "C") else da) @ xs
    return np.linalg.solve(op, np.broadcast_to(rhs, xs.shape)).reshape(np.shape(x))


def real_root(x):
    """`sqrtm`'s result, checked to be a real matrix (what its rule differentiates)."""
    if np.iscomplexobj(x) or np.ndim(x) != 2:
        raise ValueError(
            "tangentlike: the gradient of scipy.linalg.sqrtm covers a single matrix with a "
            f"real square root (got {np.result_type(x)} of shape {np.shape(x)})\n"
            "What to do: keep the matrix's eigenvalues off the negative real axis (e.g. "
            "symmetric positive definite), one matrix at a time."
        )
    return x
