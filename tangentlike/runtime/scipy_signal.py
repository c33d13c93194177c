"""Rule maths of rules/scipy_signal.py and rules/scipy_integrate.py. NumPy only.

Part of the runtime: copied into generated modules that use it. The
convolution rules differentiate through the full convolution: the adjoint
of a 'same' or 'valid' result is first placed, centered as SciPy centers it,
in an array of the full result's shape (`full_of`).
"""

from __future__ import annotations

import numpy as np


def full_of(g, in1, in2, mode, boundary="fill", fillvalue=0, axes=None, late=False):
    """`g`, the adjoint of a convolution's result in `mode`, inside zeros of the full
    result's shape, where SciPy takes the 'same' or 'valid' part from (its center).
    The rules cover convolutions over every axis with zero padding: other forms are
    refused here, at run time, rather than given a wrong gradient. An odd margin puts
    the extra entry before the part taken, or after it when `late` (correlate2d)."""
    if axes is not None:
        raise ValueError(
            "tangentlike: the gradient of fftconvolve covers axes=None only "
            f"(got axes={axes!r})\nWhat to do: use scipy.signal.convolve, or convolve "
            "over every axis."
        )
    if boundary != "fill" or np.any(np.asarray(fillvalue) != 0):
        raise ValueError(
            "tangentlike: the gradient of convolve2d/correlate2d covers boundary='fill' with "
            f"fillvalue=0 only (got boundary={boundary!r}, fillvalue={fillvalue!r})\n"
            "What to do: pad the input with np.pad and use mode='valid'."
        )
    g = np.asarray(g)
    if mode == "full":
        return g
    full, part = _placed(g, in1, in2, late)
    out = np.zeros(full, dtype=g.dtype)
    out[part] = g
    return out


def _placed(g, in1, in2, late):
    """(the full result's shape, the index of the part of it shaped like g)."""
    full = tuple(a + b - 1 for a, b in zip(np.shape(in1), np.shape(in2), strict=True))
    start = [(f - s + bool(late)) // 2 for f, s in zip(full, np.shape(g), strict=True)]
    return full, tuple(slice(a, a + s) for a, s in zip(start, np.shape(g), strict=True))


def full_part(h, g, in1, in2, mode, late=False):
    """The part of `h` (shaped like a full convolution) where `full_of` puts `g`: full_of's
    transpose (full_of is linear in g)."""
    h = np.asarray(h)
    if mode == "full":
        return h
    return h[_placed(g, in1, in2, late)[1]]


def linear_weights_vjp(g, y, weights, axis):
    """The adjoint of `y` in a reduction along `axis` that weighs its entries by `weights`
    (one per entry along the axis): `np.sum(y * weights, axis)`."""
    y = np.asarray(y)
    shape = [1] * y.ndim
    shape[axis] = y.shape[axis]
    return np.expand_dims(np.asarray(g), axis) * np.reshape(weights, shape)


def cumulative_trapezoid_vjp(g, y, x, dx, axis, initial):
    """The adjoint of `y` in `scipy.integrate.cumulative_trapezoid(y, x, dx, axis, initial)`."""
    y, g = np.asarray(y), np.moveaxis(np.asarray(g), axis, -1)
    if initial is not None:
        g = g[..., 1:]  # the first entry is the constant `initial`
    steps = np.full(y.shape[axis] - 1, dx) if x is None else np.diff(x, axis=-1)
    if np.ndim(steps) > 1:
        steps = np.moveaxis(steps, axis, -1)
    after = np.flip(np.cumsum(np.flip(g, -1), -1), -1)  # step i feeds every later total
    half = 0.5 * after * steps
    widths = [(0, 0)] * (half.ndim - 1)
    pad_end, pad_start = widths + [(0, 1)], widths + [(1, 0)]  # noqa: RUF005 (read as source)
    out = np.pad(half, pad_end) + np.pad(half, pad_start)
    return np.moveaxis(out, -1, axis)
