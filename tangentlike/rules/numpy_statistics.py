"""Rules for NumPy's statistics and polynomials: quantile, percentile, cov, corrcoef,
vander, polyval (both forms; the maths in runtime/statistics.py).

Quantiles follow NumPy's default method ("linear": two order statistics mixed with
fixed weights; ties broken by position); other methods, `y`, `fweights` and `aweights`
of cov/corrcoef are refused when the gradient runs; a differentiated `q`, `N` or
weights have no rule and are refused where they are passed.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d


def register(registry: Registry) -> None:
    _quantiles(registry)
    _covariance(registry)
    _polynomials(registry)


def _quantiles(registry: Registry) -> None:
    ties = "method 'linear' (the default); ties broken by position"

    @registry.adjoint(np.quantile, restriction=ties)
    def quantile(
        result, a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False
    ):
        d[a] = runtime.quantile_vjp(d[result], a, q, axis, keepdims, method)

    @registry.tangent(np.quantile)
    def quantile_tangent(
        result, a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False
    ):
        d[result] = runtime.quantile_jvp(d[a], a, q, axis, keepdims, method)

    @registry.adjoint(np.percentile, restriction=ties)
    def percentile(
        result, a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False
    ):
        d[a] = runtime.quantile_vjp(d[result], a, np.divide(q, 100.0), axis, keepdims, method)

    @registry.tangent(np.percentile)
    def percentile_tangent(
        result, a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False
    ):
        d[result] = runtime.quantile_jvp(d[a], a, np.divide(q, 100.0), axis, keepdims, method)


def _covariance(registry: Registry) -> None:
    alone = "the data argument alone (no y, fweights, aweights)"

    @registry.adjoint(np.cov, restriction=alone)
    def cov(result, m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
        d[m] = runtime.cov_vjp(d[result], m, y, rowvar, bias, ddof, fweights, aweights)

    @registry.tangent(np.cov)
    def cov_tangent(
        result, m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None
    ):
        d[result] = runtime.cov_jvp(d[m], m, y, rowvar, bias, ddof, fweights, aweights)

    @registry.adjoint(np.corrcoef, restriction="the data argument alone (no y)")
    def corrcoef(result, x, y=None, rowvar=True):
        d[x] = runtime.corrcoef_vjp(d[result], x, y, rowvar)

    @registry.tangent(np.corrcoef)
    def corrcoef_tangent(result, x, y=None, rowvar=True):
        d[result] = runtime.corrcoef_jvp(d[x], x, y, rowvar)


def _polynomials(registry: Registry) -> None:
    @registry.adjoint(np.vander)
    def vander(result, x, N=None, increasing=False):
        d[x] = np.sum(d[result] * runtime.vander_slope(x, N, increasing), axis=1)

    @registry.tangent(np.vander)
    def vander_tangent(result, x, N=None, increasing=False):
        d[result] = runtime.vander_slope(x, N, increasing) * d[x][:, None]

    @registry.adjoint(np.polyval)
    def polyval(result, p, x):
        d[p] = runtime.polyval_vjp_p(d[result], p, x)
        d[x] = d[result] * runtime.polyval_slope(p, x)

    @registry.tangent(np.polyval)
    def polyval_tangent(result, p, x):
        d[result] = np.polyval(d[p], x) + d[x] * runtime.polyval_slope(p, x)
