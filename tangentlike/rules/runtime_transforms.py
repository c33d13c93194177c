"""Second-order rules of the adjoint helpers of numpy.fft (registered by
rules/runtime_helpers.py beside its other runtime rules).

Each helper is the adjoint of a transform's input, in autograd's convention
(rules/numpy_fft.py): a map linear in the adjoint g it takes, reading the input `a` for
its shape and for whether it is real (then the helper takes the real part: Re(g) is a
real-linear map whose transpose passes a real adjoint on unchanged). The transpose of
each helper is the transform itself, with the same n (s), axis (axes) and norm:

- fft_vjp (fft, ifft): the DFT matrix is symmetric, and padding or cutting to n is
  transposed by cutting or padding back, which np.fft.fft(h, n) does to its input;
- fftn_vjp (fftn, ifftn, fft2, ifft2): the same along each axis;
- rfft_vjp, rfftn_vjp: the half spectrum's transpose is rfft of the real adjoint;
- irfft_vjp, irfftn_vjp: the weighted half spectrum's transpose is irfft (which weighs
  the conjugate pairs twice and reads the real parts of the zero and Nyquist bins);
- hfft_vjp, ihfft_vjp: those composed with a conjugate, whose transpose is a conjugate:
  hfft and ihfft themselves.

The adjoint h of a helper's result is first given the real part where `a` is real, and
the transform of it the real part where g is real (runtime.real_part: g is the real
adjoint of a real result when the function took np.real of a spectrum), so each
reverse form is the transpose in the convention whatever the complex gate knows of h
and g. Forward forms: the helper at g's tangent.

Complex roles (COMPLEX_ROLES): fft_vjp and fftn_vjp take and give complex values
("safe"; their result is real for a real a, which the gate then treats as possibly
complex: refusals downstream, never a wrong value); rfft_vjp, rfftn_vjp and ihfft_vjp
give real results from complex adjoints ("sink": np.real or an rfft_vjp is their last
step); irfft_vjp, irfftn_vjp and hfft_vjp make complex values from real ones ("source").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import runtime
from .template import d

COMPLEX_ROLES = {
    runtime.fft_vjp: "safe",
    runtime.fftn_vjp: "safe",
    runtime.rfft_vjp: "sink",
    runtime.rfftn_vjp: "sink",
    runtime.ihfft_vjp: "sink",
    runtime.irfft_vjp: "source",
    runtime.irfftn_vjp: "source",
    runtime.hfft_vjp: "source",
}


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""

    @adjoint(runtime.fft_vjp, constant=("a", "n", "axis", "norm", "inverse"))
    def fft_vjp(result, g, a, n, axis, norm, inverse):
        if inverse:
            d[g] = runtime.real_part(np.fft.ifft(runtime.real_part(d[result], a), n, axis, norm), g)
        else:
            d[g] = runtime.real_part(np.fft.fft(runtime.real_part(d[result], a), n, axis, norm), g)

    @tangent(runtime.fft_vjp)
    def fft_vjp_tangent(result, g, a, n, axis, norm, inverse):
        d[result] = runtime.fft_vjp(d[g], a, n, axis, norm, inverse)

    @adjoint(runtime.fftn_vjp, constant=("a", "s", "axes", "norm", "inverse"))
    def fftn_vjp(result, g, a, s, axes, norm, inverse):
        if inverse:
            d[g] = runtime.real_part(
                np.fft.ifftn(runtime.real_part(d[result], a), s, axes, norm), g
            )
        else:
            d[g] = runtime.real_part(np.fft.fftn(runtime.real_part(d[result], a), s, axes, norm), g)

    @tangent(runtime.fftn_vjp)
    def fftn_vjp_tangent(result, g, a, s, axes, norm, inverse):
        d[result] = runtime.fftn_vjp(d[g], a, s, axes, norm, inverse)

    @adjoint(runtime.rfft_vjp, constant=("a", "n", "axis", "norm"))
    def rfft_vjp(result, g, a, n, axis, norm):
        d[g] = runtime.real_part(np.fft.rfft(runtime.real_part(d[result], a), n, axis, norm), g)

    @tangent(runtime.rfft_vjp)
    def rfft_vjp_tangent(result, g, a, n, axis, norm):
        d[result] = runtime.rfft_vjp(d[g], a, n, axis, norm)

    @adjoint(runtime.irfft_vjp, constant=("a", "n", "axis", "norm"))
    def irfft_vjp(result, g, a, n, axis, norm):
        d[g] = runtime.real_part(np.fft.irfft(runtime.real_part(d[result], a), n, axis, norm), g)

    @tangent(runtime.irfft_vjp)
    def irfft_vjp_tangent(result, g, a, n, axis, norm):
        d[result] = runtime.irfft_vjp(d[g], a, n, axis, norm)

    @adjoint(runtime.rfftn_vjp, constant=("a", "s", "axes", "norm"))
    def rfftn_vjp(result, g, a, s, axes, norm):
        d[g] = runtime.real_part(np.fft.rfftn(runtime.real_part(d[result], a), s, axes, norm), g)

    @tangent(runtime.rfftn_vjp)
    def rfftn_vjp_tangent(result, g, a, s, axes, norm):
        d[result] = runtime.rfftn_vjp(d[g], a, s, axes, norm)

    @adjoint(runtime.irfftn_vjp, constant=("a", "s", "axes", "norm"))
    def irfftn_vjp(result, g, a, s, axes, norm):
        d[g] = runtime.real_part(np.fft.irfftn(runtime.real_part(d[result], a), s, axes, norm), g)

    @tangent(runtime.irfftn_vjp)
    def irfftn_vjp_tangent(result, g, a, s, axes, norm):
        d[result] = runtime.irfftn_vjp(d[g], a, s, axes, norm)

    @adjoint(runtime.hfft_vjp, constant=("a", "n", "axis", "norm"))
    def hfft_vjp(result, g, a, n, axis, norm):
        d[g] = runtime.real_part(np.fft.hfft(runtime.real_part(d[result], a), n, axis, norm), g)

    @tangent(runtime.hfft_vjp)
    def hfft_vjp_tangent(result, g, a, n, axis, norm):
        d[result] = runtime.hfft_vjp(d[g], a, n, axis, norm)

    @adjoint(runtime.ihfft_vjp, constant=("a", "n", "axis", "norm"))
    def ihfft_vjp(result, g, a, n, axis, norm):
        d[g] = runtime.real_part(np.fft.ihfft(runtime.real_part(d[result], a), n, axis, norm), g)

    @tangent(runtime.ihfft_vjp)
    def ihfft_vjp_tangent(result, g, a, n, axis, norm):
        d[result] = runtime.ihfft_vjp(d[g], a, n, axis, norm)
