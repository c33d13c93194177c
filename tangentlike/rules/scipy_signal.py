"""Rules for `scipy.signal` convolutions and `scipy.integrate` quadratures.

Each function is linear in each argument, so its forward form applies the
function to one tangent at a time. The reverse forms correlate the adjoint
of the full result with the other input (runtime/scipy_signal.py places a
'same' or 'valid' adjoint inside the full result first); `simpson` is linear
in y with weights SciPy's own `simpson` gives when applied to the identity.
"""

from __future__ import annotations

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d

# scipy.signal and scipy.integrate, imported by the registrations (deferred until the
# program imports them); module globals because templates name them
signal = None
integrate = None


def register(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.signal is imported."""
    global signal
    try:
        from scipy import signal
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    adjoint, tangent = registry.adjoint, registry.tangent
    names = ("convolve", "correlate", "fftconvolve", "convolve2d", "correlate2d")
    registry.array_makers(getattr(signal, n) for n in names)

    @adjoint(signal.convolve, restriction="real inputs")
    def convolve(result, in1, in2, mode="full", method="auto"):
        d[in1] = signal.correlate(runtime.full_of(d[result], in1, in2, mode), in2, "valid")
        d[in2] = signal.correlate(runtime.full_of(d[result], in1, in2, mode), in1, "valid")

    @tangent(signal.convolve)
    def convolve_tangent(result, in1, in2, mode="full", method="auto"):
        d[result] = signal.convolve(d[in1], in2, mode, method) + signal.convolve(
            in1, d[in2], mode, method
        )

    @adjoint(signal.correlate, restriction="real inputs")
    def correlate(result, in1, in2, mode="full", method="auto"):
        d[in1] = signal.convolve(runtime.full_of(d[result], in1, in2, mode), in2, "valid")
        d[in2] = np.flip(signal.correlate(runtime.full_of(d[result], in1, in2, mode), in1, "valid"))

    @tangent(signal.correlate)
    def correlate_tangent(result, in1, in2, mode="full", method="auto"):
        d[result] = signal.correlate(d[in1], in2, mode, method) + signal.correlate(
            in1, d[in2], mode, method
        )

    @adjoint(signal.fftconvolve, restriction="real inputs; axes=None")
    def fftconvolve(result, in1, in2, mode="full", axes=None):
        d[in1] = signal.correlate(
            runtime.full_of(d[result], in1, in2, mode, "fill", 0, axes), in2, "valid"
        )
        d[in2] = signal.correlate(
            runtime.full_of(d[result], in1, in2, mode, "fill", 0, axes), in1, "valid"
        )

    @tangent(signal.fftconvolve)
    def fftconvolve_tangent(result, in1, in2, mode="full", axes=None):
        d[result] = signal.fftconvolve(d[in1], in2, mode, axes) + signal.fftconvolve(
            in1, d[in2], mode, axes
        )

    @adjoint(signal.convolve2d, restriction="boundary='fill' with fillvalue=0")
    def convolve2d(result, in1, in2, mode="full", boundary="fill", fillvalue=0):
        d[in1] = signal.correlate2d(
            runtime.full_of(d[result], in1, in2, mode, boundary, fillvalue), in2, "valid"
        )
        d[in2] = signal.correlate2d(
            runtime.full_of(d[result], in1, in2, mode, boundary, fillvalue), in1, "valid"
        )

    @tangent(signal.convolve2d)
    def convolve2d_tangent(result, in1, in2, mode="full", boundary="fill", fillvalue=0):
        d[result] = signal.convolve2d(d[in1], in2, mode, boundary, fillvalue) + signal.convolve2d(
            in1, d[in2], mode, boundary, fillvalue
        )

    @adjoint(signal.correlate2d, restriction="boundary='fill' with fillvalue=0")
    def correlate2d(result, in1, in2, mode="full", boundary="fill", fillvalue=0):
        d[in1] = signal.convolve2d(
            runtime.full_of(d[result], in1, in2, mode, boundary, fillvalue, None, True),
            in2,
            "valid",
        )
        d[in2] = np.flip(
            signal.correlate2d(
                runtime.full_of(d[result], in1, in2, mode, boundary, fillvalue, None, True),
                in1,
                "valid",
            )
        )

    @tangent(signal.correlate2d)
    def correlate2d_tangent(result, in1, in2, mode="full", boundary="fill", fillvalue=0):
        d[result] = signal.correlate2d(d[in1], in2, mode, boundary, fillvalue) + signal.correlate2d(
            in1, d[in2], mode, boundary, fillvalue
        )


def register_integrate(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.integrate is imported."""
    global integrate
    try:
        from scipy import integrate
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    adjoint, tangent = registry.adjoint, registry.tangent
    registry.array_makers([integrate.trapezoid, integrate.simpson, integrate.cumulative_trapezoid])

    @adjoint(integrate.trapezoid, restriction="x one-dimensional or shaped like y")
    def trapezoid(result, y, x=None, dx=1.0, axis=-1):
        d[y] = runtime.trapezoid_vjp(d[result], y, x, dx, axis, 0)
        d[x] = runtime.trapezoid_vjp(d[result], y, x, dx, axis, 1)

    @tangent(integrate.trapezoid)
    def trapezoid_tangent(result, y, x=None, dx=1.0, axis=-1):
        # linear in y, and in x: the sum of (x[i+1] - x[i]) (y[i] + y[i+1]) / 2
        d[result] = integrate.trapezoid(d[y], x, dx, axis) + integrate.trapezoid(y, d[x], dx, axis)

    @adjoint(integrate.simpson, restriction="gradient in y; x one-dimensional or None")
    def simpson(result, y, x=None, dx=1.0, axis=-1):
        d[y] = runtime.linear_weights_vjp(
            d[result],
            y,
            integrate.simpson(np.eye(np.shape(y)[axis]), x=x, dx=dx, axis=-1),
            axis,
        )

    @tangent(integrate.simpson)
    def simpson_tangent(result, y, x=None, dx=1.0, axis=-1):
        d[result] = integrate.simpson(d[y], x=x, dx=dx, axis=axis)

    @adjoint(integrate.cumulative_trapezoid, restriction="gradient in y; x 1-D or None")
    def cumulative_trapezoid(result, y, x=None, dx=1.0, axis=-1, initial=None):
        d[y] = runtime.cumulative_trapezoid_vjp(d[result], y, x, dx, axis, initial)

    @tangent(integrate.cumulative_trapezoid)
    def cumulative_trapezoid_tangent(result, y, x=None, dx=1.0, axis=-1, initial=None):
        if initial is None:
            d[result] = integrate.cumulative_trapezoid(d[y], x, dx, axis)
        else:
            d[result] = integrate.cumulative_trapezoid(d[y], x, dx, axis, 0.0)
