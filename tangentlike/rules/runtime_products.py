"""Second-order rules of the adjoint helpers of NumPy's products and of the linear maps
np.repeat and np.diff (registered by rules/runtime_helpers.py beside its other rules).

- matmul_vjp_a/b, dot_vjp_a/b: bilinear in the adjoint and the other factor.

- tensordot_vjp, kron_vjp, cross_vjp, einsum_vjp: the adjoint of one operand of a product
  linear in each operand, so bilinear in the adjoint g and the other operands, and
  reading its own operand for its shape only. Reverse form: runtime/higher_products.py
  (g's adjoint is the product with that operand replaced by the result's adjoint);
  forward form: the helper at g's tangent plus the helper at the other operand's
  tangent (the term of the operand read for its shape is zero: it reads only its shape).
- unrepeat, undiff, untile: linear in g, reading the other arguments for shapes and
  counts: the transposed map (np.repeat, np.diff, np.tile) and the helper at g's tangent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from ..runtime import forward
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _matrix(adjoint, tangent)
    _bilinear(adjoint, tangent)
    _einsum(adjoint, tangent)
    _linear(adjoint, tangent)


def _bilinear(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.tensordot_vjp, constant=("axes", "side"))
    def tensordot_vjp(result, g, a, b, axes, side):
        grads = runtime.tensordot_vjp_vjp(d[result], g, a, b, axes, side)
        d[g] = grads[0]
        d[a] = grads[1]
        d[b] = grads[2]

    @tangent(runtime.tensordot_vjp)
    def tensordot_vjp_tangent(result, g, a, b, axes, side):
        d[result] = runtime.tensordot_vjp(d[g], a, b, axes, side) + runtime.tensordot_vjp(
            g, d[a], d[b], axes, side
        )

    @adjoint(runtime.kron_vjp, constant=("side",))
    def kron_vjp(result, g, a, b, side):
        grads = runtime.kron_vjp_vjp(d[result], g, a, b, side)
        d[g] = grads[0]
        d[a] = grads[1]
        d[b] = grads[2]

    @tangent(runtime.kron_vjp)
    def kron_vjp_tangent(result, g, a, b, side):
        d[result] = runtime.kron_vjp(d[g], a, b, side) + runtime.kron_vjp(g, d[a], d[b], side)

    constant = ("axisa", "axisb", "axisc", "axis", "side")

    @adjoint(runtime.cross_vjp, constant=constant)
    def cross_vjp(result, g, a, b, axisa, axisb, axisc, axis, side):
        grads = runtime.cross_vjp_vjp(d[result], g, a, b, axisa, axisb, axisc, axis, side)
        d[g] = grads[0]
        d[a] = grads[1]
        d[b] = grads[2]

    @tangent(runtime.cross_vjp)
    def cross_vjp_tangent(result, g, a, b, axisa, axisb, axisc, axis, side):
        d[result] = runtime.cross_vjp(
            d[g], a, b, axisa, axisb, axisc, axis, side
        ) + runtime.cross_vjp(g, d[a], d[b], axisa, axisb, axisc, axis, side)


def _einsum(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.einsum_vjp, constant=("subscripts", "k"))
    def einsum_vjp(result, g, subscripts, k, x0, x1=None, x2=None, x3=None, x4=None, x5=None):
        grads = runtime.einsum_vjp_vjp(d[result], g, subscripts, k, x0, x1, x2, x3, x4, x5)
        d[g] = grads[0]
        d[x0] = grads[1]
        d[x1] = grads[2]
        d[x2] = grads[3]
        d[x3] = grads[4]
        d[x4] = grads[5]
        d[x5] = grads[6]

    @tangent(runtime.einsum_vjp)
    def einsum_vjp_tangent(
        result, g, subscripts, k, x0, x1=None, x2=None, x3=None, x4=None, x5=None
    ):
        d[result] = (
            runtime.einsum_vjp(d[g], subscripts, k, x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 0, d[x0], x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 1, d[x1], x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 2, d[x2], x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 3, d[x3], x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 4, d[x4], x0, x1, x2, x3, x4, x5)
            + runtime.einsum_vjp_term(g, subscripts, k, 5, d[x5], x0, x1, x2, x3, x4, x5)
        )


def _linear(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.unrepeat, constant=("a", "repeats", "axis"))
    def unrepeat(result, g, a, repeats, axis):
        d[g] = runtime.unbroadcast(np.repeat(d[result], repeats, axis), g)

    @tangent(runtime.unrepeat)
    def unrepeat_tangent(result, g, a, repeats, axis):
        d[result] = runtime.unrepeat(d[g], a, repeats, axis)

    @adjoint(forward.tangent_as, constant=("value",))
    def tangent_as(result, t, value):
        d[t] = runtime.unbroadcast(d[result], t)

    @tangent(forward.tangent_as)
    def tangent_as_tangent(result, t, value):
        d[result] = forward.tangent_as(d[t], value)

    @adjoint(forward.tangent_as_k, constant=("value",))
    def tangent_as_k(result, t, value):
        d[t] = runtime.unbroadcast(d[result], t)

    @tangent(forward.tangent_as_k)
    def tangent_as_k_tangent(result, t, value):
        d[result] = forward.tangent_as_k(d[t], value)

    @adjoint(runtime.untile, constant=("a", "reps"))
    def untile(result, g, a, reps):
        d[g] = np.tile(np.reshape(d[result], np.shape(a)), reps)

    @tangent(runtime.untile)
    def untile_tangent(result, g, a, reps):
        d[result] = runtime.untile(d[g], a, reps)

    @adjoint(runtime.undiff, constant=("a", "n", "axis"))
    def undiff(result, g, a, n, axis):
        d[g] = runtime.unbroadcast(np.diff(d[result], n, axis), g)

    @tangent(runtime.undiff)
    def undiff_tangent(result, g, a, n, axis):
        d[result] = runtime.undiff(d[g], a, n, axis)


def _matrix(adjoint: Callable, tangent: Callable) -> None:
    """matmul_vjp_*, dot_vjp_*: bilinear in the adjoint and the other factor."""

    @adjoint(runtime.matmul_vjp_a, constant=("a",))
    def matmul_vjp_a(result, g, a, b):
        d[g] = runtime.unbroadcast(np.matmul(d[result], b), g)
        d[b] = runtime.matmul_vjp_b(g, d[result], b)

    @tangent(runtime.matmul_vjp_a)
    def matmul_vjp_a_tangent(result, g, a, b):
        d[result] = runtime.matmul_vjp_a(d[g], a, b) + runtime.matmul_vjp_a(g, a, d[b])

    @adjoint(runtime.matmul_vjp_b, constant=("b",))
    def matmul_vjp_b(result, g, a, b):
        d[g] = runtime.unbroadcast(np.matmul(a, d[result]), g)
        d[a] = runtime.matmul_vjp_a(g, a, d[result])

    @tangent(runtime.matmul_vjp_b)
    def matmul_vjp_b_tangent(result, g, a, b):
        d[result] = runtime.matmul_vjp_b(d[g], a, b) + runtime.matmul_vjp_b(g, d[a], b)

    @adjoint(runtime.dot_vjp_a, constant=("a",))
    def dot_vjp_a(result, g, a, b):
        d[g] = runtime.unbroadcast(np.dot(d[result], b), g)
        d[b] = runtime.dot_vjp_b(g, d[result], b)

    @tangent(runtime.dot_vjp_a)
    def dot_vjp_a_tangent(result, g, a, b):
        d[result] = runtime.dot_vjp_a(d[g], a, b) + runtime.dot_vjp_a(g, a, d[b])

    @adjoint(runtime.dot_vjp_b, constant=("b",))
    def dot_vjp_b(result, g, a, b):
        d[g] = runtime.unbroadcast(np.dot(a, d[result]), g)
        d[a] = runtime.dot_vjp_a(g, a, d[result])

    @tangent(runtime.dot_vjp_b)
    def dot_vjp_b_tangent(result, g, a, b):
        d[result] = runtime.dot_vjp_b(d[g], a, b) + runtime.dot_vjp_b(g, d[a], b)
