"""Rules for NumPy functions that pick, cast or make values: where, clip, select, sort,
take, astype, array, the constructors whose values move with an argument (full,
arange, linspace), and the two-result elementwise functions (divmod, modf).

Picking and casting are linear in the picked values (the linear kind,
rules/kinds.py); the others state their forward form beside the reverse one.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .kinds import linear
from .registry import Registry
from .template import d


def register(registry: Registry) -> None:
    _picks(registry)
    _casts(registry)
    _constructors(registry)
    _two_results(registry)


def _picks(registry: Registry) -> None:
    # the result is locally constant in the condition (read for its truth values only):
    # a condition that varies (a comparison popped back in a differentiated gradient) is
    # no operand of the derivative
    @linear(registry, np.where, ("x", "y"), constant=("condition",))
    def where(result, condition, x, y):
        d[x] = runtime.unbroadcast(np.where(condition, d[result], 0.0), x)
        d[y] = runtime.unbroadcast(np.where(condition, 0.0, d[result]), y)

    # The bounds' gradient (d[a_min] = unbroadcast(g * ((result != a) & (result == a_min)),
    # a_min), likewise a_max) waits until tests/errors stops using a varied clip bound as
    # its example of a parameter without a derivative.
    @registry.adjoint(np.clip, restriction="gradient only for the clipped array, not the bounds")
    def clip(result, a, a_min=None, a_max=None):
        d[a] = d[result] * (result == a)

    @registry.tangent(np.clip)
    def clip_tangent(result, a, a_min=None, a_max=None):
        d[result] = d[a] * (result == a)

    @linear(registry, np.select, ("choicelist", "default"))
    def select(result, condlist, choicelist, default=0):
        grads = runtime.select_vjp(d[result], condlist, choicelist, default)
        d[choicelist] = grads[0]
        d[default] = grads[1]

    @registry.adjoint(
        np.sort, restriction="ties: each tied entry gets the gradient of one sorted slot"
    )
    def sort(result, a, axis=-1, kind=None, order=None):
        d[a] = runtime.unsort(d[result], a, axis)

    @registry.tangent(np.sort)
    def sort_tangent(result, a, axis=-1, kind=None, order=None):
        d[result] = runtime.sorted_like(d[a], a, axis)

    @registry.adjoint(
        np.partition, restriction="ties: each tied entry gets the gradient of one slot"
    )
    def partition(result, a, kth, axis=-1, kind="introselect", order=None):
        d[a] = runtime.unpartition(d[result], a, result, axis)

    @registry.tangent(np.partition)
    def partition_tangent(result, a, kth, axis=-1, kind="introselect", order=None):
        d[result] = runtime.partitioned_like(d[a], a, result, axis)

    @registry.adjoint(np.imag, restriction="real arguments (zero); complex ones are refused")
    def imag(result, val):
        d[val] = runtime.zero_if_real(d[result], val, "np.imag")

    @registry.tangent(np.imag)
    def imag_tangent(result, val):
        d[result] = runtime.zero_if_real(d[val], val, "np.imag")

    @registry.adjoint(np.angle, restriction="real arguments (zero); complex ones are refused")
    def angle(result, z, deg=False):
        d[z] = runtime.zero_if_real(d[result], z, "np.angle")

    @registry.tangent(np.angle)
    def angle_tangent(result, z, deg=False):
        d[result] = runtime.zero_if_real(d[z], z, "np.angle")

    @linear(registry, np.take, "a", restriction="repeated indices accumulate")
    def take(result, a, indices, axis=None, out=None, mode="raise"):
        d[a] = runtime.untake(d[result], a, indices, axis, mode)

    @linear(registry, np.take_along_axis, "arr", restriction="repeated indices accumulate")
    def take_along_axis(result, arr, indices, axis):
        d[arr] = runtime.untake_along_axis(d[result], arr, indices, axis)


def _casts(registry: Registry) -> None:
    if hasattr(np, "astype"):  # NumPy >= 2.1; x.astype(...) maps here

        @linear(
            registry,
            np.astype,
            "x",
            cast=True,
            restriction="a cast to an integer or boolean type has no gradient",
        )
        def astype(result, x, dtype, copy=True):
            d[x] = runtime.uncast(d[result], x, result)

    @linear(
        registry,
        np.array,
        "object",
        cast=True,
        restriction="of an array or a list of active values",
    )
    def array(result, object, dtype=None, copy=True):
        d[object] = runtime.unarray(d[result], object)

    @linear(registry, np.asarray, "a", cast=True)
    def asarray(result, a, dtype=None):
        d[a] = runtime.unarray(d[result], a)


def _constructors(registry: Registry) -> None:
    @linear(
        registry, np.full, "fill_value", cast=True, constant=("shape", "dtype", "order", "device")
    )
    def full(result, shape, fill_value, dtype=None, order="C", device=None, like=None):
        d[fill_value] = runtime.uncast(
            runtime.unbroadcast(d[result], fill_value), fill_value, result
        )

    @linear(
        registry,
        np.full_like,
        "fill_value",
        cast=True,
        constant=("a", "dtype", "order", "subok", "shape"),
    )
    def full_like(result, a, fill_value, dtype=None, order="K", subok=True, shape=None):
        d[fill_value] = runtime.uncast(
            runtime.unbroadcast(d[result], fill_value), fill_value, result
        )

    # result[i] = start + i * step; stop only decides how many values there are
    @registry.adjoint(np.arange, constant=("stop", "dtype"))
    def arange(result, start, stop=None, step=None, dtype=None):
        d[start] = runtime.arange_vjp(d[result], start, stop, result, 0)
        d[step] = runtime.arange_vjp(d[result], step, stop, result, 2)

    @registry.tangent(np.arange)
    def arange_tangent(result, start, stop=None, step=None, dtype=None):
        if stop is None:  # np.arange(n): start is the count, the values do not move
            d[result] = np.zeros(np.shape(result))
        else:
            steps = np.arange(np.size(result))
            d[result] = runtime.cast_tangent(d[start] + steps * d[step], result)

    # result[k] = start + k / div * (stop - start) along axis: linear in (start, stop)
    @linear(
        registry,
        np.linspace,
        ("start", "stop"),
        cast=True,
        fixed={"dtype": "None"},
        constant=("num", "endpoint", "dtype", "axis"),
    )
    def linspace(result, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
        d[start] = runtime.linspace_vjp(d[result], start, result, num, endpoint, retstep, axis, 0)
        d[stop] = runtime.linspace_vjp(d[result], stop, result, num, endpoint, retstep, axis, 1)


def _two_results(registry: Registry) -> None:
    # (floor_divide, remainder): the quotient is locally constant
    @registry.adjoint(np.divmod, unbroadcast=True)
    def divmod_(result, x, y):
        g = runtime.part(d[result], 1, result[1])
        d[x] = g
        d[y] = -g * result[0]

    @registry.tangent(np.divmod)
    def divmod_tangent(result, x, y):
        d[result] = runtime.quotient_remainder_tangent(d[x] - d[y] * result[0], result)

    # (fractional part, integral part): the integral part is locally constant
    @registry.adjoint(np.modf)
    def modf(result, x):
        d[x] = runtime.part(d[result], 0, result[0])

    @registry.tangent(np.modf)
    def modf_tangent(result, x):
        d[result] = (d[x] * np.ones_like(result[0]), np.zeros_like(result[1]))
