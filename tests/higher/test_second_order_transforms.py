"""Second order through the adjoint helpers of numpy.fft (rules/runtime_transforms.py):
each was refused ("has no second-order rule yet") when a gradient calling it was
differentiated again. (np.real of a spectrum makes the adjoint g a real value: the first
draft of the rules gave it a complex adjoint, a wrong Hessian-vector product reverse over
reverse that f_fft_real and f_rfft_n catch.) Hessian-vector products forward over
reverse and reverse over reverse of real functions of real arrays that pass through
complex spectra, against central differences of tangentlike's own gradient and, where
autograd differentiates the transform twice, autograd's."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

W = np.array([0.4, -1.0, 0.7, 1.3, -0.2, 0.9])


def f_fft(x):
    return np.sum(np.abs(np.fft.fft(x * x)) ** 2 * W)


def f_fft_n(x):
    return np.sum(np.abs(np.fft.fft(np.sin(x), 8)) ** 2)


def f_fft_cut(x):
    return np.sum(np.real(np.fft.fft(x ** 3, 4) ** 2))


def f_fft_real(x):
    return np.sum(np.real(np.fft.fft(np.sin(x), 9)) ** 3)


def f_fft_real_part_of_real(x):
    return np.sum(np.real(np.fft.ifft(x ** 2)) ** 3)


def f_ifft_ortho(x):
    return np.sum(np.imag(np.fft.ifft(x * x, norm="ortho")) ** 2 * W)


def f_fft_complex(x):
    z = x * (1.0 + 0.5j) + np.sin(x) * 1j
    return np.sum(np.abs(np.fft.fft(z * z)) ** 2)


def f_fft2(x):
    m = np.reshape(x, (2, 3))
    return np.sum(np.abs(np.fft.fft2(m * m)) ** 2 * np.reshape(W, (2, 3)))


def f_ifftn(x):
    m = np.reshape(np.sin(x), (3, 2))
    return np.sum(np.real(np.fft.ifftn(m, (4, 2)) ** 2))


def f_rfft(x):
    return np.sum(np.abs(np.fft.rfft(x ** 2)) ** 2 * W[:4])


def f_rfft_n(x):
    return np.sum(np.real(np.fft.rfft(np.sin(x), 9)) ** 3)


def f_irfft(x):
    spectrum = np.fft.rfft(x * x)
    return np.sum(np.fft.irfft(spectrum * (1.0 + 0.3j), 6) ** 2 * W)


def f_irfft_odd(x):
    return np.sum(np.fft.irfft(np.fft.rfft(x * x) * (0.5 + 1.0j), 7) ** 2)


def f_rfftn(x):
    m = np.reshape(x ** 2, (2, 3))
    return np.sum(np.abs(np.fft.rfftn(m)) ** 2)


def f_irfftn(x):
    m = np.reshape(x, (3, 2))
    spectrum = np.fft.rfftn(m * m) * (1.5j + 0.5)
    return np.sum(np.fft.irfftn(spectrum, (3, 2), axes=(0, 1)) ** 2 * np.reshape(W, (3, 2)))


def f_hfft(x):
    return np.sum(np.fft.hfft(np.fft.rfft(x * x) * (1.0 - 0.4j), 6) ** 2 * W)


def f_ihfft(x):
    return np.sum(np.abs(np.fft.ihfft(np.sin(x) * x)) ** 2)
"""

R = np.random.RandomState(13)
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
CASES = {name: R.randn(6) for name in NAMES}
# autograd has no (or no second) derivative through these
NO_AUTOGRAD = {"f_hfft", "f_ihfft", "f_irfft_odd", "f_rfft_n", "f_fft_cut", "f_ifftn"}
NO_AUTOGRAD |= {"f_fft_real", "f_rfftn"}  # f_rfftn: an odd last axis


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("transforms2"), SOURCE, name="tl_second_fft")


def autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    # the specialised build: debug mode's checks in a gradient of complex values
    # (adjoint_contribution) have no complex role, and are refused when differentiated
    hv = tl.hvp(f, method=method, checks=False)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        assert np.allclose(hv, autograd_hvp(f, x, v), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", ["f_fft_n", "f_irfft"])
def test_hessian_through_helper(m, case):
    f, x = getattr(m, case), CASES[case]
    H = tl.hessian(f, checks=False)(x)
    columns = [fd_hvp(f, x, e) for e in np.eye(x.size)]
    assert np.allclose(H, np.array(columns).T, rtol=1e-4, atol=1e-6)
