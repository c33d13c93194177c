"""Second-order rules of the adjoint helpers that turn one array adjoint into a list of
them or back: np.meshgrid's (meshgrid_vjp, and meshgrid_of, its forward form),
np.vectorize's (unvectorized) and np.apply_along_axis's (unalong_axis, unrows_along),
and of their transposes (registered by rules/runtime_helpers.py beside its other rules).

Each is linear in its adjoint (g, h) or, for meshgrid_of, in its arrays jointly, and
reads its other arguments for their shapes only (constant). Reverse forms: the
transposes in runtime/higher_lists.py (np.meshgrid spreads what meshgrid_vjp sums; the
pieces' adjoints joined back into one array), whose own rules are the helpers again;
forward forms: the helper applied to the tangent (a list tangent's zeros of None read as
None by the helpers).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d

# the helpers whose result, or whose argument, is a list adjoint (runtime_helpers.py
# registers them as such: a name bound to one is accumulated with `add`)
SEQUENCE_MAKERS = (runtime.meshgrid_vjp_vjp,)
SEQUENCE_PARAMS = {
    runtime.meshgrid_vjp: ("g",),
    runtime.unvectorized_vjp: ("h",),
    runtime.unalong_axis_vjp: ("h",),
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _grids(adjoint, tangent)

    @adjoint(runtime.unvectorized, constant=("results",))
    def unvectorized(result, g, results):
        d[g] = runtime.unvectorized_vjp(d[result], g, results)

    @tangent(runtime.unvectorized)
    def unvectorized_tangent(result, g, results):
        d[result] = runtime.unvectorized(d[g], results)

    @adjoint(runtime.unvectorized_vjp, constant=("g", "results"))
    def unvectorized_vjp(result, h, g, results):
        d[h] = runtime.unvectorized(d[result], results)

    @tangent(runtime.unvectorized_vjp)
    def unvectorized_vjp_tangent(result, h, g, results):
        d[result] = runtime.unvectorized_vjp(runtime.no_object_zero(d[h]), g, results)

    @adjoint(runtime.unalong_axis, constant=("results", "a", "axis"))
    def unalong_axis(result, g, results, a, axis):
        d[g] = runtime.unalong_axis_vjp(d[result], g, results, a, axis)

    @tangent(runtime.unalong_axis)
    def unalong_axis_tangent(result, g, results, a, axis):
        d[result] = runtime.unalong_axis(d[g], results, a, axis)

    @adjoint(runtime.unalong_axis_vjp, constant=("g", "results", "a", "axis"))
    def unalong_axis_vjp(result, h, g, results, a, axis):
        d[h] = runtime.unalong_axis(d[result], results, a, axis)

    @tangent(runtime.unalong_axis_vjp)
    def unalong_axis_vjp_tangent(result, h, g, results, a, axis):
        d[result] = runtime.unalong_axis_vjp(runtime.no_object_zero(d[h]), g, results, a, axis)

    @adjoint(runtime.unrows_along, constant=("a", "axis"))
    def unrows_along(result, g, a, axis):
        d[g] = runtime.rows_along(d[result], axis)

    @tangent(runtime.unrows_along)
    def unrows_along_tangent(result, g, a, axis):
        d[result] = runtime.unrows_along(runtime.no_object_zero(d[g]), a, axis)


def _grids(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.meshgrid_vjp, constant=("i", "xs", "indexing"))
    def meshgrid_vjp(result, g, i, xs, indexing):
        d[g] = runtime.meshgrid_vjp_vjp(d[result], g, i, xs, indexing)

    @tangent(runtime.meshgrid_vjp)
    def meshgrid_vjp_tangent(result, g, i, xs, indexing):
        d[result] = runtime.meshgrid_vjp(runtime.no_object_zero(d[g]), i, xs, indexing)

    @adjoint(runtime.meshgrid_vjp_vjp, constant=("g", "i", "xs", "indexing"))
    def meshgrid_vjp_vjp(result, h, g, i, xs, indexing):
        d[h] = runtime.meshgrid_vjp(d[result], i, xs, indexing)

    @tangent(runtime.meshgrid_vjp_vjp)
    def meshgrid_vjp_vjp_tangent(result, h, g, i, xs, indexing):
        d[result] = runtime.meshgrid_vjp_vjp(d[h], g, i, xs, indexing)

    # np.meshgrid's forward form (reverse over forward): linear in the slots jointly
    @adjoint(runtime.meshgrid_of, constant=("copy", "sparse", "indexing"))
    def meshgrid_of(
        result,
        x0,
        x1=None,
        x2=None,
        x3=None,
        x4=None,
        x5=None,
        x6=None,
        x7=None,
        copy=True,
        sparse=False,
        indexing="xy",
    ):
        d[x0] = runtime.meshgrid_vjp(d[result], 0, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x1] = runtime.meshgrid_vjp(d[result], 1, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x2] = runtime.meshgrid_vjp(d[result], 2, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x3] = runtime.meshgrid_vjp(d[result], 3, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x4] = runtime.meshgrid_vjp(d[result], 4, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x5] = runtime.meshgrid_vjp(d[result], 5, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x6] = runtime.meshgrid_vjp(d[result], 6, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)
        d[x7] = runtime.meshgrid_vjp(d[result], 7, (x0, x1, x2, x3, x4, x5, x6, x7), indexing)

    @tangent(runtime.meshgrid_of)
    def meshgrid_of_tangent(
        result,
        x0,
        x1=None,
        x2=None,
        x3=None,
        x4=None,
        x5=None,
        x6=None,
        x7=None,
        copy=True,
        sparse=False,
        indexing="xy",
    ):
        d[result] = runtime.meshgrid_of(
            d[x0], d[x1], d[x2], d[x3], d[x4], d[x5], d[x6], d[x7], copy, sparse, indexing
        )
