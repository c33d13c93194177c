"""Rules for Python's builtins `max`, `min` and `pow`, and the forward forms of the builtins
whose reverse forms live in operators.py (`abs`, `sum`, `float`, `divmod`).

`max(a, b, ...)` and `min(a, b, ...)` reach these rules as `max((a, b, ...))`
(normalize/builtin_calls.py): one rule over an iterable, a list, tuple or array,
whose adjoint is a list (an array for an array). Only key=None is covered: a call
with `key=` or `default=` has no rule (analyze.operands refuses it where a
differentiated value flows).

Ties: the whole gradient goes to the last of the tied items, as np.maximum(x, y) and
np.minimum(x, y) send ties to y (rules/numpy.py), so max(a, b) == max((a, b)) has the
same subgradient as np.maximum(a, b).
"""

from __future__ import annotations

import builtins
from dataclasses import replace

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d, rule_from_expressions

_GLOBALS = {"np": np, "runtime": runtime}

# pow(base, exp, mod): with mod, integers only (no gradient flows through integers)
POW = {
    "base": "g * runtime.power_slope(base, exp)",
    "exp": "g * result * runtime.power_log(base, exp)",
}


def register(registry: Registry) -> None:
    """After operators.py (the reverse forms of abs, sum, float and divmod are there)."""
    registry.sequence_params({builtins.max: ("iterable",), builtins.min: ("iterable",)})
    registry.add(
        replace(
            rule_from_expressions(
                builtins.pow,
                ("base", "exp", "mod"),
                POW,
                unbroadcast=True,
                globals_=_GLOBALS,
                defaults={"mod": None},
                restriction="mod: integers only",
            ),
            constant=frozenset({"mod"}),
        )
    )
    for extremum in (builtins.max, builtins.min):
        registry.adjoint(extremum, restriction="key=None; ties: the last tied item")(_extremum)
        registry.tangent(extremum)(_extremum_tangent)
    _forward_forms(registry)


def _extremum(result, iterable):
    d[iterable] = runtime.unpick(d[result], iterable, runtime.extremum_index(iterable, result))


def _extremum_tangent(result, iterable):
    d[result] = d[iterable][runtime.extremum_index(iterable, result)]


def _forward_forms(registry: Registry) -> None:
    """Forward forms of the builtins operators.py gives reverse forms for (unless a
    forward form is registered there already)."""

    def missing(primal: object) -> bool:
        return registry.lookup(primal) is not None and registry.lookup_tangent(primal) is None

    if missing(builtins.abs):

        @registry.tangent(builtins.abs)
        def abs_(result, x):
            d[result] = d[x] * np.sign(x)

    if missing(builtins.float):

        @registry.tangent(builtins.float)
        def float_(result, x=0.0):
            d[result] = float(d[x])

    if missing(builtins.sum):

        @registry.tangent(builtins.sum)
        def sum_(result, iterable, start=0):
            d[result] = sum(d[iterable]) + d[start]

    if missing(builtins.divmod):
        # (x // y, x % y): the quotient is locally constant, the remainder x - q y
        @registry.tangent(builtins.divmod)
        def divmod_(result, x, y):
            d[result] = (0.0 * result[0], d[x] - d[y] * result[0])
