"""Rule cases for Python's builtins and the `math` module (rules/builtins.py, rules/math.py).

cases.py appends these to CASES, so they run through the same harness: central
differences, autograd where it has the function (math through `autograd_math`),
and, for single applications, forward form against reverse form (test_tangents).
`math` functions take floats: their cases are scalar, apart from the iterable
ones (fsum, prod, dist), which also take arrays.
"""

from __future__ import annotations

import math
import types

from cases import Case, M, S, V, binary, unary

SCALAR = (S,)
PAIRS = {"x": S, "y": S}


def scalar(expr: str, domain: str = "real", autograd: bool = True) -> Case:
    return Case(expr, {"x": S}, domain, autograd)


def pair(expr: str, domain: str = "real", autograd: bool = True) -> Case:
    return Case(expr, dict(PAIRS), domain, autograd)


BUILTIN_CASES: list[Case] = [
    # max and min: two or more arguments, over a list, over an array (key=None)
    pair("max(x, y)", "distinct"),
    pair("min(x, y)", "distinct"),
    pair("max(y, x)", "distinct"),
    pair("max(x, y, x * y)", "distinct"),
    pair("min(x, y, 0.3)", "distinct"),
    pair("max([x, y, 2.0 * x])", "distinct"),
    pair("min((x * y, y))", "distinct"),
    scalar("max(x, 0.1) + min(x, -0.1)", "distinct"),
    Case("max(x)", {"x": V}, "distinct"),
    Case("min(x)", {"x": V}, "distinct"),
    Case("max(x) * min(x)", {"x": (6,)}, "distinct"),
    Case("max(list(x * y))", {"x": V, "y": V}, "distinct"),
    Case("max(x, y)", {"x": (1,), "y": (1,)}, "distinct"),  # one-element arrays compare
    # pow, two arguments (three: integers only)
    *binary("pow(x, y)", "positive"),
    *unary("pow(x, 2)"),
    *unary("pow(x, 3.0)", shapes=(S, M)),
    # x ** n at 0 and below 0: the slope of x ** 0 is 0 (not 0 * inf)
    *[
        Case(f"x ** {n}", {"x": s}, domain, autograd=False)
        for n in ("0.0", "0")
        for s, domain in [(S, "zero"), (V, "zeros"), (M, "real")]
    ],
    *[Case(f"x ** {n}", {"x": S}, "zero") for n in ("1", "2", "3", "2.0")],
    *[Case(f"x ** {n}", {"x": M}, "zeros") for n in ("1", "2", "3", "2.0")],
    *unary("x ** 3", "real"),
    *unary("x ** -2", "distinct"),
    *unary("np.power(x, 0.0)", "zeros", shapes=(V, M)),
    Case("np.power(x, 0.0)", {"x": S}, "zero", autograd=False),
    Case("pow(x, 0.0)", {"x": S}, "zero", autograd=False),
    Case("math.pow(x, 0.0)", {"x": S}, "zero", autograd=False),
    # the builtins operators.py gives reverse forms for: single applications for the
    # forward forms
    Case("abs(x)", {"x": S}, "distinct"),
    Case("sum(x)", {"x": M}),
    Case("sum(x, y)", {"x": M, "y": V}),
    Case("divmod(x, y)", {"x": V, "y": V}, "distinct", autograd=False),
    # math: Python floats in, Python floats out
    *[
        scalar(f"math.{name}(x)", domain)
        for name, domain in [
            ("exp", "real"),
            ("exp2", "real"),
            ("expm1", "real"),
            ("log", "positive"),
            ("log1p", "positive"),
            ("log2", "positive"),
            ("log10", "positive"),
            ("sqrt", "positive"),
            ("cbrt", "positive"),
            ("sin", "real"),
            ("cos", "real"),
            ("tan", "unit"),
            ("asin", "unit"),
            ("acos", "unit"),
            ("atan", "real"),
            ("sinh", "real"),
            ("cosh", "real"),
            ("tanh", "real"),
            ("asinh", "real"),
            ("acosh", "above1"),
            ("atanh", "unit"),
            ("erf", "real"),
            ("erfc", "real"),
            ("gamma", "positive"),
            ("lgamma", "positive"),
            ("fabs", "distinct"),
            ("degrees", "real"),
            ("radians", "real"),
        ]
    ],
    scalar("math.cbrt(x - 3.0)", "positive"),  # a negative argument
    scalar("math.gamma(x - 3.0)", "probability"),  # between poles: the reflection
    scalar("math.lgamma(x + 7.5)", "positive"),  # the asymptotic series directly
    scalar("math.lgamma(x - 3.0)", "probability"),
    pair("math.log(x, y)", "above1"),
    scalar("math.log(x, 2.0)", "positive"),
    pair("math.atan2(x, y)"),
    pair("math.hypot(x, y)"),
    pair("math.hypot(x, y, x * y, 0.5)"),
    scalar("math.hypot(x)", "distinct"),
    pair("math.pow(x, y)", "positive"),
    scalar("math.pow(x, 3.0)"),
    scalar("math.pow(x, 2)", "zero"),
    pair("math.fmod(x, y)", "distinct"),
    scalar("math.fmod(x, 0.1)", "positive"),
    pair("math.remainder(x, y)", "distinct", autograd=False),
    pair("math.copysign(x, y)", "distinct"),
    scalar("math.ldexp(x, 3)"),
    pair("math.fsum([x, y, x * y])"),
    Case("math.fsum(x)", {"x": V}),
    pair("math.prod([x, y, 2.0])"),
    Case("math.prod(x)", {"x": V}, "zeros"),  # exact at zeros: no division
    Case("math.prod(x, start=y)", {"x": V, "y": S}),
    Case("math.dist(x, y)", {"x": V, "y": V}),
    pair("math.dist([x, y], [y, 1.0])"),
    scalar("math.sin(x) * math.exp(x) + math.sqrt(x * x + 1.0)"),
]

# autograd has no `math`: these stand in for it (what autograd.numpy has).
_AUTOGRAD_NAMES = {
    "exp": "exp",
    "exp2": "exp2",
    "expm1": "expm1",
    "log": "log",
    "log1p": "log1p",
    "log2": "log2",
    "log10": "log10",
    "sqrt": "sqrt",
    "cbrt": "cbrt",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "atan2": "arctan2",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "asinh": "arcsinh",
    "acosh": "arccosh",
    "atanh": "arctanh",
    "fabs": "fabs",
    "degrees": "degrees",
    "radians": "radians",
    "hypot": "hypot",
    "copysign": "copysign",
    "fmod": "fmod",
    "pow": "power",
}


def autograd_math() -> types.SimpleNamespace:
    """A stand-in for `math` in autograd's copy of a case: autograd.numpy's functions (and
    autograd.scipy.special's erf, erfc, gamma, gammaln), the rest left out (skipped)."""
    import autograd.numpy as anp
    import autograd.scipy.special as asp

    found = {name: getattr(anp, target) for name, target in _AUTOGRAD_NAMES.items()}
    found.update(erf=asp.erf, erfc=asp.erfc, gamma=asp.gamma, lgamma=asp.gammaln)
    found["log"] = lambda x, base=None: anp.log(x) if base is None else anp.log(x) / anp.log(base)
    found["fsum"] = sum
    return types.SimpleNamespace(pi=math.pi, e=math.e, **found)
