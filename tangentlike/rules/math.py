"""Rules for the `math` module: Python floats in, Python floats out.

Scalar code calls `math` because it is faster than NumPy on floats, so the
derivatives are written with `math` and Python arithmetic too (no NumPy round
trip). Kinks follow rules/numpy.py: `fabs` has slope 0 at 0, `hypot` and `dist`
gradient 0 where the norm is 0. `math.hypot(a, b, c)` reaches its rule as
`hypot(hypot(a, b), c)` (normalize/builtin_calls.py). Integer-valued, boolean
and locally constant functions are listed with their reason (NONDIFFERENTIABLE).
"""

from __future__ import annotations

import math
from dataclasses import replace

from .. import runtime
from .registry import Registry
from .template import d, rule_from_expressions

_GLOBALS = {"math": math, "runtime": runtime}
_LN2, _LN10 = repr(math.log(2.0)), repr(math.log(10.0))
_DEG, _RAD = repr(math.pi / 180.0), repr(180.0 / math.pi)
_TWO_OVER_SQRT_PI = repr(2.0 / math.sqrt(math.pi))

# d[x] in terms of g = d[result], x and result.
UNARY = {
    math.exp: "g * result",
    math.exp2: f"g * result * {_LN2}",
    math.expm1: "g * (result + 1.0)",
    math.log1p: "g / (x + 1.0)",
    math.log2: f"g / (x * {_LN2})",
    math.log10: f"g / (x * {_LN10})",
    math.sqrt: "g * 0.5 / result",
    math.cbrt: "g / (3.0 * result * result)",
    math.sin: "g * math.cos(x)",
    math.cos: "-g * math.sin(x)",
    math.tan: "g * (1.0 + result * result)",
    math.asin: "g / math.sqrt(1.0 - x * x)",
    math.acos: "-g / math.sqrt(1.0 - x * x)",
    math.atan: "g / (1.0 + x * x)",
    math.sinh: "g * math.cosh(x)",
    math.cosh: "g * math.sinh(x)",
    math.tanh: "g * (1.0 - result * result)",
    math.asinh: "g / math.sqrt(x * x + 1.0)",
    math.acosh: "g / math.sqrt(x * x - 1.0)",
    math.atanh: "g / (1.0 - x * x)",
    math.erf: f"g * {_TWO_OVER_SQRT_PI} * math.exp(-x * x)",
    math.erfc: f"-g * {_TWO_OVER_SQRT_PI} * math.exp(-x * x)",
    math.gamma: "g * result * runtime.digamma(x)",
    math.lgamma: "g * runtime.digamma(x)",
    math.fabs: "g * (1.0 if x > 0 else -1.0 if x < 0 else 0.0)",
    math.degrees: f"g * {_RAD}",
    math.radians: f"g * {_DEG}",
}

# {param: d[param]} for functions of several arguments, with their parameter names.
SEVERAL = {
    # atan2(y, x), in math's own order
    math.atan2: (("y", "x"), {"y": "g * x / (x * x + y * y)", "x": "-g * y / (x * x + y * y)"}),
    math.hypot: (
        ("x", "y"),
        {"x": "g * (x / result if result else 0.0)", "y": "g * (y / result if result else 0.0)"},
    ),
    math.pow: (
        ("x", "y"),
        {
            "x": "g * runtime.power_slope(x, y)",
            # x ** y for x < 0 is real only at integer y: no slope in y there
            "y": "g * result * (math.log(x) if x > 0 else 0.0 if x == 0 else math.nan)",
        },
    ),
    # x - n y with the integer n locally constant: n = round((x - result) / y) exactly
    math.fmod: (("x", "y"), {"x": "g", "y": "-g * round((x - result) / y)"}),
    math.remainder: (("x", "y"), {"x": "g", "y": "-g * round((x - result) / y)"}),
}

# Parameters a result is locally constant in: (params, {param: d[param]}, constant ones).
CONSTANT_IN = {
    # |x| with y's sign: slope +-1, 0 at x = 0 (the kink, as fabs)
    math.copysign: (
        ("x", "y"),
        {"x": "g * (0.0 if x == 0 else 1.0 if (x > 0) == (result > 0) else -1.0)"},
    ),
    math.ldexp: (("x", "i"), {"x": "g * 2.0 ** i"}),  # x * 2 ** i, i an integer
}

INTEGER = "an integer result"
BOOLEAN = "boolean result"
NONDIFFERENTIABLE = {
    math.floor: INTEGER,
    math.ceil: INTEGER,
    math.trunc: INTEGER,
    math.isqrt: INTEGER,
    math.comb: "integers only",
    math.perm: "integers only",
    math.factorial: "integers only",
    math.gcd: "integers only",
    math.lcm: "integers only",
    math.isfinite: BOOLEAN,
    math.isinf: BOOLEAN,
    math.isnan: BOOLEAN,
    math.isclose: BOOLEAN,
    math.ulp: "the spacing of floats near x: piecewise constant",
}


def register(registry: Registry) -> None:
    for func, expr in UNARY.items():
        registry.expressions(func, ("x",), {"x": expr}, unbroadcast=False, globals_=_GLOBALS)
    for func, (params, exprs) in SEVERAL.items():
        defaults = {"y": 0.0} if func is math.hypot else None  # hypot(x) == abs(x)
        registry.expressions(
            func, params, exprs, unbroadcast=False, globals_=_GLOBALS, defaults=defaults
        )
    for func, (params, exprs) in CONSTANT_IN.items():
        rule = rule_from_expressions(func, params, exprs, unbroadcast=False, globals_=_GLOBALS)
        registry.add(replace(rule, constant=frozenset(params) - set(exprs)))
    registry.nondifferentiable(NONDIFFERENTIABLE)
    registry.sequence_params({math.fsum: ("seq",), math.prod: ("iterable",), math.dist: ("p", "q")})
    adjoint, tangent = registry.adjoint, registry.tangent

    @adjoint(math.log)
    def log(result, x, base=None):
        if base is None:
            d[x] = d[result] / x
        else:
            d[x] = d[result] / (x * math.log(base))
            d[base] = -d[result] * result / (base * math.log(base))

    @tangent(math.log)
    def log_tangent(result, x, base=None):
        if base is None:
            d[result] = d[x] / x
        else:
            d[result] = d[x] / (x * math.log(base)) - d[base] * result / (base * math.log(base))

    @adjoint(math.fsum)
    def fsum(result, seq):
        d[seq] = runtime.unsum(d[result], seq)

    @tangent(math.fsum)
    def fsum_tangent(result, seq):
        d[result] = math.fsum(d[seq])

    @adjoint(math.prod)
    def prod(result, iterable, start=1):
        d[iterable] = runtime.unprod(d[result], iterable, start)
        d[start] = d[result] * runtime.prod_of(iterable)

    @tangent(math.prod)
    def prod_tangent(result, iterable, start=1):
        weights = runtime.unprod(1.0, iterable, start)
        d[result] = runtime.inner(weights, d[iterable]) + d[start] * runtime.prod_of(iterable)

    @adjoint(math.dist)
    def dist(result, p, q):
        d[p] = runtime.undist(d[result], p, q, result)
        d[q] = runtime.negated(runtime.undist(d[result], p, q, result))

    @tangent(math.dist)
    def dist_tangent(result, p, q):
        slope = runtime.undist(1.0, p, q, result)
        d[result] = runtime.inner(slope, d[p]) - runtime.inner(slope, d[q])
