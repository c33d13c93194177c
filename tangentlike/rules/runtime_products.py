"""Second-order rules of the adjoint helpers of NumPy's products and of the linear maps
np.repeat and np.diff (registered by rules/runtime_helpers.py beside its other rules).

- matmul_vjp_a/b, dot_vjp_a/b: bilinear in the adjoint and the other factor.

- tensordot_vjp, kron_vjp, cross_vjp, einsum_vjp: the adjoint of one operand of a product
  linear in each operand, so bilinear in the adjoint g and the other operands, and
  reading its own operand for its shape only. Reverse form: runtime/higher_products.py
  (g's adjoint is the product with that operand replaced by the result's adjoint);
  forward form: the helper at g's tangent plus the helper at the other operand's
  tangent (the term of the operand read for its shape is zero: it reads only its shape).
- convolve_vjp (np.convolve, np.correlate), trapezoid_vjp (np.trapezoid): bilinear
  likewise; with x None trapezoid_vjp's side 0 is linear in g alone (the step dx is a
  parameter first order refuses to differentiate: unassigned here too).
- interp_vjp: linear in g and fp, piecewise linear in x (x's segment among the knots xp
  is locally constant; a knot is a kink, where the first order takes the slope to its
  right; xp itself: refused when differentiated, as at first order). Its terms call
  runtime.interp_slope_vjp (the transpose of fp -> the slope), whose rule is here too.
  The reverse forms are spelled with the products themselves and their first-order
  helpers, whose rules these are: a third derivative goes through them again.
- unrepeat, undiff, untile: linear in g, reading the other arguments for shapes and
  counts: the transposed map (np.repeat, np.diff, np.tile) and the helper at g's tangent.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from ..runtime import forward
from .template import d

# the trapezoid rule the second-order rule of trapezoid_vjp calls (np.trapz before NumPy 2)
TRAPEZOID = getattr(np, "trapezoid", None) or np.trapz


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _matrix(adjoint, tangent)
    _bilinear(adjoint, tangent)
    _einsum(adjoint, tangent)
    _linear(adjoint, tangent)
    _signals(adjoint, tangent)


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


def _signals(adjoint: Callable, tangent: Callable) -> None:
    """convolve_vjp, trapezoid_vjp, interp_vjp: the reverse forms spelled with the
    products themselves and their first-order helpers, so a third derivative goes
    through their rules again."""

    @adjoint(runtime.convolve_vjp, constant=("mode", "side", "correlate"))
    def convolve_vjp(result, g, a, v, mode, side, correlate):
        if side == 0:  # <h, vjp(g)> = <P(h, v), g>: g's adjoint is P at h, v's P's given g
            if correlate:
                d[g] = np.correlate(np.ravel(d[result]), np.ravel(v), mode)
            else:
                d[g] = np.convolve(np.ravel(d[result]), np.ravel(v), mode)
            d[a] = np.zeros(np.shape(a))
            d[v] = runtime.convolve_vjp(g, d[result], v, mode, 1, correlate)
        else:
            if correlate:
                d[g] = np.correlate(np.ravel(a), np.ravel(d[result]), mode)
            else:
                d[g] = np.convolve(np.ravel(a), np.ravel(d[result]), mode)
            d[a] = runtime.convolve_vjp(g, a, d[result], mode, 0, correlate)
            d[v] = np.zeros(np.shape(v))

    @tangent(runtime.convolve_vjp)
    def convolve_vjp_tangent(result, g, a, v, mode, side, correlate):
        d[result] = runtime.convolve_vjp(d[g], a, v, mode, side, correlate) + runtime.convolve_vjp(
            g, d[a], d[v], mode, side, correlate
        )

    @adjoint(runtime.trapezoid_vjp, constant=("axis", "side"))
    def trapezoid_vjp(result, g, y, x, dx, axis, side):
        if side == 0:
            d[g] = runtime.unbroadcast(TRAPEZOID(d[result], x, dx, axis), g)
            d[y] = np.zeros(np.shape(y))
            if x is not None:
                d[x] = runtime.trapezoid_vjp(g, d[result], x, dx, axis, 1)
        else:
            d[g] = runtime.unbroadcast(TRAPEZOID(y, d[result], dx, axis), g)
            d[y] = runtime.trapezoid_vjp(g, y, d[result], dx, axis, 0)
            d[x] = np.zeros(np.shape(x))

    @tangent(runtime.trapezoid_vjp)
    def trapezoid_vjp_tangent(result, g, y, x, dx, axis, side):
        if x is None:  # side 0: linear in g alone
            d[result] = runtime.trapezoid_vjp(d[g], y, x, dx, axis, side)
        else:
            d[result] = runtime.trapezoid_vjp(d[g], y, x, dx, axis, side) + runtime.trapezoid_vjp(
                g, d[y], d[x], dx, axis, side
            )

    @adjoint(runtime.interp_vjp, constant=("side",))
    def interp_vjp(result, g, x, xp, fp, side):
        if side == 0:  # g times the slope: linear in fp, locally constant in x
            d[g] = runtime.interp_vjp(d[result], x, xp, fp, 0)
            d[x] = np.zeros(np.shape(x))
            d[fp] = runtime.interp_slope_vjp(d[result] * g, x, xp, fp)
        else:  # g spread with weights linear in x, fp read for its dtype only
            d[g] = np.interp(x, xp, d[result])
            d[x] = runtime.interp_vjp(g, x, xp, d[result], 0)
            d[fp] = np.zeros(np.shape(fp))

    @tangent(runtime.interp_vjp)
    def interp_vjp_tangent(result, g, x, xp, fp, side):
        if side == 0:
            d[result] = runtime.interp_vjp(d[g], x, xp, fp, 0) + runtime.interp_vjp(
                g, x, xp, d[fp], 0
            )
        else:
            d[result] = runtime.interp_vjp(d[g], x, xp, fp, 2) + runtime.interp_slope_vjp(
                g * d[x], x, xp, fp
            )

    @adjoint(runtime.interp_slope_vjp, constant=("x", "fp"))
    def interp_slope_vjp(result, c, x, xp, fp):
        # linear in c (its transpose: c times the slope of interp at x through d[result])
        d[c] = runtime.unbroadcast(runtime.interp_vjp(1.0, x, xp, d[result], 0), c)

    @tangent(runtime.interp_slope_vjp)
    def interp_slope_vjp_tangent(result, c, x, xp, fp):
        d[result] = runtime.interp_slope_vjp(d[c], x, xp, fp)
