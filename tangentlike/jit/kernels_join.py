"""numba kernels for joining and splitting tuples whose parts may be lists of numbers
(np.concatenate and its adjoint), np.sum(x, axis=None, keepdims=True), the vjp seed
check and the check that `x.copy()` is np.copy: the same contract as kernels.py, which
holds the type tests they share.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .kernels import _array, _is_number


def copies_array(x, what):
    """The check that `x.copy()` is np.copy: an array or a number passes."""
    return None


@overload(copies_array)
def _copies_array(x, what):
    if _is_number(x) or _array(x):
        return lambda x, what: None

    def refuse(x, what):
        raise TypeError("tangentlike: .copy() of a value that is not an array (np.copy)")

    return refuse


def sum_keepdims(x):
    """`np.sum(x, axis=None, keepdims=True)`: the total, with x's dimensions all 1."""
    return np.sum(x, axis=None, keepdims=True)


@overload(sum_keepdims)
def _sum_keepdims(x):
    if _array(x):
        ones = (1,) * x.ndim
        return lambda x: np.full(ones, x.sum())
    if _is_number(x):
        return lambda x: x
    return None


def sum_axis_keepdims(x, axis):
    """`np.sum(x, axis=axis, keepdims=True)` of a matrix, axis an int."""
    return np.sum(x, axis=axis, keepdims=True)


def max_axis_keepdims(x, axis):
    """`np.max(x, axis=axis, keepdims=True)` of a matrix, axis an int."""
    return np.max(x, axis=axis, keepdims=True)


def _matrix_reduction(x, largest: bool):
    """A numba implementation of a reduction (the sum, or with `largest` the max) of a
    matrix along an axis, kept 2-D."""
    if not _array(x, 2):
        return None
    # NumPy's dtypes: a sum of booleans or integers counts in int64
    float_like = isinstance(x.dtype, types.Float)
    dtype = np.int64 if not (largest or float_like) else np.dtype(str(x.dtype)).type

    def impl(x, axis):
        if axis == 1 or axis == -1:
            out = np.empty((x.shape[0], 1), dtype=dtype)
            for i in range(x.shape[0]):
                out[i, 0] = np.max(x[i, :]) if largest else np.sum(x[i, :])
            return out
        if axis == 0 or axis == -2:
            out = np.empty((1, x.shape[1]), dtype=dtype)
            for j in range(x.shape[1]):
                out[0, j] = np.max(x[:, j]) if largest else np.sum(x[:, j])
            return out
        raise ValueError("axis out of range for a matrix")

    return impl


@overload(sum_axis_keepdims)
def _sum_axis_keepdims(x, axis):
    return _matrix_reduction(x, largest=False)


@overload(max_axis_keepdims)
def _max_axis_keepdims(x, axis):
    return _matrix_reduction(x, largest=True)


# ---------------------------------------------------------------------------
# joining and splitting: tuples whose parts may be lists of numbers


def concatenate(parts):
    """`np.concatenate(parts)` (axis 0), where parts may be lists of numbers."""
    return np.concatenate(parts)


def _as_array(x):
    return np.asarray(x)


@overload(_as_array)
def _as_array_impl(x):
    if _array(x):
        return lambda x: x
    if isinstance(x, (types.List, types.UniTuple)):
        return lambda x: np.asarray(x, dtype=np.float64)
    return None


def _length(x):
    return len(x)


@overload(_length)
def _length_impl(x):
    if _array(x):
        return lambda x: x.shape[0]
    if isinstance(x, (types.List, types.BaseTuple)):
        return lambda x: len(x)
    return None


def _unrolled(params: str, lines: list[str]) -> object:
    """The function `impl(<params>)` whose body is `lines`: a kernel written out for a
    tuple of a given length (its parts indexed by constants, so each has its own type)."""
    namespace = {"np": np, "_as_array": _as_array, "_length": _length}
    exec("\n".join([f"def impl({params}):", *lines]), namespace)
    return namespace["impl"]


@overload(concatenate)
def _concatenate(parts):
    if not isinstance(parts, types.BaseTuple) or not len(parts):
        return None
    n = len(parts)
    items = ", ".join(f"_as_array(parts[{j}])" for j in range(n))
    return _unrolled("parts", [f"    return np.concatenate(({items},))"])


def split_like(g, parts, axis):
    """`g` cut along `axis` into pieces as long as `parts` (the adjoint of concatenating
    them): `np.split(g, np.cumsum([len(p) for p in parts])[:-1], axis)` for axis 0."""
    cuts = np.cumsum([np.shape(p)[0] for p in parts])[:-1]
    return tuple(np.split(g, cuts, axis))


@overload(split_like)
def _split_like(g, parts, axis):
    if not (_array(g) and isinstance(parts, types.BaseTuple)):
        return None
    n = len(parts)
    body = ["    k0 = 0"]
    body += [f"    k{j + 1} = k{j} + _length(parts[{j}])" for j in range(n)]
    body.append("    if axis != 0:")
    body.append("        raise ValueError('tangentlike: split_like compiled for axis 0 only')")
    body.append("    return (" + ", ".join(f"g[k{j}:k{j + 1}]" for j in range(n)) + ",)")
    return _unrolled("g, parts, axis", body)


# ---------------------------------------------------------------------------
# the vjp seed, checked against the output


def seed_like(seed, out, where):
    """The vjp seed, checked to have the output's shape; floating point."""
    if np.shape(seed) != np.shape(out):
        raise ValueError(_SEED_SHAPE)
    return seed * 1.0


_SEED_SHAPE = (
    "tangentlike: vjp: the seed's shape is not the output's\n"
    "What to do: pass a seed of the output's shape (the Python adjoint, without jit=, "
    "names both)."
)


@overload(seed_like)
def _seed_like(seed, out, where):
    if _is_number(out) and _is_number(seed):
        return lambda seed, out, where: float(seed)
    if _array(out) and _array(seed) and seed.ndim == out.ndim:

        def impl(seed, out, where):
            if seed.shape != out.shape:
                raise ValueError(_SEED_SHAPE)
            return seed * 1.0  # a copy, floating point

        return impl
    if _array(out) != _array(seed):

        def mismatch(seed, out, where):
            raise ValueError(_SEED_SHAPE)

        return mismatch
    return None
