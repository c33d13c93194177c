"""Second-order rules of the adjoint helpers of NumPy's picks, casts and cuts: np.select,
np.take, np.take_along_axis, astype (np.full's fill value too) and np.split and its
kin (registered by rules/runtime_helpers.py beside its other runtime rules).

Each helper is linear in the adjoint it takes (`g`) and reads its other arguments for
their shapes, dtypes, truth values or positions only (constant): the reverse form is
the transposed map, the forward form the helper applied to g's tangent.

- select_vjp(g, condlist, choicelist, default): g cut by the first true condition into
  the choices' and the default's pieces; transposed by runtime.select_vjp_vjp (linear
  in the pieces' adjoints, transposed by select_vjp: third order). Its result is a
  pair whose first part is a list adjoint (SEQUENCE_MAKERS).
- untake(g, a, indices, axis, mode), untake_along_axis(g, arr, indices, axis): g added
  at the indices into zeros shaped like a; transposed by reading there (np.take and
  np.take_along_axis with the same indices, axis and mode).
- uncast(g, x, out): g in x's dtype (its real part where a real x was cast to a
  complex result; zeros for an integer or boolean result): transposed by itself with
  g's own dtype (zeros where the result's values do not move).
- unsplit(g, pieces, axis): the pieces' adjoints (None: zero) joined along axis;
  transposed by cutting into the pieces' lengths (runtime.unconcatenate).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .template import d

# the helpers whose result, or whose argument, is a list adjoint (runtime_helpers.py
# registers them as such: a name bound to one is accumulated with `add`)
SEQUENCE_MAKERS = (runtime.select_vjp,)
SEQUENCE_PARAMS = {runtime.select_vjp_vjp: ("h",), runtime.unsplit: ("g",)}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.select_vjp, constant=("condlist", "choicelist", "default"))
    def select_vjp(result, g, condlist, choicelist, default):
        d[g] = runtime.select_vjp_vjp(d[result], g, condlist, choicelist, default)

    @tangent(runtime.select_vjp)
    def select_vjp_tangent(result, g, condlist, choicelist, default):
        d[result] = runtime.select_vjp(d[g], condlist, choicelist, default)

    @adjoint(runtime.select_vjp_vjp, constant=("g", "condlist", "choicelist", "default"))
    def select_vjp_vjp(result, h, g, condlist, choicelist, default):
        d[h] = runtime.select_vjp(d[result], condlist, choicelist, default)

    @tangent(runtime.select_vjp_vjp)
    def select_vjp_vjp_tangent(result, h, g, condlist, choicelist, default):
        d[result] = runtime.select_vjp_vjp(
            runtime.no_object_zero(d[h]), g, condlist, choicelist, default
        )

    @adjoint(runtime.untake, constant=("a", "indices", "axis", "mode"))
    def untake(result, g, a, indices, axis, mode):
        d[g] = runtime.unbroadcast(np.take(d[result], indices, axis, mode=mode), g)

    @tangent(runtime.untake)
    def untake_tangent(result, g, a, indices, axis, mode):
        d[result] = runtime.untake(d[g], a, indices, axis, mode)

    @adjoint(runtime.untake_along_axis, constant=("arr", "indices", "axis"))
    def untake_along_axis(result, g, arr, indices, axis):
        d[g] = runtime.unbroadcast(np.take_along_axis(d[result], indices, axis), g)

    @tangent(runtime.untake_along_axis)
    def untake_along_axis_tangent(result, g, arr, indices, axis):
        d[result] = runtime.untake_along_axis(d[g], arr, indices, axis)

    @adjoint(runtime.uncast, constant=("x", "out"))
    def uncast(result, g, x, out):
        d[g] = runtime.uncast(d[result], g, out)

    @tangent(runtime.uncast)
    def uncast_tangent(result, g, x, out):
        d[result] = runtime.uncast(d[g], x, out)

    @adjoint(runtime.unsplit, constant=("pieces", "axis"))
    def unsplit(result, g, pieces, axis):
        d[g] = runtime.unconcatenate(d[result], pieces, axis)

    @tangent(runtime.unsplit)
    def unsplit_tangent(result, g, pieces, axis):
        d[result] = runtime.unsplit(runtime.no_object_zero(d[g]), pieces, axis)
