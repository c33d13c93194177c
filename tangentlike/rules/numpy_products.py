"""Rules for NumPy's products (matmul, dot, outer, inner, tensordot, einsum, kron, ...).

Each is linear in each operand separately: written with the bilinear kind
(rules/kinds.py), its forward form is one term per operand, the product with
that operand replaced by its tangent; the reverse form is the template.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .kinds import bilinear
from .registry import Registry
from .template import d


def register(registry: Registry) -> None:
    _matrix_products(registry)
    _other_products(registry)


def _matrix_products(registry: Registry) -> None:
    @bilinear(registry, np.matmul, ("x1", "x2"))
    def matmul(result, x1, x2):
        d[x1] = runtime.matmul_vjp_a(d[result], x1, x2)
        d[x2] = runtime.matmul_vjp_b(d[result], x1, x2)

    @bilinear(registry, np.dot, ("a", "b"))
    def dot(result, a, b):
        d[a] = runtime.dot_vjp_a(d[result], a, b)
        d[b] = runtime.dot_vjp_b(d[result], a, b)

    @bilinear(registry, np.outer, ("a", "b"))
    def outer(result, a, b):
        d[a] = np.reshape(d[result] @ np.ravel(b), np.shape(a))
        d[b] = np.reshape(np.ravel(a) @ d[result], np.shape(b))

    @bilinear(registry, np.inner, ("a", "b"))
    def inner(result, a, b):
        d[a] = runtime.inner_vjp(d[result], a, b, 0)
        d[b] = runtime.inner_vjp(d[result], a, b, 1)

    @bilinear(registry, np.tensordot, ("a", "b"))
    def tensordot(result, a, b, axes=2):
        d[a] = runtime.tensordot_vjp(d[result], a, b, axes, 0)
        d[b] = runtime.tensordot_vjp(d[result], a, b, axes, 1)

    # Rule parameters are fixed, so einsum takes up to six operands; unused slots
    # are None and the helpers ignore them.
    operands = ("x0", "x1", "x2", "x3", "x4", "x5")

    @bilinear(
        registry,
        np.einsum,
        operands,
        via=runtime.einsum_of,
        restriction="up to 6 operands, subscripts as a string",
    )
    def einsum(result, subscripts, x0, x1=None, x2=None, x3=None, x4=None, x5=None, optimize=False):
        d[x0] = runtime.einsum_vjp(d[result], subscripts, 0, x0, x1, x2, x3, x4, x5)
        d[x1] = runtime.einsum_vjp(d[result], subscripts, 1, x0, x1, x2, x3, x4, x5)
        d[x2] = runtime.einsum_vjp(d[result], subscripts, 2, x0, x1, x2, x3, x4, x5)
        d[x3] = runtime.einsum_vjp(d[result], subscripts, 3, x0, x1, x2, x3, x4, x5)
        d[x4] = runtime.einsum_vjp(d[result], subscripts, 4, x0, x1, x2, x3, x4, x5)
        d[x5] = runtime.einsum_vjp(d[result], subscripts, 5, x0, x1, x2, x3, x4, x5)

    @bilinear(registry, np.kron, ("a", "b"))
    def kron(result, a, b):
        d[a] = runtime.kron_vjp(d[result], a, b, 0)
        d[b] = runtime.kron_vjp(d[result], a, b, 1)


def _other_products(registry: Registry) -> None:
    @bilinear(registry, np.cross, ("a", "b"), restriction="vectors of 2 or 3 components")
    def cross(result, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
        d[a] = runtime.cross_vjp(d[result], a, b, axisa, axisb, axisc, axis, 0)
        d[b] = runtime.cross_vjp(d[result], a, b, axisa, axisb, axisc, axis, 1)

    @bilinear(registry, np.vdot, ("a", "b"))
    def vdot(result, a, b):
        d[a] = np.reshape(d[result] * np.ravel(b), np.shape(a))
        d[b] = np.reshape(d[result] * np.ravel(a), np.shape(b))

    @bilinear(registry, np.convolve, ("a", "v"))
    def convolve(result, a, v, mode="full"):
        d[a] = runtime.convolve_vjp(d[result], a, v, mode, 0, False)
        d[v] = runtime.convolve_vjp(d[result], a, v, mode, 1, False)

    @bilinear(registry, np.correlate, ("a", "v"))
    def correlate(result, a, v, mode="valid"):
        d[a] = runtime.convolve_vjp(d[result], a, v, mode, 0, True)
        d[v] = runtime.convolve_vjp(d[result], a, v, mode, 1, True)

    if hasattr(np, "vecdot"):  # NumPy >= 2.0

        @bilinear(registry, np.vecdot, ("x1", "x2"), keywords=("axis",), unbroadcast=True)
        def vecdot(result, x1, x2, axis=-1):
            d[x1] = np.expand_dims(d[result], axis) * x2
            d[x2] = np.expand_dims(d[result], axis) * x1

    @registry.adjoint(
        np.interp, restriction="gradient for x and fp, not for xp; no left/right/period"
    )
    def interp(result, x, xp, fp):
        d[x] = runtime.interp_vjp(d[result], x, xp, fp, 0)
        d[fp] = runtime.interp_vjp(d[result], x, xp, fp, 2)

    @registry.tangent(np.interp)
    def interp_tangent(result, x, xp, fp):
        # the slope is elementwise (its own transpose); interp is linear in fp
        d[result] = runtime.interp_vjp(d[x], x, xp, fp, 0) + np.interp(x, xp, d[fp])
