"""Rules for `numpy.fft`, and what each rule does with complex values.

Complex values may appear inside a function whose inputs and outputs are real (a
power spectrum, a spectral filter). The convention is autograd's: the adjoint of
a complex value z is g = dL/dRe(z) - i dL/dIm(z). In it, a holomorphic function's
rule is its real rule unchanged (`g * f'(z)`, no conjugate), a complex-linear map
sends g back through its transpose, and a real value that entered complex
arithmetic takes Re(g) (runtime.real_part, which the transform puts there). A
function not listed in ROLES is refused, located, where a value may be complex
(transform/complex_gate.py); COMPLEX_FORMS are the rules that replace the real ones
there (np.abs of a real x is `g * sign(x)`; of a complex z it is `g * conj(z) / |z|`).

The transforms are linear, so their forward forms are the transforms of tangents.
"""

from __future__ import annotations

import builtins

import gast
import numpy as np

from .. import runtime
from .kinds import linear
from .registry import Registry
from .tangent import tangent_from_function
from .template import d, rule_from_function

# Functions whose real rule holds for complex values as it is (holomorphic or linear
# with real coefficients, no comparison, sign, abs or conjugate of a value).
SAFE = [
    gast.Add,
    gast.Sub,
    gast.Mult,
    gast.Div,
    gast.Pow,
    gast.USub,
    gast.UAdd,
    gast.MatMult,
    np.add,
    np.subtract,
    np.multiply,
    np.divide,
    np.true_divide,
    np.power,
    np.negative,
    np.positive,
    np.exp,
    np.log,
    np.sqrt,
    np.square,
    np.reciprocal,
    np.sin,
    np.cos,
    np.tan,
    np.sinh,
    np.cosh,
    np.tanh,
    np.sum,
    np.mean,
    np.cumsum,
    np.matmul,
    np.reshape,
    np.transpose,
    np.ravel,
    np.squeeze,
    np.expand_dims,
    np.concatenate,
    np.stack,
    np.flip,
    np.roll,
    np.copy,
    np.array,
    np.asarray,
    np.fft.fftshift,
    np.fft.ifftshift,
    np.conjugate,
]
ROLES = {
    **dict.fromkeys(SAFE, "safe"),
    **dict.fromkeys([np.fft.fft, np.fft.ifft, np.fft.fft2, np.fft.ifft2], "source"),
    **dict.fromkeys([np.fft.fftn, np.fft.ifftn], "source"),
    **dict.fromkeys([np.fft.rfft, np.fft.rfft2, np.fft.rfftn, np.fft.ihfft], "real-source"),
    builtins.complex: "source",
    **dict.fromkeys([np.real, np.imag, np.abs, builtins.abs, np.angle], "sink"),
    **dict.fromkeys([np.fft.irfft, np.fft.irfft2, np.fft.irfftn, np.fft.hfft], "sink"),
}
if hasattr(np, "astype"):  # NumPy >= 2.1
    ROLES[np.astype] = "safe"


def register(registry: Registry) -> None:
    _transforms(registry)
    _complex_forms(registry)
    registry.complex_roles(ROLES)


