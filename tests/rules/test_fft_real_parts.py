"""The real-valued parts of np.fft: fftshift and ifftshift (permutations) and fftfreq
(its spacing `d` differentiated too) are differentiated from NumPy's own source; the
complex transforms are tests/rules/test_complex_fft.py's (here one, as a smoke test)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def shifted(x):
    return np.sum(np.fft.fftshift(x) * np.arange(x.size).reshape(x.shape) ** 2)


def unshifted(x):
    return np.sum(np.fft.ifftshift(x, axes=0) * np.fft.fftshift(x, axes=(1,)))


def frequencies(x):
    k = np.fft.fftfreq(x.shape[1], x[0, 0] ** 2 + 0.5)
    return np.sum(x * k) + np.sum(np.fft.rfftfreq(5, 0.1) * x[0, :3])


def transformed(x):
    return np.sum(np.abs(np.fft.fft(x)) ** 2)
"""


@pytest.mark.parametrize("name", ["shifted", "unshifted", "frequencies"])
def test_real_fft_helpers_are_differentiated(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE), name)
    x = np.random.RandomState(2).standard_normal((3, 5))
    g = tl.grad(f)(x)
    check_against_fd(f, g, [x], 0)
    if name != "frequencies":  # autograd does not differentiate fftfreq's spacing
        np.testing.assert_allclose(g, autograd_grad(f, [x], 0), rtol=1e-10)
    t = np.random.RandomState(3).standard_normal(x.shape)
    _, jt = tl.jvp(f)(x, t)
    assert np.isclose(jt, np.sum(g * t), rtol=1e-10)


def test_a_complex_transform_inside_a_real_function(tmp_path):
    f = load_module(tmp_path, SOURCE).transformed
    x = np.random.RandomState(4).standard_normal(4)
    g = tl.grad(f)(x)
    check_against_fd(f, g, [x], 0)
    np.testing.assert_allclose(g, autograd_grad(f, [x], 0), rtol=1e-10)
