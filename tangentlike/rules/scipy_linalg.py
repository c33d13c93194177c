"""Rules for `scipy.linalg`, reusing the `numpy.linalg` maths (runtime/numpy_linalg*.py)
where SciPy computes the same function.

Conventions as in rules/numpy_linalg.py: where SciPy reads one triangle
(cholesky, eigh, solve_triangular) the gradient lives on it. `solve` is
covered as a general solve; `eigh` as a standard, complete eigenproblem;
other forms are refused at run time (runtime/scipy_linalg.py). `expm`'s
rules use the block-matrix form of its Frechet derivative; `sqrtm`'s solve the
Sylvester equation X dX + dX X = dA. The factor-and-solve pairs (`cho_factor` and
`cho_solve`, `lu_factor` and `lu_solve`) differentiate the packed factor SciPy
returns (runtime/scipy_factors.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d

linalg = None  # scipy.linalg, imported by `register`; templates name it


def register(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.linalg is imported."""
    global linalg
    try:
        from scipy import linalg
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    adjoint, tangent = registry.adjoint, registry.tangent
    names = ("inv", "det", "solve", "solve_triangular", "cholesky", "expm", "norm")
    registry.array_makers(getattr(linalg, n) for n in names)

    registry.array_makers([linalg.sqrtm])
    registry.sequence_params({linalg.cho_solve: ("c_and_lower",), linalg.lu_solve: ("lu_and_piv",)})

    _inverses(adjoint, tangent)
    _triangular(adjoint, tangent)
    _decompositions(adjoint, tangent)
    _factor_and_solve(adjoint, tangent)


def _inverses(adjoint: Callable, tangent: Callable) -> None:
    """Inverse, determinant and general solve."""

    @adjoint(linalg.inv, restriction="nonsingular matrices; assume_a=None")
    def inv(result, a, overwrite_a=False, check_finite=True, assume_a=None, lower=False):
        d[a] = -(
            np.swapaxes(result, -1, -2)
            @ d[result]
            @ np.swapaxes(runtime.general(result, assume_a, False), -1, -2)
        )

    @tangent(linalg.inv)
    def inv_tangent(result, a, overwrite_a=False, check_finite=True, assume_a=None, lower=False):
        d[result] = -(result @ d[a] @ runtime.general(result, assume_a, False))

    @adjoint(linalg.det, restriction="nonsingular matrices")
    def det(result, a, overwrite_a=False, check_finite=True):
        d[a] = np.expand_dims(d[result] * result, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)

    @tangent(linalg.det)
    def det_tangent(result, a, overwrite_a=False, check_finite=True):
        d[result] = result * np.sum(np.swapaxes(np.linalg.inv(a), -1, -2) * d[a], axis=(-2, -1))

    @adjoint(linalg.solve, restriction="nonsingular matrices; assume_a=None, not transposed")
    def solve(
        result,
        a,
        b,
        lower=False,
        overwrite_a=False,
        overwrite_b=False,
        check_finite=True,
        assume_a=None,
        transposed=False,
    ):
        grads = runtime.solve_vjp(d[result], runtime.general(a, assume_a, transposed), b, result)
        d[a] = grads[0]
        d[b] = grads[1]

    @tangent(linalg.solve)
    def solve_tangent(
        result,
        a,
        b,
        lower=False,
        overwrite_a=False,
        overwrite_b=False,
        check_finite=True,
        assume_a=None,
        transposed=False,
    ):
        d[result] = np.linalg.solve(
            runtime.general(a, assume_a, transposed), d[b]
        ) - runtime.solve_jvp(d[a], a, b, result)


def _triangular(adjoint: Callable, tangent: Callable) -> None:
    """Triangular solves, Cholesky and the matrix exponential."""

    @adjoint(linalg.solve_triangular, restriction="the triangle read (unit diagonal: off it)")
    def solve_triangular(
        result,
        a,
        b,
        trans=0,
        lower=False,
        unit_diagonal=False,
        overwrite_b=False,
        check_finite=True,
    ):
        grads = runtime.triangular_vjp(d[result], a, b, result, trans, lower, unit_diagonal)
        d[a] = grads[0]
        d[b] = grads[1]

    @tangent(linalg.solve_triangular)
    def solve_triangular_tangent(
        result,
        a,
        b,
        trans=0,
        lower=False,
        unit_diagonal=False,
        overwrite_b=False,
        check_finite=True,
    ):
        d[result] = runtime.triangular_jvp(
            None, d[b], a, result, trans, lower, unit_diagonal
        ) + runtime.triangular_jvp(d[a], None, a, result, trans, lower, unit_diagonal)

    @adjoint(linalg.cholesky, restriction="gradient on the triangle SciPy reads")
    def cholesky(result, a, lower=False, overwrite_a=False, check_finite=True):
        d[a] = runtime.cholesky_vjp(d[result], result, not lower)

    @tangent(linalg.cholesky)
    def cholesky_tangent(result, a, lower=False, overwrite_a=False, check_finite=True):
        d[result] = runtime.cholesky_jvp(d[a], result, not lower)

    @adjoint(linalg.expm)
    def expm(result, A):
        d[A] = runtime.top_right(
            linalg.expm(runtime.frechet_block(np.swapaxes(A, -1, -2), d[result]))
        )

    @tangent(linalg.expm)
    def expm_tangent(result, A):
        d[result] = runtime.top_right(linalg.expm(runtime.frechet_block(A, d[A])))


