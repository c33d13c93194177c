"""Rules for NumPy's shape functions: reshape, transpose, concatenate, split, flip, pad, ...

Each is linear in its array (or its list of arrays): written with the linear kind
(rules/kinds.py), its forward form is the function applied to the tangent; the
reverse form is the template.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .kinds import linear
from .registry import Registry
from .template import d


def register(registry: Registry) -> None:
    _reshapes(registry)
    _joins(registry)
    _splits(registry)
    _grids(registry)
    _rearrangements(registry)
    _diagonals(registry)


def _reshapes(registry: Registry) -> None:
    @linear(registry, np.reshape, "a")
    def reshape(result, a, shape=None, order="C"):
        d[a] = np.reshape(d[result], np.shape(a), order=order)

    @linear(registry, np.ravel, "a")
    def ravel(result, a, order="C"):
        d[a] = np.reshape(d[result], np.shape(a), order=order)

    @linear(registry, np.squeeze, "a")
    def squeeze(result, a, axis=None):
        d[a] = np.reshape(d[result], np.shape(a))

    @linear(registry, np.expand_dims, "a")
    def expand_dims(result, a, axis):
        d[a] = np.reshape(d[result], np.shape(a))

    def atleast(result, a):
        d[a] = np.reshape(d[result], np.shape(a))

    for func in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
        linear(registry, func, "a", restriction="one array (several give a tuple)")(atleast)

    @linear(registry, np.copy, "a")
    def copy(result, a, order="K"):
        d[a] = d[result]

    @linear(registry, np.broadcast_to, "array")
    def broadcast_to(result, array, shape):
        d[array] = runtime.unbroadcast(d[result], array)


def _joins(registry: Registry) -> None:
    @linear(registry, np.concatenate, "arrays")
    def concatenate(result, arrays, axis=0):
        d[arrays] = runtime.unconcatenate(d[result], arrays, axis)

    @linear(registry, np.stack, "arrays")
    def stack(result, arrays, axis=0):
        d[arrays] = list(np.moveaxis(d[result], axis, 0))

    @linear(registry, np.hstack, "tup")
    def hstack(result, tup):
        d[tup] = runtime.unstack(d[result], tup, "h")

    @linear(registry, np.vstack, "tup")
    def vstack(result, tup):
        d[tup] = runtime.unstack(d[result], tup, "v")

    if hasattr(np, "row_stack"):  # NumPy < 2.5: vstack's deprecated alias

        @linear(registry, np.row_stack, "tup")
        def row_stack(result, tup, dtype=None, casting="same_kind"):
            d[tup] = runtime.unstack(d[result], tup, "v")

        registry.sequence_params({np.row_stack: ("tup",)})
        registry.array_makers([np.row_stack])

    @linear(registry, np.dstack, "tup")
    def dstack(result, tup):
        d[tup] = runtime.unstack(d[result], tup, "d")

    @linear(registry, np.column_stack, "tup")
    def column_stack(result, tup):
        d[tup] = runtime.unstack(d[result], tup, "column")

    @linear(registry, np.append, ("arr", "values"))
    def append(result, arr, values, axis=None):
        if axis is None:
            d[arr] = np.reshape(d[result][: np.size(arr)], np.shape(arr))
            d[values] = np.reshape(d[result][np.size(arr) :], np.shape(values))
        else:
            d[arr] = np.split(d[result], [np.shape(arr)[axis]], axis)[0]
            d[values] = np.split(d[result], [np.shape(arr)[axis]], axis)[1]

    @linear(
        registry,
        np.pad,
        "array",
        fixed={"constant_values": None},  # an offset: the tangent pads with zeros
        restriction="modes constant, edge, reflect, symmetric, wrap; not constant_values",
    )
    def pad(result, array, pad_width, mode="constant", constant_values=0):
        d[array] = runtime.unpad(d[result], array, pad_width, mode)

    @linear(registry, np.tile, "A")
    def tile(result, A, reps):
        d[A] = runtime.untile(d[result], A, reps)

    @linear(registry, np.repeat, "a")
    def repeat(result, a, repeats, axis=None):
        d[a] = runtime.unrepeat(d[result], a, repeats, axis)


def _grids(registry: Registry) -> None:
    # Rule parameters are fixed, so meshgrid takes up to eight arrays (None: left out).
    @linear(
        registry,
        np.meshgrid,
        ("x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"),
        via=runtime.meshgrid_of,
        keywords=("copy", "sparse", "indexing"),
        restriction="up to 8 arrays",
    )
    def meshgrid(
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


def _splits(registry: Registry) -> None:
    @linear(registry, np.split, "ary")
    def split(result, ary, indices_or_sections, axis=0):
        d[ary] = runtime.unsplit(d[result], result, axis)

    @linear(registry, np.array_split, "ary")
    def array_split(result, ary, indices_or_sections, axis=0):
        d[ary] = runtime.unsplit(d[result], result, axis)

    @linear(registry, np.hsplit, "ary")
    def hsplit(result, ary, indices_or_sections):
        if np.ndim(ary) == 1:
            d[ary] = runtime.unsplit(d[result], result, 0)
        else:
            d[ary] = runtime.unsplit(d[result], result, 1)

    @linear(registry, np.vsplit, "ary")
    def vsplit(result, ary, indices_or_sections):
        d[ary] = runtime.unsplit(d[result], result, 0)

    @linear(registry, np.dsplit, "ary")
    def dsplit(result, ary, indices_or_sections):
        d[ary] = runtime.unsplit(d[result], result, 2)


def _rearrangements(registry: Registry) -> None:
    @linear(registry, np.transpose, "a")
    def transpose(result, a, axes=None):
        if axes is None:
            d[a] = np.transpose(d[result])
        else:
            d[a] = np.transpose(d[result], np.argsort(axes))

    @linear(registry, np.swapaxes, "a")
    def swapaxes(result, a, axis1, axis2):
        d[a] = np.swapaxes(d[result], axis1, axis2)

    @linear(registry, np.moveaxis, "a")
    def moveaxis(result, a, source, destination):
        d[a] = np.moveaxis(d[result], destination, source)

    @linear(registry, np.rollaxis, "a")
    def rollaxis(result, a, axis, start=0):
        d[a] = runtime.unrollaxis(d[result], a, axis, start)

    @linear(registry, np.fft.fftshift, "x")
    def fftshift(result, x, axes=None):
        d[x] = np.fft.ifftshift(d[result], axes)

    @linear(registry, np.fft.ifftshift, "x")
    def ifftshift(result, x, axes=None):
        d[x] = np.fft.fftshift(d[result], axes)

    @linear(registry, np.flip, "m")
    def flip(result, m, axis=None):
        d[m] = np.flip(d[result], axis)

    @linear(registry, np.fliplr, "m")
    def fliplr(result, m):
        d[m] = np.fliplr(d[result])

    @linear(registry, np.flipud, "m")
    def flipud(result, m):
        d[m] = np.flipud(d[result])

    @linear(registry, np.roll, "a")
    def roll(result, a, shift, axis=None):
        d[a] = np.roll(d[result], np.negative(shift), axis)

    @linear(registry, np.rot90, "m")
    def rot90(result, m, k=1, axes=(0, 1)):
        d[m] = np.rot90(d[result], -k, axes)

    if hasattr(np, "matrix_transpose"):  # NumPy >= 2.0

        @linear(registry, np.matrix_transpose, "x")
        def matrix_transpose(result, x):
            d[x] = np.swapaxes(d[result], -1, -2)

        @linear(registry, np.permute_dims, "a")
        def permute_dims(result, a, axes=None):
            if axes is None:
                d[a] = np.transpose(d[result])
            else:
                d[a] = np.transpose(d[result], np.argsort(axes))


def _diagonals(registry: Registry) -> None:
    @linear(registry, np.diag, "v")
    def diag(result, v, k=0):
        if np.ndim(v) == 1:
            d[v] = np.diag(d[result], k)
        else:
            d[v] = runtime.undiagonal(d[result], v, k, 0, 1)

    @linear(registry, np.diagonal, "a")
    def diagonal(result, a, offset=0, axis1=0, axis2=1):
        d[a] = runtime.undiagonal(d[result], a, offset, axis1, axis2)

    @linear(registry, np.triu, "m")
    def triu(result, m, k=0):
        d[m] = runtime.unbroadcast(np.triu(d[result], k), m)  # a 1-D m makes a matrix

    @linear(registry, np.tril, "m")
    def tril(result, m, k=0):
        d[m] = runtime.unbroadcast(np.tril(d[result], k), m)  # a 1-D m makes a matrix
