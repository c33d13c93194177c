"""Rules for the `numpy.linalg` namespace, keyed by its function objects.

Matrix functions act on the last two axes and batch over the others. Where
NumPy reads only one triangle of its input (cholesky, eigh, eigvalsh), the
gradient lives on that triangle: it is the gradient of the function NumPy
actually computes, and agrees with the symmetric gradient on symmetric
perturbations. Spectral rules assume the eigen- or singular values they
differentiate through are distinct (nonzero for singular vectors).
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d

NONDIFFERENTIABLE = {np.linalg.matrix_rank: "an integer rank"}
# Always a new array or number (matrix_power(a, 1) is a itself, the tuple makers are tuples).
NEW_RESULTS = (
    "cholesky det eigvals eigvalsh inv matrix_norm multi_dot norm pinv solve svdvals vector_norm"
)


def register(registry: Registry) -> None:
    registry.nondifferentiable(NONDIFFERENTIABLE)
    names = NEW_RESULTS.split()
    registry.array_makers(getattr(np.linalg, n) for n in names if hasattr(np.linalg, n))
    registry.sequence_params({np.linalg.multi_dot: ("arrays",)})
    _inverses(registry)
    _factorizations(registry)
    _powers(registry)
    _norms(registry)


def _inverses(registry: Registry) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent

    @adjoint(np.linalg.inv, restriction="nonsingular matrices")
    def inv(result, a):
        d[a] = -(np.swapaxes(result, -1, -2) @ d[result] @ np.swapaxes(result, -1, -2))

    @tangent(np.linalg.inv)
    def inv_tangent(result, a):
        d[result] = -(result @ d[a] @ result)

    @adjoint(np.linalg.solve, restriction="nonsingular matrices")
    def solve(result, a, b):
        grads = runtime.solve_vjp(d[result], a, b, result)
        d[a] = grads[0]
        d[b] = grads[1]

    @tangent(np.linalg.solve)
    def solve_tangent(result, a, b):
        d[result] = np.linalg.solve(a, d[b]) - runtime.solve_jvp(d[a], a, b, result)

    @adjoint(np.linalg.det, restriction="nonsingular matrices")
    def det(result, a):
        d[a] = np.expand_dims(d[result] * result, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)

    @tangent(np.linalg.det)
    def det_tangent(result, a):
        d[result] = result * np.sum(np.swapaxes(np.linalg.inv(a), -1, -2) * d[a], axis=(-2, -1))

    @adjoint(
        np.linalg.slogdet,
        restriction="nonsingular matrices; gradient through logabsdet (the sign is constant)",
    )
    def slogdet(result, a):
        d[a] = runtime.slogdet_vjp(d[result], a)

    @tangent(np.linalg.slogdet)
    def slogdet_tangent(result, a):
        d[result] = runtime.slogdet_jvp(d[a], a, result)

    @adjoint(
        np.linalg.lstsq,
        restriction="full-rank a (x = pinv(a) b; rank-deficient a is refused at run time)",
    )
    def lstsq(result, a, b, rcond=None):
        grads = runtime.lstsq_vjp(d[result], a, b, result)
        d[a] = grads[0]
        d[b] = grads[1]

    @tangent(np.linalg.lstsq)
    def lstsq_tangent(result, a, b, rcond=None):
        d[result] = runtime.lstsq_jvp(d[a], d[b], a, b, result)

    @adjoint(np.linalg.pinv, restriction="the rank must not change nearby")
    def pinv(result, a, rcond=None):
        d[a] = runtime.pinv_vjp(d[result], a, result)

    @tangent(np.linalg.pinv)
    def pinv_tangent(result, a, rcond=None):
        d[result] = runtime.pinv_jvp(d[a], a, result)


def _factorizations(registry: Registry) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent

    @adjoint(np.linalg.cholesky, restriction="gradient on the triangle NumPy reads")
    def cholesky(result, a, upper=False):
        d[a] = runtime.cholesky_vjp(d[result], result, upper)

    @tangent(np.linalg.cholesky)
    def cholesky_tangent(result, a, upper=False):
        d[result] = runtime.cholesky_jvp(d[a], result, upper)

    @adjoint(
        np.linalg.eigh,
        restriction="distinct eigenvalues for eigenvector gradients; the triangle NumPy reads",
    )
    def eigh(result, a, UPLO="L"):
        d[a] = runtime.eigh_vjp(d[result][0], d[result][1], a, result[0], result[1], UPLO)

    @tangent(np.linalg.eigh)
    def eigh_tangent(result, a, UPLO="L"):
        d[result] = runtime.eigh_jvp(d[a], a, result[0], result[1], UPLO)

    @adjoint(np.linalg.eigvalsh, restriction="gradient on the triangle NumPy reads")
    def eigvalsh(result, a, UPLO="L"):
        d[a] = runtime.eigh_vjp(d[result], None, a, result, None, UPLO)

    @tangent(np.linalg.eigvalsh)
    def eigvalsh_tangent(result, a, UPLO="L"):
        d[result] = runtime.eigh_jvp(d[a], a, result, None, UPLO)

    @adjoint(
        np.linalg.eig,
        restriction="real distinct eigenvalues (complex ones are refused at run time)",
    )
    def eig(result, a):
        d[a] = runtime.eig_vjp(d[result][0], d[result][1], a, result[0], result[1])

    @tangent(np.linalg.eig)
    def eig_tangent(result, a):
        d[result] = runtime.eig_jvp(d[a], a, result[0], result[1])

    @adjoint(np.linalg.eigvals, restriction="real distinct eigenvalues, as for eig")
    def eigvals(result, a):
        d[a] = runtime.eig_vjp(d[result], None, a, result, None)

    @tangent(np.linalg.eigvals)
    def eigvals_tangent(result, a):
        d[result] = runtime.eig_jvp(d[a], a, result, None)

    @adjoint(
        np.linalg.svd,
        restriction="singular vectors need full_matrices=False and distinct nonzero values",
    )
    def svd(result, a, full_matrices=True, compute_uv=True):
        d[a] = runtime.svd_vjp(d[result], a, result, compute_uv)

    @tangent(np.linalg.svd)
    def svd_tangent(result, a, full_matrices=True, compute_uv=True):
        d[result] = runtime.svd_jvp(d[a], a, result, compute_uv)

    if hasattr(np.linalg, "svdvals"):  # NumPy >= 2.0

        @adjoint(np.linalg.svdvals, restriction="distinct singular values")
        def svdvals(result, x):
            d[x] = runtime.svd_vjp(d[result], x, result, False)

        @tangent(np.linalg.svdvals)
        def svdvals_tangent(result, x):
            d[result] = runtime.svd_jvp(d[x], x, result, False)

    @adjoint(np.linalg.qr, restriction="mode 'reduced' or 'r'; at least as many rows as columns")
    def qr(result, a, mode="reduced"):
        d[a] = runtime.qr_vjp(d[result], a, result, mode)

    @tangent(np.linalg.qr)
    def qr_tangent(result, a, mode="reduced"):
        d[result] = runtime.qr_jvp(d[a], a, result, mode)


def _powers(registry: Registry) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent

    @adjoint(np.linalg.matrix_power, restriction="nonsingular matrices for negative powers")
    def matrix_power(result, a, n):
        d[a] = runtime.matrix_power_vjp(d[result], a, n)

    @tangent(np.linalg.matrix_power)
    def matrix_power_tangent(result, a, n):
        d[result] = runtime.matrix_power_jvp(d[a], a, n)

    @adjoint(np.linalg.multi_dot)
    def multi_dot(result, arrays):
        d[arrays] = runtime.multi_dot_vjp(d[result], arrays)

    @tangent(np.linalg.multi_dot)
    def multi_dot_tangent(result, arrays):
        d[result] = runtime.multi_dot_jvp(d[arrays], arrays)


def _norms(registry: Registry) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent

    @adjoint(
        np.linalg.norm,
        restriction="kinks: 0 at a zero 2- or p-norm, ties share inf/1 norms equally, "
        "a simple extreme singular value for ord=2/-2",
    )
    def norm(result, x, ord=None, axis=None, keepdims=False):
        d[x] = runtime.norm_vjp(d[result], x, result, ord, axis, keepdims, "norm")

    @tangent(np.linalg.norm)
    def norm_tangent(result, x, ord=None, axis=None, keepdims=False):
        d[result] = runtime.norm_jvp(d[x], x, result, ord, axis, keepdims, "norm")

    if hasattr(np.linalg, "vector_norm"):  # NumPy >= 2.0

        @adjoint(np.linalg.vector_norm, restriction="kinks as for norm")
        def vector_norm(result, x, axis=None, keepdims=False, ord=2):
            d[x] = runtime.norm_vjp(d[result], x, result, ord, axis, keepdims, "vector")

        @tangent(np.linalg.vector_norm)
        def vector_norm_tangent(result, x, axis=None, keepdims=False, ord=2):
            d[result] = runtime.norm_jvp(d[x], x, result, ord, axis, keepdims, "vector")

        @adjoint(np.linalg.matrix_norm, restriction="kinks as for norm")
        def matrix_norm(result, x, keepdims=False, ord="fro"):
            d[x] = runtime.norm_vjp(d[result], x, result, ord, None, keepdims, "matrix")

        @tangent(np.linalg.matrix_norm)
        def matrix_norm_tangent(result, x, keepdims=False, ord="fro"):
            d[result] = runtime.norm_jvp(d[x], x, result, ord, None, keepdims, "matrix")
