"""Second-order rules of np.median's and np.gradient's adjoint helpers (registered by
rules/runtime_helpers.py beside its other rules).

`median_vjp` is linear in the adjoint `g` and locally constant in `a` (its order only
picks the places: ties aside, where the median has no derivative, a small change of a
moves no entry across another), so `a`, `axis` and `keepdims` are constant; its reverse
form is the transpose (runtime/higher_statistics.py), its forward form the helper
applied to the tangent. `median_vjp_vjp` is linear in `h` the same way: its transpose
is `median_vjp` again.

`gradient_vjp` (np.gradient's Dᵀ) is linear in the adjoint `g` and reads `f` for its
shape only; the spacings are constants (np.gradient's rule differentiates no spacing):
its transpose is D (`gradient_vjp_vjp`), whose transpose is Dᵀ again (`gradient_vjp_of`,
the helper taking a zero tangent). For several axes the adjoints are lists, one array
per axis.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d

# the helpers whose result, or whose argument, may be a list adjoint (one per axis):
# registered as such by runtime_helpers.py
SEQUENCE_MAKERS = (runtime.gradient_vjp_vjp,)
SEQUENCE_PARAMS = {
    runtime.gradient_vjp: ("g",),
    runtime.gradient_vjp_of: ("t",),
    runtime.gradient_vjp_vjp: ("g",),
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _quantiles(adjoint, tangent)

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

    constant = ("f", "spacings", "axis", "edge_order")

    @adjoint(runtime.gradient_vjp, constant=constant)
    def gradient_vjp(result, g, f, spacings, axis, edge_order):
        d[g] = runtime.gradient_vjp_vjp(d[result], g, f, spacings, axis, edge_order)

    @tangent(runtime.gradient_vjp)
    def gradient_vjp_tangent(result, g, f, spacings, axis, edge_order):
        d[result] = runtime.gradient_vjp_of(
            runtime.no_object_zero(d[g]), f, spacings, axis, edge_order
        )

    @adjoint(runtime.gradient_vjp_of, constant=constant)
    def gradient_vjp_of(result, t, f, spacings, axis, edge_order):
        d[t] = runtime.gradient_vjp_vjp(d[result], t, f, spacings, axis, edge_order)

    @tangent(runtime.gradient_vjp_of)
    def gradient_vjp_of_tangent(result, t, f, spacings, axis, edge_order):
        d[result] = runtime.gradient_vjp_of(
            runtime.no_object_zero(d[t]), f, spacings, axis, edge_order
        )

    @adjoint(runtime.gradient_vjp_vjp, constant=("g", *constant))
    def gradient_vjp_vjp(result, h, g, f, spacings, axis, edge_order):
        d[h] = runtime.gradient_vjp_of(d[result], f, spacings, axis, edge_order)

    @tangent(runtime.gradient_vjp_vjp)
    def gradient_vjp_vjp_tangent(result, h, g, f, spacings, axis, edge_order):
        d[result] = runtime.gradient_vjp_vjp(d[h], g, f, spacings, axis, edge_order)


def _quantiles(adjoint: Callable, tangent: Callable) -> None:
    """np.quantile's (and np.percentile's) helpers: linear in the adjoint or tangent, the
    weights locally constant in `a` (its order picks the two order statistics, ties aside)
    and `q` never differentiated (np.quantile's rule has no gradient for it: a
    differentiated q is refused here too)."""
    constant = ("a", "axis", "keepdims", "method")

    @adjoint(runtime.quantile_vjp, constant=constant)
    def quantile_vjp(result, g, a, q, axis, keepdims, method):
        d[g] = runtime.unbroadcast(runtime.quantile_jvp(d[result], a, q, axis, keepdims, method), g)

    @tangent(runtime.quantile_vjp)
    def quantile_vjp_tangent(result, g, a, q, axis, keepdims, method):
        d[result] = runtime.quantile_vjp(d[g], a, q, axis, keepdims, method)

    @adjoint(runtime.quantile_jvp, constant=constant)
    def quantile_jvp(result, da, a, q, axis, keepdims, method):
        d[da] = runtime.unbroadcast(
            runtime.quantile_vjp(d[result], a, q, axis, keepdims, method), da
        )

    @tangent(runtime.quantile_jvp)
    def quantile_jvp_tangent(result, da, a, q, axis, keepdims, method):
        d[result] = runtime.quantile_jvp(d[da], a, q, axis, keepdims, method)

    @adjoint(runtime.quantile_weights, constant=("a", "axis", "method"))
    def quantile_weights(result, a, q, axis, method):
        pass  # locally constant in a: its order only picks the entries
