"""numba versions of the runtime helpers compiled gradients call (context.KERNELS), and
of NumPy functions numba lacks or has for arrays only (zeros_like, ndim, shape, ...).

Each kernel is a Python function (what it means, in NumPy) with an `@overload` giving
numba an implementation chosen by the argument types at compile time: a number, an
array, or None (a zero adjoint). A combination a kernel does not take makes numba's
typing fail, which the compiled path reports as a located JitError. Assumes: real
adjoints; arrays of at most two dimensions where shapes are reconciled. Guarantees:
each computes what the runtime helper of the same name computes for the arguments it
accepts, and returns a new array where the helper does (add_item copies). Imports
NumPy and numba only: a module written by `tangentlike grad --jit` carries this text.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import types
from numba.extending import overload

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


def truth(x):
    """`bool(x)`, for a value that may be None (a saved flag or value restored before
    its first assignment: False)."""
    return x is not None and bool(x)


@overload(truth)
def _truth(x):
    if isinstance(x, types.Optional) and _is_number(x.type):

        def maybe(x):
            if x is None:
                return False
            return x != 0

        return maybe
    if _is_number(x):
        return lambda x: x != 0
    return None


@overload(operator.getitem)
def _range_item(r, k):
    """`range(...)[k]`, which numba lacks (a loop with break walks its range by index)."""
    if not (isinstance(r, types.RangeType) and isinstance(k, types.Integer)):
        return None

    def impl(r, k):
        n = len(r)
        if k < 0:
            k += n
        if k < 0 or k >= n:
            raise IndexError("range object index out of range")
        return r.start + k * r.step

    return impl


# ---------------------------------------------------------------------------
# broadcasting undone


def sum_to(g, shape):
    """`g` summed down to `shape` (over leading axes, and where `shape` has 1)."""
    g = np.asarray(g)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


def unbroadcast(g, x):
    """The adjoint `g` summed down to the shape of `x` (broadcasting undone)."""
    return sum_to(g, np.shape(x))


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


def add(a, b):
    """The sum of two adjoints, None being zero."""
    return b if a is None else a if b is None else a + b


@overload(add)
def _add(a, b):
    if _is_none(a):
        return lambda a, b: b
    if _is_none(b):
        return lambda a, b: a
    return lambda a, b: a + b


def unmul(g, x, y):
    """The adjoints of x and y in `x * y`."""
    return (None, None) if g is None else (unbroadcast(g * y, x), unbroadcast(g * x, y))


@overload(unmul)
def _unmul(g, x, y):
    if _is_none(g):
        return lambda g, x, y: (None, None)
    return lambda g, x, y: (unbroadcast(g * y, x), unbroadcast(g * x, y))


def dot_vjp_a(g, a, b):
    """The adjoint of `a` in `np.dot(a, b)` (operands of at most two dimensions)."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return g * b if np.ndim(a) else np.sum(g * b)
    if np.ndim(b) == 1:
        return g * b if np.ndim(a) == 1 else np.outer(g, b)
    return np.dot(g, np.transpose(b))


def dot_vjp_b(g, a, b):
    """The adjoint of `b` in `np.dot(a, b)` (operands of at most two dimensions)."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return g * a if np.ndim(b) else np.sum(g * a)
    if np.ndim(a) == 1:
        return g * a if np.ndim(b) == 1 else np.outer(a, g)
    return np.dot(np.transpose(a), g)


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


def matmul_vjp_a(g, a, b):
    """The adjoint of `a` in `a @ b` (vectors and matrices)."""
    if np.ndim(b) == 1:
        return g * b if np.ndim(a) == 1 else np.outer(g, b)
    return np.dot(b, g) if np.ndim(a) == 1 else np.dot(g, np.transpose(b))


def matmul_vjp_b(g, a, b):
    """The adjoint of `b` in `a @ b` (vectors and matrices)."""
    if np.ndim(a) == 1:
        return g * a if np.ndim(b) == 1 else np.outer(a, g)
    return np.dot(np.transpose(a), g)


@overload(matmul_vjp_a)
def _matmul_vjp_a(g, a, b):
    if _array(a, 1) and _array(b, 1):
        return lambda g, a, b: g * b
    if _array(a, 2) and _array(b, 1) and _array(g, 1):
        return lambda g, a, b: np.outer(g, b)
    if _array(a, 1) and _array(b, 2) and _array(g, 1):
        return lambda g, a, b: np.dot(np.ascontiguousarray(b), np.ascontiguousarray(g))
    if _array(a, 2) and _array(b, 2) and _array(g, 2):
        return lambda g, a, b: np.dot(np.ascontiguousarray(g), np.ascontiguousarray(b.T))
    return None


@overload(matmul_vjp_b)
def _matmul_vjp_b(g, a, b):
    if _array(a, 1) and _array(b, 1):
        return lambda g, a, b: g * a
    if _array(a, 1) and _array(b, 2) and _array(g, 1):
        return lambda g, a, b: np.outer(a, g)
    if _array(a, 2) and _array(b, 1) and _array(g, 1):
        return lambda g, a, b: np.dot(np.ascontiguousarray(a.T), np.ascontiguousarray(g))
    if _array(a, 2) and _array(b, 2) and _array(g, 2):
        return lambda g, a, b: np.dot(np.ascontiguousarray(a.T), np.ascontiguousarray(g))
    return None


def unsubscript(g, x, index):
    """The adjoint of `x[index]` (an integer or a slice): zeros shaped like x, g at index."""
    out = np.zeros(np.shape(x))
    out[index] = g
    return out


def add_item(b, x, index, g):
    """`b` plus the adjoint `g` of the read `x[index]`, as a new array."""
    out = np.zeros(np.shape(x)) if b is None else np.array(b, dtype=float)
    if g is not None:
        out[index] += g
    return out


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


def add_item_inplace(b, x, index, g):
    """`add_item` writing into `b` (inplace.py decides when no other name sees it)."""
    if b is None:
        b = np.zeros(np.shape(x))
    if g is not None:
        b[index] += g
    return b


@overload(add_item_inplace)
def _add_item_inplace(b, x, index, g):
    if not (_array(x) and _basic_index(index)) or _is_none(g):
        return None
    if _is_none(b):

        def fresh(b, x, index, g):
            out = np.zeros(x.shape, dtype=np.float64)
            out[index] += g
            return out

        return fresh
    if not _array(b):
        return None

    def into(b, x, index, g):
        b[index] += g
        return b

    return into


def zeros_of(x):
    """The zero adjoint of `x` (None for None)."""
    return None if x is None else np.zeros(np.shape(x))


@overload(zeros_of)
def _zeros_of(x):
    if _is_number(x):
        return lambda x: 0.0
    if _array(x):
        return lambda x: np.zeros(x.shape, dtype=np.float64)
    if _is_none(x):
        return lambda x: None
    return _zero_of_unbound(x, like=False)


def undiff(g, a, n, axis):
    """The adjoint of `np.diff(a, n, axis)` for a vector `a`."""
    for _ in range(n):
        g = -np.diff(np.pad(g, 1))
    return g


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
