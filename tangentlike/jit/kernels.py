"""Numba versions of the runtime helpers compiled gradients call (lower.KERNELS), and of
the NumPy functions numba has for arrays only (zeros_like, ndim, shape).

Each kernel is a Python function (what it means, for reading and for calls outside
numba) with an `@overload` giving numba an implementation chosen by the argument
types at compile time: a Python number or NumPy scalar, an array, or None (a zero
adjoint). A combination a kernel does not take makes numba's typing fail, which the
compiled path reports as a located JitError. Assumes: real floating-point adjoints;
arrays of at most two dimensions where shapes are reconciled (unbroadcast, sum_to).
Guarantees: each computes what the runtime helper of the same name computes for the
arguments it accepts, and returns a new array where the helper does (add_item copies).
Imports numba: imported only by compiled modules and compiled.py.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..runtime import boundary, broadcast, containers, indexing, numpy_products
from ..runtime import numpy as runtime_numpy

_NUMBER = (types.Number, types.Boolean)


def _is_none(t) -> bool:
    return t is None or isinstance(t, (types.NoneType, types.Omitted))


def _is_number(t) -> bool:
    return isinstance(t, _NUMBER)


def _array(t, ndim: int | None = None) -> bool:
    return isinstance(t, types.Array) and (ndim is None or t.ndim == ndim)


# ---------------------------------------------------------------------------
# the NumPy functions numba takes for arrays only


def zeros_like(x):
    return np.zeros_like(x)


@overload(zeros_like)
def _zeros_like(x):
    if _is_number(x):
        return lambda x: 0.0
    if _array(x):
        return lambda x: np.zeros_like(x)
    return _zero_of_unbound(x, like=True)


def _zero_of_unbound(x, like: bool):
    """The zero adjoint of a variable that may hold None: a value popped where the
    generated code restores a variable unbound before its first assignment. The
    adjoint of such a value is never read (the code before its first assignment cannot
    read it), so an empty array stands for it where it is None."""
    if not isinstance(x, types.Optional):
        return None
    inner = x.type
    if _is_number(inner):
        return lambda x: 0.0
    if not _array(inner):
        return None
    empty = (0,) * inner.ndim
    dtype = inner.dtype if like else np.float64

    def impl(x):
        if x is None:
            return np.zeros(empty, dtype=dtype)
        return np.zeros(x.shape, dtype=dtype)

    return impl


def ndim(x):
    return np.ndim(x)


@overload(ndim)
def _ndim(x):
    if _array(x):
        n = x.ndim
        return lambda x: n
    if _is_number(x):
        return lambda x: 0
    return None


def shape(x):
    return np.shape(x)


@overload(shape)
def _shape(x):
    if _array(x):
        return lambda x: x.shape
    if _is_number(x):
        return lambda x: ()
    return None


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


# ---------------------------------------------------------------------------
# broadcasting undone


sum_to = broadcast.sum_to
unbroadcast = broadcast.unbroadcast


def _reduce_to(g, x):
    """numba implementation of `g` summed down to the shape of array `x` (ndim <= 2)."""
    if g.ndim == x.ndim + 1 and x.ndim == 1:

        def impl(g, x):
            return _same_ndim(g.sum(axis=0), x)

        return impl
    if g.ndim == x.ndim and x.ndim in (1, 2):
        return lambda g, x: _same_ndim(g, x)
    return None


def _same_ndim(g, x):
    return g


@overload(_same_ndim)
def _same_ndim_impl(g, x):
    if g.ndim == 1:

        def impl1(g, x):
            if g.shape[0] == x.shape[0]:
                return g
            out = np.empty(1, dtype=g.dtype)
            out[0] = g.sum()
            return out

        return impl1
    if g.ndim == 2:

        def impl2(g, x):
            if g.shape == x.shape:
                return g
            r = np.ascontiguousarray(g)
            if x.shape[0] == 1 and r.shape[0] != 1:
                r = r.sum(axis=0).reshape((1, r.shape[1]))
            if x.shape[1] == 1 and r.shape[1] != 1:
                r = np.ascontiguousarray(r.sum(axis=1)).reshape((r.shape[0], 1))
            return r

        return impl2
    return None


@overload(unbroadcast)
def _unbroadcast(g, x):
    if _is_none(g):
        return lambda g, x: None
    if _is_number(x):
        if _array(g):
            return lambda g, x: g.sum()
        if _is_number(g):
            return lambda g, x: g
        return None
    if _array(x) and _array(g):
        return _reduce_to(g, x)
    return None


@overload(sum_to)
def _sum_to(g, shape):
    if isinstance(shape, (types.UniTuple, types.Tuple)):
        if len(shape) == 0:
            if _array(g):
                return lambda g, shape: g.sum()
            return lambda g, shape: g
        if _array(g, len(shape)) and len(shape) == 1:

            def impl(g, shape):
                if g.shape[0] == shape[0]:
                    return g
                out = np.empty(1, dtype=g.dtype)
                out[0] = g.sum()
                return out

            return impl
    return None


# ---------------------------------------------------------------------------
# sums of adjoints, products, subscripts


add = containers.add


@overload(add)
def _add(a, b):
    if _is_none(a):
        return lambda a, b: b
    if _is_none(b):
        return lambda a, b: a
    return lambda a, b: a + b


unmul = containers.unmul


@overload(unmul)
def _unmul(g, x, y):
    if _is_none(g):
        return lambda g, x, y: (None, None)
    return lambda g, x, y: (unbroadcast(g * y, x), unbroadcast(g * x, y))


dot_vjp_a = numpy_products.dot_vjp_a
dot_vjp_b = numpy_products.dot_vjp_b


@overload(dot_vjp_a)
def _dot_vjp_a(g, a, b):
    if _is_number(a) or _is_number(b):
        if _is_number(a):
            return lambda g, a, b: np.sum(g * b)
        return lambda g, a, b: g * b
    if _array(a, 1) and _array(b, 1):
        return lambda g, a, b: g * b
    if _array(a, 2) and _array(b, 1):
        return lambda g, a, b: np.outer(g, b)
    if _array(a, 2) and _array(b, 2):
        return lambda g, a, b: np.dot(g, np.ascontiguousarray(b.T))
    return None


@overload(dot_vjp_b)
def _dot_vjp_b(g, a, b):
    if _is_number(a) or _is_number(b):
        if _is_number(b):
            return lambda g, a, b: np.sum(g * a)
        return lambda g, a, b: g * a
    if _array(a, 1) and _array(b, 1):
        return lambda g, a, b: g * a
    if _array(a, 1) and _array(b, 2):
        return lambda g, a, b: np.outer(a, g)
    if _array(a, 2):
        return lambda g, a, b: np.dot(np.ascontiguousarray(a.T), g)
    return None


unsubscript = indexing.unsubscript
add_item = containers.add_item


def _basic_index(index) -> bool:
    """An integer, a slice, or a tuple of them: one element per position, no repeats."""
    if isinstance(index, (types.BaseTuple)):
        return all(_basic_index(i) for i in index.types)
    return isinstance(index, (types.Integer, types.SliceType))


@overload(unsubscript)
def _unsubscript(g, x, index):
    if not (_array(x) and _basic_index(index)):
        return None

    def impl(g, x, index):
        out = np.zeros(x.shape, dtype=np.float64)
        out[index] = g
        return out

    return impl


@overload(add_item)
def _add_item(b, x, index, g):
    if not (_array(x) and _basic_index(index)):
        return None
    if _is_none(g):
        if _is_none(b):
            return lambda b, x, index, g: np.zeros(x.shape, dtype=np.float64)
        return lambda b, x, index, g: b
    if _is_none(b):

        def fresh(b, x, index, g):
            out = np.zeros(x.shape, dtype=np.float64)
            out[index] += g
            return out

        return fresh

    def added(b, x, index, g):
        out = b.copy()
        out[index] += g
        return out

    return added


zeros_of = containers.zeros_of


@overload(zeros_of)
def _zeros_of(x):
    if _is_number(x):
        return lambda x: 0.0
    if _array(x):
        return lambda x: np.zeros(x.shape, dtype=np.float64)
    if _is_none(x):
        return lambda x: None
    return _zero_of_unbound(x, like=False)


undiff = runtime_numpy.undiff


@overload(undiff)
def _undiff(g, a, n, axis):
    if not (_array(g, 1) and _array(a, 1)):
        return None

    def impl(g, a, n, axis):
        for _ in range(n):
            out = np.empty(g.shape[0] + 1, dtype=g.dtype)
            out[0] = -g[0]
            for k in range(1, g.shape[0]):
                out[k] = g[k - 1] - g[k]
            out[g.shape[0]] = g[g.shape[0] - 1]
            g = out
        return g

    return impl


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


seed_like = boundary.seed_like
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
