"""Second-order rules of np.median's adjoint helper (registered by
rules/runtime_helpers.py beside its other rules).

`median_vjp` is linear in the adjoint `g` and locally constant in `a` (its order only
picks the places: ties aside, where the median has no derivative, a small change of a
moves no entry across another), so `a`, `axis` and `keepdims` are constant; its reverse
form is the transpose (runtime/higher_statistics.py), its forward form the helper
applied to the tangent. `median_vjp_vjp` is linear in `h` the same way: its transpose
is `median_vjp` again.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.median_vjp, constant=("a", "axis", "keepdims"))
    def median_vjp(result, g, a, axis, keepdims):
        d[g] = runtime.median_vjp_vjp(d[result], g, a, axis, keepdims)

    @tangent(runtime.median_vjp)
    def median_vjp_tangent(result, g, a, axis, keepdims):
        d[result] = runtime.median_vjp(d[g], a, axis, keepdims)

    @adjoint(runtime.median_vjp_vjp, constant=("g", "a", "axis", "keepdims"))
    def median_vjp_vjp(result, h, g, a, axis, keepdims):
        d[h] = runtime.median_vjp(d[result], a, axis, keepdims)

    @tangent(runtime.median_vjp_vjp)
    def median_vjp_vjp_tangent(result, h, g, a, axis, keepdims):
        d[result] = runtime.median_vjp_vjp(d[h], g, a, axis, keepdims)
