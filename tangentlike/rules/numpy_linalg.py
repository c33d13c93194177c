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
NEW_RESULTS = "cholesky det eigvalsh inv matrix_norm multi_dot norm pinv solve svdvals vector_norm"


def register(registry: Registry) -> None:
    adjoint = registry.adjoint
    registry.nondifferentiable(NONDIFFERENTIABLE)
    names = NEW_RESULTS.split()
    registry.array_makers(getattr(np.linalg, n) for n in names if hasattr(np.linalg, n))

    @adjoint(np.linalg.inv, restriction="nonsingular matrices")
    def inv(result, a):
        d[a] = -(np.swapaxes(result, -1, -2) @ d[result] @ np.swapaxes(result, -1, -2))

    @adjoint(np.linalg.solve, restriction="nonsingular matrices")
    def solve(result, a, b):
        grads = runtime.solve_vjp(d[result], a, b, result)
        d[a] = grads[0]
        d[b] = grads[1]

    @adjoint(np.linalg.det, restriction="nonsingular matrices")
    def det(result, a):
        d[a] = np.expand_dims(d[result] * result, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)

    @adjoint(
        np.linalg.slogdet,
        restriction="nonsingular matrices; gradient through logabsdet (the sign is constant)",
    )
    def slogdet(result, a):
        d[a] = runtime.slogdet_vjp(d[result], a)

    @adjoint(np.linalg.cholesky, restriction="gradient on the triangle NumPy reads")
    def cholesky(result, a, upper=False):
        d[a] = runtime.cholesky_vjp(d[result], result, upper)

    @adjoint(
        np.linalg.eigh,
        restriction="distinct eigenvalues for eigenvector gradients; the triangle NumPy reads",
    )
    def eigh(result, a, UPLO="L"):
        d[a] = runtime.eigh_vjp(d[result][0], d[result][1], a, result[0], result[1], UPLO)

    @adjoint(np.linalg.eigvalsh, restriction="gradient on the triangle NumPy reads")
    def eigvalsh(result, a, UPLO="L"):
        d[a] = runtime.eigh_vjp(d[result], None, a, result, None, UPLO)

    @adjoint(
        np.linalg.svd,
        restriction="singular vectors need full_matrices=False and distinct nonzero values",
    )
    def svd(result, a, full_matrices=True, compute_uv=True):
        d[a] = runtime.svd_vjp(d[result], a, result, compute_uv)

    if hasattr(np.linalg, "svdvals"):  # NumPy >= 2.0

        @adjoint(np.linalg.svdvals, restriction="distinct singular values")
        def svdvals(result, x):
            d[x] = runtime.svd_vjp(d[result], x, result, False)

    @adjoint(np.linalg.pinv, restriction="the rank must not change nearby")
    def pinv(result, a, rcond=None):
        d[a] = runtime.pinv_vjp(d[result], a, result)

    @adjoint(np.linalg.qr, restriction="mode 'reduced' or 'r'; at least as many rows as columns")
    def qr(result, a, mode="reduced"):
        d[a] = runtime.qr_vjp(d[result], a, result, mode)

    @adjoint(np.linalg.matrix_power, restriction="nonsingular matrices for negative powers")
    def matrix_power(result, a, n):
        d[a] = runtime.matrix_power_vjp(d[result], a, n)

    registry.sequence_params({np.linalg.multi_dot: ("arrays",)})

    @adjoint(np.linalg.multi_dot)
    def multi_dot(result, arrays):
        d[arrays] = runtime.multi_dot_vjp(d[result], arrays)

    @adjoint(
        np.linalg.norm,
        restriction="kinks: 0 at a zero 2- or p-norm, ties share inf/1 norms equally, "
        "a simple extreme singular value for ord=2/-2",
    )
    def norm(result, x, ord=None, axis=None, keepdims=False):
        d[x] = runtime.norm_vjp(d[result], x, result, ord, axis, keepdims, "norm")

    if hasattr(np.linalg, "vector_norm"):  # NumPy >= 2.0

        @adjoint(np.linalg.vector_norm, restriction="kinks as for norm")
        def vector_norm(result, x, axis=None, keepdims=False, ord=2):
            d[x] = runtime.norm_vjp(d[result], x, result, ord, axis, keepdims, "vector")

        @adjoint(np.linalg.matrix_norm, restriction="kinks as for norm")
        def matrix_norm(result, x, keepdims=False, ord="fro"):
            d[x] = runtime.norm_vjp(d[result], x, result, ord, None, keepdims, "matrix")
