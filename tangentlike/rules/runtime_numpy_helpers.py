"""Second-order rules of the bespoke adjoint helpers of NumPy functions that generated
gradients call (registered by rules/runtime_helpers.py, beside its other runtime rules).

Each helper here is linear in the adjoint it maps (`g`) and reads its other arguments
only for their shapes, axes and layout (constant): its reverse form is the transposed
map, its forward form the helper applied to the tangent of `g`.

- unarray (np.array of a list): a reshape, transposed by the reverse reshape;
- undiagonal (np.diagonal): zeros with g on a diagonal, transposed by reading it;
- unrollaxis (np.rollaxis): a permutation of axes, transposed by the rolling itself;
- unstack (np.hstack, vstack, dstack, column_stack): a split, transposed by the join;
- unsum (builtin sum): g given to every item, transposed by adding the items' adjoints;
- linspace_vjp (np.linspace): weights of the samples summed, transposed by spreading.

And sinc_slope (np.sinc's slope, not linear): its derivative is sinc_curvature, whose
own derivative is read through its source (rules/runtime_sources.py).
cumprod_vjp_at_zeros (np.cumprod's gradient where its input holds a zero; cumprod_vjp
without zeros is read through its source): both forms refuse at run time.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.cumprod_vjp_at_zeros, constant=("axis",))
    def cumprod_vjp_at_zeros(result, g, a, product, axis):
        d[g] = runtime.cumprod_zero_refused(d[result])
        d[a] = runtime.cumprod_zero_refused(d[result])
        d[product] = runtime.cumprod_zero_refused(d[result])

    @tangent(runtime.cumprod_vjp_at_zeros)
    def cumprod_vjp_at_zeros_tangent(result, g, a, product, axis):
        d[result] = runtime.cumprod_zero_refused(d[g], d[a], d[product])

    @adjoint(runtime.sinc_slope)
    def sinc_slope(result, x):
        d[x] = d[result] * runtime.sinc_curvature(x)

    @tangent(runtime.sinc_slope)
    def sinc_slope_tangent(result, x):
        d[result] = d[x] * runtime.sinc_curvature(x)

    @adjoint(runtime.unarray, constant=("obj",))
    def unarray(result, g, obj):
        d[g] = np.reshape(d[result], np.shape(g))

    @tangent(runtime.unarray)
    def unarray_tangent(result, g, obj):
        d[result] = runtime.unarray(d[g], obj)

    @adjoint(runtime.undiagonal, constant=("a", "offset", "axis1", "axis2"))
    def undiagonal(result, g, a, offset, axis1, axis2):
        d[g] = runtime.unbroadcast(np.diagonal(d[result], offset, axis1, axis2), g)

    @tangent(runtime.undiagonal)
    def undiagonal_tangent(result, g, a, offset, axis1, axis2):
        d[result] = runtime.undiagonal(d[g], a, offset, axis1, axis2)

    @adjoint(runtime.unrollaxis, constant=("a", "axis", "start"))
    def unrollaxis(result, g, a, axis, start=0):
        d[g] = np.rollaxis(d[result], axis, start)

    @tangent(runtime.unrollaxis)
    def unrollaxis_tangent(result, g, a, axis, start=0):
        d[result] = runtime.unrollaxis(d[g], a, axis, start)

    @adjoint(runtime.unstack, constant=("arrays", "kind"))
    def unstack(result, g, arrays, kind):
        d[g] = runtime.unstack_vjp(d[result], g, arrays, kind)

    @tangent(runtime.unstack)
    def unstack_tangent(result, g, arrays, kind):
        d[result] = runtime.unstack(d[g], arrays, kind)

    @adjoint(runtime.unsum, constant=("iterable", "start"))
    def unsum(result, g, iterable, start=0):
        d[g] = runtime.unsum_vjp(d[result], g, iterable)

    @tangent(runtime.unsum)
    def unsum_tangent(result, g, iterable, start=0):
        d[result] = runtime.unsum(d[g], iterable, start)

    constant = ("arg", "out", "num", "endpoint", "retstep", "axis", "side")

    @adjoint(runtime.linspace_vjp, constant=constant)
    def linspace_vjp(result, g, arg, out, num, endpoint, retstep, axis, side):
        d[g] = runtime.linspace_vjp_vjp(d[result], g, arg, out, num, endpoint, retstep, axis, side)

    @tangent(runtime.linspace_vjp)
    def linspace_vjp_tangent(result, g, arg, out, num, endpoint, retstep, axis, side):
        d[result] = runtime.linspace_vjp(d[g], arg, out, num, endpoint, retstep, axis, side)
