"""numba implementations of the forward-mode runtime helpers a compiled jvp calls.

The helpers themselves are runtime/forward.py's functions (their Python meaning is
theirs, used as they are by the Python code around a compiled jvp); `@overload` gives
numba an implementation chosen by the argument types: a number or an array, one
direction (k omitted or None); a list of numbers (`[0.0]` in `np.concatenate(([0.0], q))`)
gets a list of 0.0. Anything else (other containers, k directions) makes numba's
typing fail, reported by the compiled path as a located JitError. Imported only when a
compiled jvp is asked for (it imports numba).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..runtime.forward import tangent_as, zero_tangent
from .kernels import _array, _is_none, _is_number

__all__ = ["tangent_as", "zero_tangent"]


@overload(zero_tangent)
def _zero_tangent(x, k=None):
    if not _is_none(k):
        return None  # k directions: vector mode is not compiled
    if _is_number(x):
        return lambda x, k=None: 0.0
    if _array(x):
        dtype = x.dtype if isinstance(x.dtype, types.Float) else np.float64
        return lambda x, k=None: np.zeros(x.shape, dtype=dtype)
    if isinstance(x, types.List) and _is_number(x.dtype):  # a list of numbers: of 0.0

        def numbers(x, k=None):
            return [0.0 for _ in x]

        return numbers
    return None


@overload(tangent_as)
def _tangent_as(t, value):
    if _is_number(t) and _is_number(value):
        return lambda t, value: t
    if _is_number(t) and _array(value):
        return lambda t, value: np.full(value.shape, t)
    if _array(t) and _array(value) and t.ndim <= value.ndim:
        return lambda t, value: np.broadcast_to(t, value.shape)  # a view: nothing copied
    return None
