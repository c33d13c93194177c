"""Rules for the `scipy.special` namespace.

SciPy is a test dependency, not a runtime one: when it is not installed this
file registers nothing. Derivatives that are themselves special functions
(gammaln -> digamma, digamma -> trigamma as zeta(2, x)) call scipy.special in
the generated code, which the differentiated code imports anyway.
"""

from __future__ import annotations

import math

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d

special = None  # scipy.special, imported by `register` (the registry defers it until needed)
_GLOBALS = {"np": np, "special": special, "runtime": runtime}
_TWO_OVER_SQRT_PI = repr(2.0 / math.sqrt(math.pi))
_SQRT_PI_OVER_TWO = repr(math.sqrt(math.pi) / 2.0)
_INV_SQRT_2PI = repr(1.0 / math.sqrt(2.0 * math.pi))
_SQRT_2PI = repr(math.sqrt(2.0 * math.pi))


def _unary() -> dict[object, str]:
    """d[x] in terms of g = d[result], x and result."""
    return {
        special.expit: "g * result * (1.0 - result)",
        special.logit: "g / (x * (1.0 - x))",
        special.log_expit: "g * special.expit(-x)",
        special.erf: f"g * {_TWO_OVER_SQRT_PI} * np.exp(-x * x)",
        special.erfc: f"-g * {_TWO_OVER_SQRT_PI} * np.exp(-x * x)",
        special.erfinv: f"g * {_SQRT_PI_OVER_TWO} * np.exp(result * result)",
        special.erfcinv: f"-g * {_SQRT_PI_OVER_TWO} * np.exp(result * result)",
        special.ndtr: f"g * {_INV_SQRT_2PI} * np.exp(-0.5 * x * x)",
        special.log_ndtr: f"g * {_INV_SQRT_2PI} * np.exp(-0.5 * x * x - result)",
        special.ndtri: f"g * {_SQRT_2PI} * np.exp(0.5 * result * result)",
        special.gammaln: "g * special.digamma(x)",
        special.gamma: "g * result * special.digamma(x)",
        special.digamma: "g * special.zeta(2.0, x)",  # trigamma
        special.entr: "-g * (np.log(x) + 1.0)",
    }


def _binary() -> dict[object, tuple[str, str]]:
    """(d[x], d[y]) in terms of g, x, y and result; broadcasting is undone by the kind."""
    return {
        special.xlogy: ("g * np.log(y)", "g * x / y"),
        special.xlog1py: ("g * np.log1p(y)", "g * x / (1.0 + y)"),
        special.rel_entr: ("g * (np.log(x / y) + 1.0)", "-g * x / y"),
        special.betaln: (
            "g * (special.digamma(x) - special.digamma(x + y))",
            "g * (special.digamma(y) - special.digamma(x + y))",
        ),
    }


def register(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.special is imported."""
    global special
    try:
        from scipy import special
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    _GLOBALS["special"] = special
    for func, expr in _unary().items():
        registry.expressions(func, ("x",), {"x": expr}, unbroadcast=False, globals_=_GLOBALS)
    for func, (dx, dy) in _binary().items():
        registry.expressions(
            func, ("x", "y"), {"x": dx, "y": dy}, unbroadcast=True, globals_=_GLOBALS
        )
    adjoint = registry.adjoint
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
