"""Rules for the `scipy.special` namespace.

SciPy is a test dependency, not a runtime one: when it is not installed this
file registers nothing. Derivatives that are themselves special functions
(gammaln -> digamma, digamma -> trigamma as zeta(2, x)) call scipy.special in
the generated code, which the differentiated code imports anyway.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from . import scipy_special_table as table
from .registry import Registry
from .template import d

special = None  # scipy.special, imported by `register` (the registry defers it until needed)
_GLOBALS = {"np": np, "special": special, "runtime": runtime}


def register(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.special is imported."""
    global special
    try:
        from scipy import special
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    _GLOBALS["special"] = special
    for func, expr in table.unary(special).items():
        registry.expressions(func, ("x",), {"x": expr}, unbroadcast=False, globals_=_GLOBALS)
    for func, (dx, dy) in table.binary(special).items():
        registry.expressions(
            func, ("x", "y"), {"x": dx, "y": dy}, unbroadcast=True, globals_=_GLOBALS
        )
    for func, (params, exprs) in table.partial(special).items():
        registry.expressions(func, params, exprs, unbroadcast=True, globals_=_GLOBALS)
    registry.nondifferentiable({special.gammasgn: "piecewise constant: the sign of gamma"})
    adjoint, tangent = registry.adjoint, registry.tangent
    registry.array_makers([special.logsumexp, special.softmax, special.log_softmax])

    @adjoint(special.logsumexp, restriction="return_sign=False")
    def logsumexp(result, a, axis=None, b=None, keepdims=False, return_sign=False):
        if axis is None or keepdims:
            weights = np.exp(a - result) * d[result]
        else:
            weights = np.exp(a - np.expand_dims(result, axis)) * np.expand_dims(d[result], axis)
        if b is None:
            d[a] = weights
        else:
            d[a] = runtime.unbroadcast(weights * b, a)
            # b may have more (or longer) axes than a: weights first to their joint shape
            spread = np.broadcast_to(weights, np.broadcast_shapes(np.shape(weights), np.shape(b)))
            d[b] = runtime.unbroadcast(spread, b)

    @adjoint(special.softmax)
    def softmax(result, x, axis=None):
        d[x] = result * (d[result] - np.sum(d[result] * result, axis=axis, keepdims=True))

    @adjoint(special.log_softmax)
    def log_softmax(result, x, axis=None):
        d[x] = d[result] - np.exp(result) * np.sum(d[result], axis=axis, keepdims=True)

    @tangent(special.logsumexp)
    def logsumexp_tangent(result, a, axis=None, b=None, keepdims=False, return_sign=False):
        if axis is None or keepdims:
            weights = np.exp(a - result)
        else:
            weights = np.exp(a - np.expand_dims(result, axis))
        if b is None:
            d[result] = np.sum(weights * d[a], axis=axis, keepdims=keepdims)
        else:
            d[result] = np.sum(weights * b * d[a], axis=axis, keepdims=keepdims) + np.sum(
                weights * d[b], axis=axis, keepdims=keepdims
            )

    @tangent(special.softmax)
    def softmax_tangent(result, x, axis=None):
        d[result] = result * (d[x] - np.sum(result * d[x], axis=axis, keepdims=True))

    @tangent(special.log_softmax)
    def log_softmax_tangent(result, x, axis=None):
        d[result] = d[x] - np.sum(np.exp(result) * d[x], axis=axis, keepdims=True)