def _transforms(registry: Registry) -> None:
    one = "s, axes, norm; repeated axes are refused"

    @linear(registry, np.fft.fft, "a", restriction="n, axis, norm")
    def fft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.fft_vjp(d[result], a, n, axis, norm, False)

    @linear(registry, np.fft.ifft, "a", restriction="n, axis, norm")
    def ifft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.fft_vjp(d[result], a, n, axis, norm, True)

    @linear(registry, np.fft.fft2, "a", restriction=one)
    def fft2(result, a, s=None, axes=(-2, -1), norm=None):
        d[a] = runtime.fftn_vjp(d[result], a, s, axes, norm, False)

    @linear(registry, np.fft.ifft2, "a", restriction=one)
    def ifft2(result, a, s=None, axes=(-2, -1), norm=None):
        d[a] = runtime.fftn_vjp(d[result], a, s, axes, norm, True)

    @linear(registry, np.fft.fftn, "a", restriction=one)
    def fftn(result, a, s=None, axes=None, norm=None):
        d[a] = runtime.fftn_vjp(d[result], a, s, axes, norm, False)

    @linear(registry, np.fft.ifftn, "a", restriction=one)
    def ifftn(result, a, s=None, axes=None, norm=None):
        d[a] = runtime.fftn_vjp(d[result], a, s, axes, norm, True)

    @linear(registry, np.fft.rfft, "a", restriction="real input; n, axis, norm")
    def rfft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.rfft_vjp(d[result], a, n, axis, norm)

    @linear(registry, np.fft.irfft, "a", restriction="n, axis, norm")
    def irfft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.irfft_vjp(d[result], a, n, axis, norm)

    @linear(registry, np.fft.rfft2, "a", restriction="real input; " + one)
    def rfft2(result, a, s=None, axes=(-2, -1), norm=None):
        d[a] = runtime.rfftn_vjp(d[result], a, s, axes, norm)

    @linear(registry, np.fft.rfftn, "a", restriction="real input; " + one)
    def rfftn(result, a, s=None, axes=None, norm=None):
        d[a] = runtime.rfftn_vjp(d[result], a, s, axes, norm)

    @linear(registry, np.fft.irfft2, "a", restriction=one)
    def irfft2(result, a, s=None, axes=(-2, -1), norm=None):
        d[a] = runtime.irfftn_vjp(d[result], a, s, axes, norm)

    @linear(registry, np.fft.irfftn, "a", restriction=one)
    def irfftn(result, a, s=None, axes=None, norm=None):
        d[a] = runtime.irfftn_vjp(d[result], a, s, axes, norm)

    @linear(registry, np.fft.hfft, "a", restriction="n, axis, norm")
    def hfft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.hfft_vjp(d[result], a, n, axis, norm)

    @linear(registry, np.fft.ihfft, "a", restriction="real input; n, axis, norm")
    def ihfft(result, a, n=None, axis=-1, norm=None):
        d[a] = runtime.ihfft_vjp(d[result], a, n, axis, norm)

    # complex(re, im) = re + i im: the real operands take Re(g) and Re(i g) = -Im(g)
    @linear(registry, builtins.complex, ("real", "imag"))
    def complex_(result, real=0.0, imag=0.0):
        d[real] = d[result]
        d[imag] = 1j * d[result]


# -- the complex forms -----------------------------------------------------------------
# In each, x (or z, val) may be complex; d[result] may be complex too except for a sink.


def real(result, val):
    d[val] = d[result]


def real_tangent(result, val):
    d[result] = np.real(d[val])


def imag(result, val):
    d[val] = -1j * d[result]


def imag_tangent(result, val):
    d[result] = np.imag(d[val])


# |z|: g * conj(z) / |z|, 0 at z = 0 (where conj(z) is 0), as sign(x) is 0 at 0
def absolute(result, x):
    d[x] = d[result] * np.conj(x) / np.where(result == 0, 1.0, result)


def absolute_tangent(result, x):
    d[result] = np.real(np.conj(x) * d[x]) / np.where(result == 0, 1.0, result)


# angle(z) = Im(log z): g * (-i / z) (times 180 / pi in degrees)
def angle(result, z, deg=False):
    if deg:
        d[z] = -1j * (180.0 / np.pi) * d[result] / z
    else:
        d[z] = -1j * d[result] / z


def angle_tangent(result, z, deg=False):
    if deg:
        d[result] = 180.0 / np.pi * np.imag(d[z] / z)
    else:
        d[result] = np.imag(d[z] / z)


def conjugate(result, x):
    d[x] = np.conj(d[result])


def conjugate_tangent(result, x):
    d[result] = np.conj(d[x])


COMPLEX_FORMS = {
    np.real: (real, real_tangent),
    np.imag: (imag, imag_tangent),
    np.abs: (absolute, absolute_tangent),
    builtins.abs: (absolute, absolute_tangent),
    np.angle: (angle, angle_tangent),
    np.conjugate: (conjugate, conjugate_tangent),
}


def _complex_forms(registry: Registry) -> None:
    for primal, (adjoint, tangent) in COMPLEX_FORMS.items():
        rule = rule_from_function(primal, adjoint, restriction="complex values")
        registry.complex_form(primal, rule, tangent_from_function(rule, tangent, origin="builtin"))
