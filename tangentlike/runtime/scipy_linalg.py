"""Rule maths of rules/scipy_linalg.py. NumPy only.

Part of the runtime: copied into generated modules that use it. Where SciPy
reads part of a matrix (a triangle, a unit diagonal), the gradient lives on
that part; forms the rules do not cover are refused at run time, never given
a wrong gradient.
"""

from __future__ import annotations

import numpy as np

from .broadcast import sum_to


def general(a, assume_a, transposed):
    """`a`, checked to be solved as a general matrix (the form `solve`'s rule covers)."""
    if assume_a not in (None, "gen", "general") or transposed:
        raise ValueError(
            "tangentlike: the gradient of scipy.linalg.solve covers assume_a=None or 'gen' "
            f"with transposed=False (got assume_a={assume_a!r}, transposed={transposed!r})\n"
            "What to do: pass the full matrix (a.T for transposed) with assume_a=None."
        )
    return a


def _op(a, trans, lower, unit_diagonal):
    """The matrix `solve_triangular` solves with: the triangle read, maybe transposed."""
    a = np.asarray(a)
    tri = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        eye = np.eye(a.shape[-1], dtype=a.dtype)
        tri = tri * (1.0 - eye) + eye
    return np.swapaxes(tri, -1, -2) if trans in (1, 2, "T", "C") else tri


def _mask(g, trans, lower, unit_diagonal):
    """A gradient of the op matrix onto the entries of `a` that solve_triangular reads."""
    if trans in (1, 2, "T", "C"):
        g = np.swapaxes(g, -1, -2)
    g = np.tril(g) if lower else np.triu(g)
    if unit_diagonal:
        g = g * (1.0 - np.eye(g.shape[-1], dtype=g.dtype))
    return g


def triangular_vjp(g, a, b, x, trans, lower, unit_diagonal):
    """The adjoints (of a, of b) in `x = scipy.linalg.solve_triangular(a, b, ...)`."""
    op = _op(a, trans, lower, unit_diagonal)
    g, x = np.asarray(g), np.asarray(x)
    vector = np.ndim(b) == 1
    if vector:
        g, x = g[..., None], x[..., None]
    gb = np.linalg.solve(np.swapaxes(op, -1, -2), g)
    ga = _mask(-gb @ np.swapaxes(x, -1, -2), trans, lower, unit_diagonal)
    if vector:
        gb = gb[..., 0]
    return sum_to(ga, np.shape(a)), sum_to(gb, np.shape(b))


def triangular_jvp(ta, tb, a, x, trans, lower, unit_diagonal):
    """The tangent of `x = solve_triangular(a, b, ...)` along (ta, tb); either may be None."""
    op = _op(a, trans, lower, unit_diagonal)
    vector = np.ndim(x) == 1
    rhs = 0.0
    if tb is not None:
        rhs = rhs + (np.asarray(tb)[..., None] if vector else np.asarray(tb))
    if ta is not None:
        tri = _op(ta, trans, lower, False)
        if unit_diagonal:
            tri = tri * (1.0 - np.eye(tri.shape[-1], dtype=tri.dtype))
        xs = np.asarray(x)[..., None] if vector else np.asarray(x)
        rhs = rhs - tri @ xs
    out = np.linalg.solve(op, np.broadcast_to(rhs, np.shape(x) + (1,) * vector))
    return out[..., 0] if vector else out


def frechet_block(a, e):
    """[[a, e], [0, a]]: the exponential of this block matrix holds, top right, the
    Frechet derivative of expm at a in the direction e."""
    a, e = np.asarray(a), np.asarray(e)
    n = a.shape[-1]
    block = np.zeros(a.shape[:-2] + (2 * n, 2 * n), dtype=np.result_type(a, e))  # noqa: RUF005
    block[..., :n, :n] = a
    block[..., n:, n:] = a
    block[..., :n, n:] = e
    return block


def top_right(block):
    """The top right quarter of a block matrix."""
    n = np.shape(block)[-1] // 2
    return np.asarray(block)[..., :n, n:]


def standard(a, b, subset_by_index, subset_by_value):
    """`a`, checked to be a standard, complete eigenproblem (what `eigh`'s rule covers)."""
    if b is not None or subset_by_index is not None or subset_by_value is not None:
        raise ValueError(
            "tangentlike: the gradient of scipy.linalg.eigh covers the standard problem "
            "with every eigenvalue (b=None, no subset)\nWhat to do: reduce a generalized "
            "problem to a standard one (with a Cholesky factor of b) and take a slice."
        )
    return a
