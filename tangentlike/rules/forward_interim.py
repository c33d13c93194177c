"""Forward forms (tangents) for rules that do not state one yet, so jvp covers them.

Interim: the `kinds` work gives every rule its forward form beside its reverse form
(issue 11 section 5); `register` fills only the gaps left (a rule that has a forward
form keeps it), so as rules gain theirs this file shrinks to nothing. Each form is
checked like the others (tests/rules/test_tangents.py: against the reverse form by the
dot product, and against central differences).

Linear functions apply themselves to the tangent; bilinear ones take one term per
factor; the rest are their textbook derivatives.
"""

from __future__ import annotations

import builtins
import operator

import gast
import numpy as np

from .. import runtime
from ..runtime.forward import zero_tangent
from .registry import Registry

# forms whose result is a list, tuple or dict: tests/forward/test_interim_forms.py checks
# them (the single-application cases of tests/rules compare array results)
CONTAINER_RESULTS = (
    runtime.iterable,
    runtime.dict_of,
    builtins.list,
    builtins.tuple,
    np.split,
    np.array_split,
)


def register(registry: Registry) -> None:
    for primal, template in _forms().items():
        if registry.lookup(primal) is not None and registry.lookup_tangent(primal) is None:
            registry.tangent(primal)(template)


def _forms() -> dict[object, object]:
    d = _D()

    def sum_(result, a, axis=None, dtype=None, out=None, keepdims=False):
        d[result] = np.sum(d[a], axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(result, a, axis=None, dtype=None, out=None, keepdims=False):
        d[result] = np.mean(d[a], axis=axis, dtype=dtype, keepdims=keepdims)

    def matmul_op(result, x, y):
        d[result] = d[x] @ y + x @ d[y]

    def matmul(result, x1, x2):
        d[result] = np.matmul(d[x1], x2) + np.matmul(x1, d[x2])

    def dot(result, a, b):
        d[result] = np.dot(d[a], b) + np.dot(a, d[b])

    def outer(result, a, b):
        d[result] = np.outer(d[a], b) + np.outer(a, d[b])

    def inner(result, a, b):
        d[result] = np.inner(d[a], b) + np.inner(a, d[b])

    def vdot(result, a, b):
        d[result] = np.vdot(d[a], b) + np.vdot(a, d[b])

    def reshape(result, a, shape=None, order="C"):
        d[result] = np.reshape(d[a], np.shape(result), order=order)

    def ravel(result, a, order="C"):
        d[result] = np.ravel(d[a], order=order)

    def squeeze(result, a, axis=None):
        d[result] = np.squeeze(d[a], axis=axis)

    def expand_dims(result, a, axis):
        d[result] = np.expand_dims(d[a], axis)

    def transpose(result, a, axes=None):
        d[result] = np.transpose(d[a], axes)

    def swapaxes(result, a, axis1, axis2):
        d[result] = np.swapaxes(d[a], axis1, axis2)

    def moveaxis(result, a, source, destination):
        d[result] = np.moveaxis(d[a], source, destination)

    def concatenate(result, arrays, axis=0):
        d[result] = np.concatenate(d[arrays], axis=axis)

    def stack(result, arrays, axis=0):
        d[result] = np.stack(d[arrays], axis=axis)

    def hstack(result, tup):
        d[result] = np.hstack(d[tup])

    def vstack(result, tup):
        d[result] = np.vstack(d[tup])

    def cumsum(result, a, axis=None, dtype=None, out=None):
        d[result] = np.cumsum(d[a], axis=axis, dtype=dtype)

    def diff(result, a, n=1, axis=-1):
        d[result] = np.diff(d[a], n=n, axis=axis)

    def trace(result, a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        d[result] = np.trace(d[a], offset, axis1, axis2, dtype)

    def diagonal(result, a, offset=0, axis1=0, axis2=1):
        d[result] = np.diagonal(d[a], offset, axis1, axis2)

    def diag(result, v, k=0):
        d[result] = np.diag(d[v], k)

    def triu(result, m, k=0):
        d[result] = np.triu(d[m], k)

    def tril(result, m, k=0):
        d[result] = np.tril(d[m], k)

    def flip(result, m, axis=None):
        d[result] = np.flip(d[m], axis)

    def roll(result, a, shift, axis=None):
        d[result] = np.roll(d[a], shift, axis)

    def tile(result, A, reps):
        d[result] = np.tile(d[A], reps)

    def repeat(result, a, repeats, axis=None):
        d[result] = np.repeat(d[a], repeats, axis)

    def copy(result, a, order="K"):
        d[result] = np.copy(d[a], order)

    def abs_(result, x):
        d[result] = d[x] * np.sign(x)

    def where(result, condition, x, y):
        d[result] = np.where(condition, d[x], d[y])

    def inv(result, a):
        d[result] = -(result @ d[a] @ result)

    def solve(result, a, b):
        d[result] = np.linalg.solve(a, d[b]) - np.linalg.solve(a, d[a] @ result)

    def det(result, a):
        d[result] = result * np.trace(np.linalg.solve(a, d[a]), axis1=-2, axis2=-1)

    def iterable(result, x):
        if isinstance(x, dict):  # its keys: no tangent
            d[result] = zero_tangent(result)
        else:
            d[result] = d[x]

    def builtin_sum(result, iterable, start=0):
        d[result] = sum(d[iterable])

    def list_(result, iterable=()):
        d[result] = list(d[iterable])

    def tuple_(result, iterable=()):
        d[result] = tuple(d[iterable])

    def float_(result, x=0.0):
        d[result] = float(d[x])

    def dict_of(result, keys, values):
        d[result] = runtime.dict_of(keys, d[values])

    def split(result, ary, indices_or_sections, axis=0):
        d[result] = np.split(d[ary], indices_or_sections, axis)

    def array_split(result, ary, indices_or_sections, axis=0):
        d[result] = np.array_split(d[ary], indices_or_sections, axis)

    def extreme(result, a, axis=None, out=None, keepdims=False):
        if keepdims or axis is None:  # noqa: SIM108 (a template: `if` folds at build time)
            full = result
        else:
            full = np.expand_dims(result, axis)
        mask = a == full
        count = np.sum(mask, axis=axis, keepdims=keepdims)
        d[result] = np.sum(d[a] * mask, axis=axis, keepdims=keepdims) / count

    def var(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        centred = a - np.mean(a, axis=axis, keepdims=True)
        n = np.size(a) / np.size(result)
        d[result] = 2.0 * np.sum(centred * d[a], axis=axis, keepdims=keepdims) / (n - ddof)

    def std(result, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        centred = a - np.mean(a, axis=axis, keepdims=True)
        n = np.size(a) / np.size(result)
        d[result] = np.sum(centred * d[a], axis=axis, keepdims=keepdims) / ((n - ddof) * result)

    def clip(result, a, a_min=None, a_max=None):
        d[result] = d[a] * (result == a)

    def array(result, object, dtype=None, copy=True):
        d[result] = np.array(d[object], dtype=dtype)

    def asarray(result, a, dtype=None):
        d[result] = np.asarray(d[a], dtype=dtype)

    return {
        np.clip: clip,
        np.array: array,
        np.asarray: asarray,
        runtime.iterable: iterable,
        builtins.sum: builtin_sum,
        builtins.list: list_,
        builtins.tuple: tuple_,
        builtins.float: float_,
        runtime.dict_of: dict_of,
        np.split: split,
        np.array_split: array_split,
        np.max: extreme,
        np.min: extreme,
        np.amax: extreme,
        np.amin: extreme,
        np.var: var,
        np.std: std,
        np.sum: sum_,
        np.mean: mean,
        gast.MatMult: matmul_op,
        np.matmul: matmul,
        np.dot: dot,
        np.outer: outer,
        np.inner: inner,
        np.vdot: vdot,
        np.reshape: reshape,
        np.ravel: ravel,
        np.squeeze: squeeze,
        np.expand_dims: expand_dims,
        np.transpose: transpose,
        np.swapaxes: swapaxes,
        np.moveaxis: moveaxis,
        np.concatenate: concatenate,
        np.stack: stack,
        np.hstack: hstack,
        np.vstack: vstack,
        np.cumsum: cumsum,
        np.diff: diff,
        np.trace: trace,
        np.diagonal: diagonal,
        np.diag: diag,
        np.triu: triu,
        np.tril: tril,
        np.flip: flip,
        np.roll: roll,
        np.tile: tile,
        np.repeat: repeat,
        np.copy: copy,
        abs: abs_,
        np.where: where,
        np.linalg.inv: inv,
        np.linalg.solve: solve,
        np.linalg.det: det,
        operator.matmul: matmul_op,
    }


class _D:
    """`d` in the templates above: never run (they are read as source)."""

    def __getitem__(self, key: object) -> object:
        raise RuntimeError("a tangent template is read as source, never called")

    def __setitem__(self, key: object, value: object) -> None:
        raise RuntimeError("a tangent template is read as source, never called")
