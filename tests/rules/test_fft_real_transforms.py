"""np.fft.rfft2 / irfft2 / rfftn / irfftn / hfft / ihfft in real-in, real-out functions
(issue 13): reverse mode against central differences along random directions and
against autograd where autograd has the function (rfft2, irfft2, rfftn, irfftn with
even lengths), forward mode against the reverse gradient."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

H = np.exp(-0.2 * np.arange(3)) * (1.0 + 0.5j)


def rfft2_power(x):
    return np.sum(np.abs(np.fft.rfft2(x)) ** 2 * np.arange(3))


def rfft2_filter(x):
    return np.sum(np.fft.irfft2(np.fft.rfft2(x) * H) ** 3)


def rfftn_axes(x):
    z = np.fft.rfftn(x, axes=(0, 2))
    return np.sum(np.real(z) * np.imag(z))


def irfftn_round_trip(x):
    z = np.fft.rfftn(x, norm="ortho")
    return np.sum(np.sin(np.fft.irfftn(z * 1j + z, norm="ortho")))


def padded(x):
    z = np.fft.rfft2(x, s=(5, 6))
    y = np.fft.irfft2(z * np.conj(z), s=(4, 3))
    return np.sum(y * np.arange(3))


def hermitian(x):
    z = np.fft.ihfft(x)
    y = np.fft.hfft(z * (1.0 - 0.5j))
    return np.sum(y ** 2 * np.arange(y.shape[-1])) + np.sum(np.abs(z))


def hermitian_lengths(x):
    z = np.fft.ihfft(x, n=7, norm="forward")
    return np.sum(np.fft.hfft(z * z, n=9, axis=-1) * np.arange(9))
"""

# autograd has rfft2/irfft2/rfftn/irfftn (even lengths), not hfft or ihfft
_AUTOGRAD = ["rfft2_power", "rfft2_filter", "rfftn_axes", "irfftn_round_trip"]
_OTHERS = ["padded", "hermitian", "hermitian_lengths"]
_SHAPES = {"rfftn_axes": (4, 2, 6), "irfftn_round_trip": (2, 4, 4), "hermitian": (8,)}
_SHAPES["hermitian_lengths"] = (2, 8)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rfft"), SOURCE)


def _x(name):
    return np.random.RandomState(3).standard_normal(_SHAPES.get(name, (4, 4)))


@pytest.mark.parametrize("name", _AUTOGRAD + _OTHERS)
@pytest.mark.parametrize("checks", [False, True])
def test_reverse_mode(module, name, checks):
    f = getattr(module, name)
    x = _x(name)
    g = tl.grad(f, checks=checks)(x)
    assert g.dtype == np.float64 and g.shape == x.shape
    for seed in (0, 1):
        check_against_fd(f, g, [x], 0, seed=seed)
    if name in _AUTOGRAD:
        np.testing.assert_allclose(g, autograd_grad(f, [x], 0), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", _AUTOGRAD + _OTHERS)
def test_forward_mode(module, name):
    f = getattr(module, name)
    x = _x(name)
    g = tl.grad(f)(x)
    for seed in (2, 3):
        t = np.random.RandomState(seed).standard_normal(x.shape)
        value, jt = tl.jvp(f)(x, t)
        assert np.isclose(value, f(x))
        assert np.isclose(jt, np.sum(g * t), rtol=1e-9, atol=1e-10)
