"""Rule maths of rules/numpy_fft.py (the transforms) and the real-part projection. NumPy only.

The convention (autograd's): the adjoint of a complex value z is
g = dL/dRe(z) - i dL/dIm(z) for the real loss L. A complex-linear map w = A z then
sends g back as A^T g (the transpose, no conjugate), and a real value x that
entered complex arithmetic gets Re(g): `real_part`. Every DFT matrix is
symmetric, so the adjoint of a transform is the same transform of g, followed
by the adjoint of the padding or truncation `n` / `s` asked for (`_fit`).
"""

from __future__ import annotations

import numpy as np


def real_part(g, x):
    """The adjoint `g` of `x` where x may have entered complex arithmetic: Re(g) when x
    is real (dL/dx in the convention), g itself when x is complex."""
    if np.iscomplexobj(g) and not np.iscomplexobj(x):
        r = np.real(g)
        return r.copy() if isinstance(r, np.ndarray) else r
    return g


def _like(g, a):
    """The adjoint g of the transform's input a: its real part when a is real."""
    return g if np.iscomplexobj(a) else np.real(g)


def _fit(g, shape, axes):
    """g cut or zero-padded along `axes` to `shape`'s lengths there: the adjoint of the
    padding (cut) or cutting (zero pad) the transform did to its input."""
    g = np.asarray(g)
    for ax in axes:
        want = shape[ax]
        have = g.shape[ax]
        if have > want:
            g = np.take(g, np.arange(want), axis=ax)
        elif have < want:
            pad = [(0, 0)] * g.ndim
            pad[ax] = (0, want - have)
            g = np.pad(g, pad)
    return g


def _axes(a, axes, count):
    """The transformed axes, non-negative; repeated ones are refused."""
    ndim = np.ndim(a)
    found = list(range(ndim))[-count:] if axes is None else [int(x) % ndim for x in axes]
    if len(set(found)) != len(found):
        raise ValueError(
            "tangentlike: the gradient of an FFT over a repeated axis is not supported"
        )
    return found


def fft_vjp(g, a, n, axis, norm, inverse):
    """The adjoint of `a` in `np.fft.fft(a, n, axis, norm)` (`ifft` when `inverse`)."""
    transform = np.fft.ifft if inverse else np.fft.fft
    back = transform(g, axis=axis, norm=norm)
    return _like(_fit(back, np.shape(a), [int(axis) % np.ndim(a)]), a)


def fftn_vjp(g, a, s, axes, norm, inverse):
    """The adjoint of `a` in `np.fft.fftn(a, s, axes, norm)` (also fft2; `ifftn` when
    `inverse`)."""
    count = np.ndim(a) if s is None and axes is None else len(s if axes is None else axes)
    found = _axes(a, axes, count)
    transform = np.fft.ifftn if inverse else np.fft.fftn
    back = transform(g, axes=found, norm=norm)
    return _like(_fit(back, np.shape(a), found), a)


def rfft_vjp(g, a, n, axis, norm):
    """The adjoint of the real `a` in `np.fft.rfft(a, n, axis, norm)`: the half spectrum
    is the first n // 2 + 1 rows of the (symmetric) DFT, so g, zero-padded to n, goes
    back through the full transform; the real part, since a is real."""
    ax = int(axis) % np.ndim(a)
    length = np.shape(a)[ax] if n is None else int(n)
    full = list(np.shape(g))
    full[ax] = length
    back = np.fft.fft(_fit(g, full, [ax]), axis=ax, norm=norm)
    return np.real(_fit(back, np.shape(a), [ax]))


def irfft_vjp(g, a, n, axis, norm):
    """The adjoint of the half spectrum `a` in `np.fft.irfft(a, n, axis, norm)`.

    The output is Re(sum_k c_k a_k e^(2 pi i j k / n)) / n (backward norm), with c_k = 2
    for the bins that stand for a conjugate pair and 1 for the zero bin and, n even,
    the Nyquist bin (whose imaginary parts irfft ignores). So the adjoint is
    c_k ifft(g)_k over the first n // 2 + 1 bins, then fitted to a's length."""
    ax = int(axis) % np.ndim(a)
    length = 2 * (np.shape(a)[ax] - 1) if n is None else int(n)
    half = length // 2 + 1
    back = np.fft.ifft(g, axis=ax, norm=norm)
    back = np.take(back, np.arange(half), axis=ax)
    weights = np.full(half, 2.0)
    weights[0] = 1.0
    if length % 2 == 0:
        weights[-1] = 1.0
    shape = [1] * back.ndim
    shape[ax] = half
    return _like(_fit(back * weights.reshape(shape), np.shape(a), [ax]), a)


def _swapped(norm):
    """The norm hfft and ihfft hand to irfft and rfft (NumPy's _swap_direction)."""
    return {None: "forward", "backward": "forward", "forward": "backward"}.get(norm, norm)


def rfftn_vjp(g, a, s, axes, norm):
    """The adjoint of the real `a` in `np.fft.rfftn(a, s, axes, norm)` (also rfft2):
    NumPy's rfftn is rfft along the last axis, then fft along the others, so g goes
    back through the adjoints of those in the opposite order."""
    count = np.ndim(a) if s is None and axes is None else len(s if axes is None else axes)
    found = _axes(a, axes, count)
    last = None if s is None else s[-1]
    if len(found) > 1:
        inner = np.fft.rfft(a, n=last, axis=found[-1], norm=norm)  # for its shape
        rest = None if s is None else list(s[:-1])
        g = fftn_vjp(g, inner, rest, found[:-1], norm, False)
    return rfft_vjp(g, a, last, found[-1], norm)


def irfftn_vjp(g, a, s, axes, norm):
    """The adjoint of the half spectrum `a` in `np.fft.irfftn(a, s, axes, norm)` (also
    irfft2): ifft along all axes but the last, then irfft along the last; back in the
    opposite order."""
    count = np.ndim(a) if s is None and axes is None else len(s if axes is None else axes)
    found = _axes(a, axes, count)
    last = None if s is None else s[-1]
    inner = a
    rest = None if s is None else list(s[:-1])
    if len(found) > 1:
        inner = np.fft.ifftn(a, s=rest, axes=found[:-1], norm=norm)
    g = irfft_vjp(g, inner, last, found[-1], norm)
    if len(found) > 1:
        g = fftn_vjp(g, a, rest, found[:-1], norm, True)
    return g


def hfft_vjp(g, a, n, axis, norm):
    """The adjoint of `a` in `np.fft.hfft(a, n, axis, norm)` = irfft(conj(a)) with the
    norm's direction swapped: the conjugate's adjoint is the conjugate of g."""
    return np.conj(irfft_vjp(g, np.conj(a), n, axis, _swapped(norm)))


def ihfft_vjp(g, a, n, axis, norm):
    """The adjoint of the real `a` in `np.fft.ihfft(a, n, axis, norm)` =
    conj(rfft(a)) with the norm's direction swapped."""
    return rfft_vjp(np.conj(g), a, n, axis, _swapped(norm))
