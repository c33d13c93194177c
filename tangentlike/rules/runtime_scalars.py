"""Second-order rules of math.prod's and math.dist's helpers, of np.arange's adjoint helper
and of the forward-mode helpers of casts, np.einsum and loops (reverse over forward: tl.grad
of a jvp); registered by rules/runtime_helpers.py beside its other rules. Maths in
runtime/higher_scalars.py.

What each helper is, as a function of its arguments (None is zero):
- inner(w, t) = sum_k w_k t_k: bilinear; its transposes are `scaled`, which is bilinear
  too, transposed by inner and itself; negated(parts) = -parts: linear, its own transpose.
- unprod(g, items, start)_k = g start prod_{j != k} items_j: linear in g and start; in
  items its derivative is the symmetric matrix unprod_hessian applies (exact at zeros);
  prod_of(items) = prod items: its gradient is unprod(1, items, 1).
- undist(g, p, q, dist)_k = g (p_k - q_k) / dist (0 at dist == 0, the kink): linear in g,
  in p - q and in 1 / dist; dist (math.dist's result) is an argument of its own, the
  chain through it math.dist's rule.
- arange_vjp(g, arg, stop, result, side): linear in g, the rest read for shapes, dtypes
  and whether the values move; transposed by arange_vjp_vjp, and it by arange_vjp.
- cast_tangent(t, result), iterable_tangent(t, x): linear in t, transposed by
  uncast_tangent and uniterable_tangent (each pair the other's transpose; a projection
  for the second, its own).
- einsum_of(subscripts, x0, ...): np.einsum over the slots in use, whose rule it takes.
Forward forms: the sum over the differentiable arguments of each one's term.

unprod_hessian's own derivative (third order through math.prod) is refused, located.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d

# the helpers whose result, or whose argument, is a list or dict adjoint (runtime_helpers.py
# registers them as such: a name bound to one is accumulated with `add`); with a dict
# comprehension's undict_of_vjp (its rules in runtime_containers.py)
SEQUENCE_MAKERS = (
    runtime.undict_of_vjp,
    runtime.negated,
    runtime.scaled,
    runtime.undist,
    runtime.unprod,
    runtime.unprod_hessian,
    runtime.uncast_tangent,
    runtime.uniterable_tangent,
    runtime.iterable_tangent,
)
SEQUENCE_PARAMS = {
    runtime.undict_of_vjp: ("h",),
    runtime.inner: ("weights", "tangents"),
    runtime.negated: ("parts",),
    runtime.scaled: ("parts",),
    runtime.unprod_hessian: ("h",),
    runtime.uncast_tangent: ("g",),
    runtime.uniterable_tangent: ("g",),
    runtime.iterable_tangent: ("t",),
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _sums(adjoint, tangent)
    _products(adjoint, tangent)
    _tangents(adjoint, tangent)


def _sums(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.inner)
    def inner(result, weights, tangents):
        d[weights] = runtime.scaled(d[result], tangents, weights)
        d[tangents] = runtime.scaled(d[result], weights, tangents)

    @tangent(runtime.inner)
    def inner_tangent(result, weights, tangents):
        d[result] = runtime.inner(d[weights], tangents) + runtime.inner(weights, d[tangents])

    @adjoint(runtime.scaled, constant=("like",))
    def scaled(result, s, parts, like=None):
        d[s] = runtime.inner(parts, d[result])
        d[parts] = runtime.scaled(s, d[result], parts)

    @tangent(runtime.scaled)
    def scaled_tangent(result, s, parts, like=None):
        d[result] = runtime.add(
            runtime.scaled(d[s], parts, like), runtime.scaled(s, d[parts], like)
        )

    @adjoint(runtime.negated)
    def negated(result, parts):
        d[parts] = runtime.negated(d[result])

    @tangent(runtime.negated)
    def negated_tangent(result, parts):
        d[result] = runtime.negated(d[parts])

    @adjoint(runtime.ratio_or_zero)
    def ratio_or_zero(result, g, r):
        d[g] = runtime.ratio_or_zero(d[result], r)
        d[r] = -runtime.ratio_or_zero(d[result] * runtime.ratio_or_zero(g, r), r)

    @tangent(runtime.ratio_or_zero)
    def ratio_or_zero_tangent(result, g, r):
        d[result] = runtime.ratio_or_zero(d[g], r) - runtime.ratio_or_zero(
            d[r] * runtime.ratio_or_zero(g, r), r
        )


def _products(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.prod_of)
    def prod_of(result, items):
        d[items] = runtime.unprod(d[result], items, 1)

    @tangent(runtime.prod_of)
    def prod_of_tangent(result, items):
        d[result] = runtime.inner(runtime.unprod(1.0, items, 1), d[items])

    @adjoint(runtime.unprod)
    def unprod(result, g, items, start=1):
        d[g] = runtime.inner(runtime.unprod(1.0, items, start), d[result])
        d[items] = runtime.unprod_hessian(d[result], g, items, start)
        d[start] = runtime.inner(runtime.unprod(g, items, 1), d[result])

    @tangent(runtime.unprod)
    def unprod_tangent(result, g, items, start=1):
        d[result] = runtime.add(
            runtime.add(
                runtime.unprod(d[g], items, start),
                runtime.unprod_hessian(d[items], g, items, start),
            ),
            runtime.unprod(g * d[start], items, 1),
        )

    @adjoint(runtime.undist)
    def undist(result, g, p, q, dist):
        d[g] = runtime.inner(runtime.undist(1.0, p, q, dist), d[result])
        d[p] = runtime.scaled(runtime.ratio_or_zero(g, dist), d[result], p)
        d[q] = runtime.negated(runtime.scaled(runtime.ratio_or_zero(g, dist), d[result], q))
        d[dist] = -runtime.ratio_or_zero(
            runtime.inner(runtime.undist(g, p, q, dist), d[result]), dist
        )

    @tangent(runtime.undist)
    def undist_tangent(result, g, p, q, dist):
        d[result] = runtime.add(
            runtime.add(
                runtime.undist(d[g], p, q, dist),
                runtime.scaled(
                    runtime.ratio_or_zero(g, dist), runtime.add(d[p], runtime.negated(d[q])), p
                ),
            ),
            runtime.scaled(-runtime.ratio_or_zero(d[dist], dist), runtime.undist(g, p, q, dist)),
        )


def _tangents(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.arange_vjp, constant=("arg", "stop", "values", "side"))
    def arange_vjp(result, g, arg, stop, values, side):
        d[g] = runtime.arange_vjp_vjp(d[result], arg, stop, values, side)

    @tangent(runtime.arange_vjp)
    def arange_vjp_tangent(result, g, arg, stop, values, side):
        d[result] = runtime.arange_vjp(d[g], arg, stop, values, side)

    @adjoint(runtime.arange_vjp_vjp, constant=("arg", "stop", "values", "side"))
    def arange_vjp_vjp(result, h, arg, stop, values, side):
        d[h] = runtime.arange_vjp(d[result], arg, stop, values, side)

    @tangent(runtime.arange_vjp_vjp)
    def arange_vjp_vjp_tangent(result, h, arg, stop, values, side):
        d[result] = runtime.arange_vjp_vjp(d[h], arg, stop, values, side)

    @adjoint(runtime.cast_tangent, constant=("like",))
    def cast_tangent(result, t, like):
        d[t] = runtime.uncast_tangent(d[result], t, like)

    @tangent(runtime.cast_tangent)
    def cast_tangent_tangent(result, t, like):
        d[result] = runtime.cast_tangent(d[t], like)

    @adjoint(runtime.uncast_tangent, constant=("t", "like"))
    def uncast_tangent(result, g, t, like):
        d[g] = runtime.cast_tangent(d[result], like)

    @tangent(runtime.uncast_tangent)
    def uncast_tangent_tangent(result, g, t, like):
        d[result] = runtime.uncast_tangent(d[g], t, like)

    @adjoint(runtime.iterable_tangent, constant=("x",))
    def iterable_tangent(result, t, x):
        d[t] = runtime.uniterable_tangent(d[result], x)

    @tangent(runtime.iterable_tangent)
    def iterable_tangent_tangent(result, t, x):
        d[result] = runtime.iterable_tangent(d[t], x)

    @adjoint(runtime.uniterable_tangent, constant=("x",))
    def uniterable_tangent(result, g, x):
        d[g] = runtime.uniterable_tangent(d[result], x)

    @tangent(runtime.uniterable_tangent)
    def uniterable_tangent_tangent(result, g, x):
        d[result] = runtime.uniterable_tangent(d[g], x)

    _einsum_of(adjoint, tangent)


def _einsum_of(adjoint: Callable, tangent: Callable) -> None:
    @adjoint(runtime.einsum_of, constant=("subscripts", "optimize"))
    def einsum_of(
        result, subscripts, x0, x1=None, x2=None, x3=None, x4=None, x5=None, optimize=False
    ):
        d[x0] = runtime.einsum_vjp(d[result], subscripts, 0, x0, x1, x2, x3, x4, x5)
        d[x1] = runtime.einsum_vjp(d[result], subscripts, 1, x0, x1, x2, x3, x4, x5)
        d[x2] = runtime.einsum_vjp(d[result], subscripts, 2, x0, x1, x2, x3, x4, x5)
        d[x3] = runtime.einsum_vjp(d[result], subscripts, 3, x0, x1, x2, x3, x4, x5)
        d[x4] = runtime.einsum_vjp(d[result], subscripts, 4, x0, x1, x2, x3, x4, x5)
        d[x5] = runtime.einsum_vjp(d[result], subscripts, 5, x0, x1, x2, x3, x4, x5)

    @tangent(runtime.einsum_of)
    def einsum_of_tangent(
        result, subscripts, x0, x1=None, x2=None, x3=None, x4=None, x5=None, optimize=False
    ):
        d[result] = (
            runtime.einsum_of(subscripts, d[x0], x1, x2, x3, x4, x5, optimize)
            + runtime.einsum_of(subscripts, x0, d[x1], x2, x3, x4, x5, optimize)
            + runtime.einsum_of(subscripts, x0, x1, d[x2], x3, x4, x5, optimize)
            + runtime.einsum_of(subscripts, x0, x1, x2, d[x3], x4, x5, optimize)
            + runtime.einsum_of(subscripts, x0, x1, x2, x3, d[x4], x5, optimize)
            + runtime.einsum_of(subscripts, x0, x1, x2, x3, x4, d[x5], optimize)
        )