def _decompositions(adjoint: Callable, tangent: Callable) -> None:
    """Eigendecompositions, singular values and norms."""

    @adjoint(
        linalg.eigh,
        restriction="standard complete problem (b=None); distinct eigenvalues for vectors",
    )
    def eigh(
        result,
        a,
        b=None,
        lower=True,
        eigvals_only=False,
        overwrite_a=False,
        overwrite_b=False,
        type=1,
        check_finite=True,
        subset_by_index=None,
        subset_by_value=None,
        driver=None,
    ):
        if eigvals_only:
            d[a] = runtime.eigh_vjp(
                d[result],
                None,
                runtime.standard(a, b, subset_by_index, subset_by_value),
                result,
                None,
                "L" if lower else "U",
            )
        else:
            d[a] = runtime.eigh_vjp(
                d[result][0],
                d[result][1],
                runtime.standard(a, b, subset_by_index, subset_by_value),
                result[0],
                result[1],
                "L" if lower else "U",
            )

    @tangent(linalg.eigh)
    def eigh_tangent(
        result,
        a,
        b=None,
        lower=True,
        eigvals_only=False,
        overwrite_a=False,
        overwrite_b=False,
        type=1,
        check_finite=True,
        subset_by_index=None,
        subset_by_value=None,
        driver=None,
    ):
        if eigvals_only:
            d[result] = runtime.eigh_jvp(
                d[a],
                runtime.standard(a, b, subset_by_index, subset_by_value),
                result,
                None,
                "L" if lower else "U",
            )
        else:
            d[result] = runtime.eigh_jvp(
                d[a],
                runtime.standard(a, b, subset_by_index, subset_by_value),
                result[0],
                result[1],
                "L" if lower else "U",
            )

    @adjoint(
        linalg.svd,
        restriction="singular vectors need full_matrices=False and distinct nonzero values",
    )
    def svd(
        result,
        a,
        full_matrices=True,
        compute_uv=True,
        overwrite_a=False,
        check_finite=True,
        lapack_driver="gesdd",
    ):
        d[a] = runtime.svd_vjp(d[result], a, result, compute_uv)

    @tangent(linalg.svd)
    def svd_tangent(
        result,
        a,
        full_matrices=True,
        compute_uv=True,
        overwrite_a=False,
        check_finite=True,
        lapack_driver="gesdd",
    ):
        d[result] = runtime.svd_jvp(d[a], a, result, compute_uv)

    @adjoint(linalg.norm, restriction="kinks as for np.linalg.norm")
    def norm(result, a, ord=None, axis=None, keepdims=False, check_finite=True):
        d[a] = runtime.norm_vjp(d[result], a, result, ord, axis, keepdims, "norm")

    @tangent(linalg.norm)
    def norm_tangent(result, a, ord=None, axis=None, keepdims=False, check_finite=True):
        d[result] = runtime.norm_jvp(d[a], a, result, ord, axis, keepdims, "norm")


def _factor_and_solve(adjoint: Callable, tangent: Callable) -> None:
    """cho_factor/cho_solve and lu_factor/lu_solve: the factor (c or lu) is differentiated;
    `lower` and the pivots are constant (the pivots change only at ties)."""

    @adjoint(
        linalg.cho_factor,
        restriction="the factor's triangle as cholesky's; the other holds a's (checked)",
    )
    def cho_factor(result, a, lower=False, overwrite_a=False, check_finite=True):
        d[a] = runtime.cho_factor_vjp(d[result][0], a, result[0], lower)

    @tangent(linalg.cho_factor)
    def cho_factor_tangent(result, a, lower=False, overwrite_a=False, check_finite=True):
        d[result] = runtime.cho_factor_jvp(d[a], a, result[0], lower)

    @adjoint(linalg.cho_solve, restriction="reads the factor's triangle of c")
    def cho_solve(result, c_and_lower, b, overwrite_b=False, check_finite=True):
        grads = runtime.cho_solve_vjp(d[result], c_and_lower, b, result)
        d[c_and_lower] = grads[0]
        d[b] = grads[1]

    @tangent(linalg.cho_solve)
    def cho_solve_tangent(result, c_and_lower, b, overwrite_b=False, check_finite=True):
        d[result] = runtime.cho_solve_jvp(
            None, d[b], c_and_lower, b, result
        ) + runtime.cho_solve_jvp(d[c_and_lower], None, c_and_lower, b, result)

    @adjoint(linalg.lu_factor, restriction="square matrices; the pivots constant (no ties)")
    def lu_factor(result, a, overwrite_a=False, check_finite=True):
        d[a] = runtime.lu_factor_vjp(d[result][0], a, result[0], result[1])

    @tangent(linalg.lu_factor)
    def lu_factor_tangent(result, a, overwrite_a=False, check_finite=True):
        d[result] = runtime.lu_factor_jvp(d[a], a, result[0], result[1])

    @adjoint(linalg.lu_solve, restriction="reads L (unit diagonal) and U of lu")
    def lu_solve(result, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
        grads = runtime.lu_solve_vjp(d[result], lu_and_piv, b, result, trans)
        d[lu_and_piv] = grads[0]
        d[b] = grads[1]

    @tangent(linalg.lu_solve)
    def lu_solve_tangent(result, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
        d[result] = runtime.lu_solve_jvp(
            None, d[b], lu_and_piv, b, result, trans
        ) + runtime.lu_solve_jvp(d[lu_and_piv], None, lu_and_piv, b, result, trans)

    @adjoint(
        linalg.sqrtm,
        restriction="one matrix with a real principal root (e.g. symmetric positive "
        "definite); a complex root is refused at run time",
    )
    def sqrtm(result, A, disp=True, blocksize=64):
        d[A] = linalg.solve_sylvester(
            np.swapaxes(runtime.real_root(result), -1, -2), np.swapaxes(result, -1, -2), d[result]
        )

    @tangent(linalg.sqrtm)
    def sqrtm_tangent(result, A, disp=True, blocksize=64):
        d[result] = linalg.solve_sylvester(runtime.real_root(result), result, d[A])
