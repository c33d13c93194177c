"""Rules for NumPy's reductions and scans (sum, mean, max, var, cumsum, trace, ...).

Reductions are written with the reduction kind (rules/kinds.py): the body states
the weight of the input in the result, `W` elementwise or `S` a scalar, in terms
of `R`, the result with the reduced axes kept; the kind writes the
`axis is None or keepdims` branch and derives both forms. Ties in max/min split
the gradient equally among tied maxima (and their tangent is the tied tangents'
mean), the subgradient NumPy's comparison picks.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .kinds import bilinear, keepdims_adjoint, keepdims_tangent, linear, reduction
from .registry import Registry
from .template import d

R = None  # the result with the reduced axes kept (template notation, rules/kinds.py)
G = None  # the result's adjoint with the reduced axes kept


def register(registry: Registry) -> None:
    _sums(registry)
    _moments(registry)
    _nan_reductions(registry)
    _scans(registry)
    _average(registry)


def _sums(registry: Registry) -> None:
    # `initial` adds a constant (a differentiated one is refused: no d[initial])
    def masked_sum(
        result, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True
    ):
        W = np.broadcast_to(where, np.shape(a))  # noqa: F841 (template)

    @reduction(registry, np.sum, masked=masked_sum)
    def sum_(result, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        S = 1  # noqa: F841 (template)

    def masked_mean(result, a, axis=None, dtype=None, out=None, keepdims=False, where=True):
        keep = np.broadcast_to(where, np.shape(a))
        W = keep / np.sum(keep, axis=axis, keepdims=True)  # noqa: F841

    @reduction(registry, np.mean, masked=masked_mean)
    def mean(result, a, axis=None, dtype=None, out=None, keepdims=False, where=True):
        # a statement, not a ternary: folded where axis is left out, so result is not read
        if axis is None:  # noqa: SIM108
            n = 1
        else:
            n = np.size(result)
        S = n / np.size(a)  # noqa: F841

    def _extremum(result, a, axis=None, out=None, keepdims=False):
        hit = a == R
        W = hit / np.sum(hit, axis=axis, keepdims=True)  # noqa: F841

    for func in (np.max, np.min, np.amax, np.amin, np.nanmax, np.nanmin):
        reduction(registry, func, restriction="ties share the gradient equally")(_extremum)

    @reduction(registry, np.prod)
    def prod(result, a, axis=None, dtype=None, out=None, keepdims=False):
        W = runtime.prod_others(a, axis)  # noqa: F841

    @reduction(registry, np.ptp, restriction="ties share the gradient equally")
    def ptp(result, a, axis=None, out=None, keepdims=False):
        hi = a == np.max(a, axis=axis, keepdims=True)
        lo = a == np.min(a, axis=axis, keepdims=True)
        share = hi / np.sum(hi, axis=axis, keepdims=True)
        W = share - lo / np.sum(lo, axis=axis, keepdims=True)  # noqa: F841

    @registry.adjoint(
        np.median, restriction="the middle element(s) get the gradient; ties broken by order"
    )
    def median(result, a, axis=None, out=None, overwrite_input=False, keepdims=False):
        d[a] = runtime.median_vjp(d[result], a, axis, keepdims)

    @registry.tangent(np.median)
    def median_tangent(result, a, axis=None, out=None, overwrite_input=False, keepdims=False):
        # each result entry is a fixed mix of its slice's entries: its weights are the
        # reverse form of a cotangent of ones
        w = runtime.median_vjp(np.ones_like(result), a, axis, keepdims)
        d[result] = np.sum(w * d[a], axis=axis, keepdims=keepdims)


def _moments(registry: Registry) -> None:
    @reduction(registry, np.var)
    def var(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        n = np.size(a) / np.size(result) - ddof
        W = 2.0 / n * (a - np.mean(a, axis=axis, keepdims=True))  # noqa: F841

    @reduction(registry, np.std, restriction="gradient 0 where the deviation is 0 (the kink)")
    def std(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        safe = np.where(R == 0, 1.0, R)
        n = np.size(a) / np.size(result) - ddof
        W = (a - np.mean(a, axis=axis, keepdims=True)) / (n * safe)  # noqa: F841


def _nan_reductions(registry: Registry) -> None:
    nan_zero = "NaN entries get a zero gradient"

    @reduction(registry, np.nansum, restriction=nan_zero)
    def nansum(result, a, axis=None, dtype=None, out=None, keepdims=False):
        W = np.where(np.isnan(a), 0.0, 1.0)  # noqa: F841

    @reduction(registry, np.nanmean, restriction=nan_zero)
    def nanmean(result, a, axis=None, dtype=None, out=None, keepdims=False):
        keep = ~np.isnan(a)
        W = np.where(keep, 1.0 / np.sum(keep, axis=axis, keepdims=True), 0.0)  # noqa: F841

    @reduction(registry, np.nanvar, restriction=nan_zero)
    def nanvar(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        keep = ~np.isnan(a)
        centred = np.where(keep, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
        W = 2.0 / (np.sum(keep, axis=axis, keepdims=True) - ddof) * centred  # noqa: F841

    @reduction(registry, np.nanstd, restriction=nan_zero + "; 0 where the deviation is 0")
    def nanstd(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        keep = ~np.isnan(a)
        centred = np.where(keep, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
        count = np.sum(keep, axis=axis, keepdims=True) - ddof
        W = centred / (count * np.where(R == 0, 1.0, R))  # noqa: F841

    @reduction(registry, np.nanprod, restriction=nan_zero + "; exact with zeros")
    def nanprod(result, a, axis=None, dtype=None, out=None, keepdims=False):
        others = runtime.prod_others(np.where(np.isnan(a), 1.0, a), axis)
        W = np.where(np.isnan(a), 0.0, others)  # noqa: F841


def _scans(registry: Registry) -> None:
    @linear(registry, np.cumsum, "a")
    def cumsum(result, a, axis=None, dtype=None, out=None):
        if axis is None:
            d[a] = np.reshape(np.cumsum(d[result][::-1])[::-1], np.shape(a))
        else:
            d[a] = np.flip(np.cumsum(np.flip(d[result], axis), axis), axis)

    @registry.adjoint(np.cumprod, restriction="exact with zeros in the input (no division by them)")
    def cumprod(result, a, axis=None, dtype=None, out=None):
        d[a] = runtime.cumprod_vjp(d[result], a, result, axis)

    @registry.tangent(np.cumprod)
    def cumprod_tangent(result, a, axis=None, dtype=None, out=None):
        d[result] = runtime.cumprod_jvp(d[a], a, axis)

    @linear(registry, np.diff, "a", restriction="no prepend or append")
    def diff(result, a, n=1, axis=-1):
        d[a] = runtime.undiff(d[result], a, n, axis)

    @registry.adjoint(np.gradient, restriction="up to 3 spacings, given positionally")
    def gradient(result, f, h0=None, h1=None, h2=None, axis=None, edge_order=1):
        d[f] = runtime.gradient_vjp(d[result], f, (h0, h1, h2), axis, edge_order)

    @registry.tangent(np.gradient)
    def gradient_tangent(result, f, h0=None, h1=None, h2=None, axis=None, edge_order=1):
        d[result] = runtime.gradient_of(d[f], (h0, h1, h2), axis, edge_order)

    @linear(registry, np.trace, "a")
    def trace(result, a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        d[a] = runtime.undiagonal(np.expand_dims(d[result], -1), a, offset, axis1, axis2)

    if hasattr(np, "trapezoid"):  # NumPy >= 2.0

        @bilinear(
            registry, np.trapezoid, ("y", "x"), restriction="x one-dimensional or shaped like y"
        )
        def trapezoid(result, y, x=None, dx=1.0, axis=-1):
            d[y] = runtime.trapezoid_vjp(d[result], y, x, dx, axis, 0)
            d[x] = runtime.trapezoid_vjp(d[result], y, x, dx, axis, 1)

    if hasattr(np, "cumulative_sum"):  # NumPy >= 2.1

        @linear(registry, np.cumulative_sum, "x", restriction="include_initial=False")
        def cumulative_sum(result, x, axis=None, dtype=None, out=None):
            if axis is None:  # x has at most one dimension
                d[x] = np.reshape(np.flip(np.cumsum(np.flip(d[result]))), np.shape(x))
            else:
                d[x] = np.flip(np.cumsum(np.flip(d[result], axis), axis), axis)

        @registry.adjoint(np.cumulative_prod, restriction="include_initial=False; exact with zeros")
        def cumulative_prod(result, x, axis=None, dtype=None, out=None):
            d[x] = runtime.cumprod_vjp(d[result], x, result, axis)

        @registry.tangent(np.cumulative_prod)
        def cumulative_prod_tangent(result, x, axis=None, dtype=None, out=None):
            d[result] = runtime.cumprod_jvp(d[x], x, axis)


def _average(registry: Registry) -> None:
    @keepdims_adjoint(registry, np.average, restriction="returned=False")
    def average(result, a, axis=None, weights=None, returned=False, keepdims=False):
        if weights is None:
            d[a] = runtime.spread(G * (np.size(result) / np.size(a)), a)
        else:
            w = runtime.weights_like(weights, a, axis)
            total = np.sum(np.broadcast_to(w, np.shape(a)), axis=axis, keepdims=True)
            d[a] = G * w / total
            d[weights] = runtime.unweights(G * (a - R) / total, weights, axis)

    @keepdims_tangent(registry, np.average)
    def average_tangent(result, a, axis=None, weights=None, returned=False, keepdims=False):
        if weights is None:
            d[result] = np.sum(d[a], axis=axis, keepdims=keepdims) * (np.size(result) / np.size(a))
        else:
            w = runtime.weights_like(weights, a, axis)
            total = np.sum(np.broadcast_to(w, np.shape(a)), axis=axis, keepdims=True)
            dw = runtime.weights_like(d[weights], a, axis)
            d[result] = np.sum(w * d[a] / total, axis=axis, keepdims=keepdims) + np.sum(
                dw * (a - R) / total, axis=axis, keepdims=keepdims
            )
