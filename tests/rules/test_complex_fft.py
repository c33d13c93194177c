"""Complex intermediates in real-in, real-out functions: np.fft and the complex parts.

Each program is checked in reverse mode against central differences along random
directions and against autograd (the convention is autograd's; it supports np.fft
and complex values), in forward mode against the reverse gradient, and in debug
mode (checks=True). Odd-length irfft, fftfreq's spacing and the `deg` angle are
outside autograd: central differences only.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

H = np.exp(-0.3 * np.arange(5)) * (1.0 + 0.5j)
W = np.linspace(0.5, 2.0, 8)
K = np.outer(np.hanning(6), np.hanning(4))


def power(x):
    return np.sum(np.abs(np.fft.rfft(x)) ** 2)


def spectral_filter(x):
    y = np.fft.irfft(np.fft.rfft(x) * H)
    return np.sum(W * y**2)


def convolution(a):
    c = np.fft.ifft2(np.fft.fft2(a) * np.fft.fft2(K))
    return np.sum(np.real(c) ** 2 * np.arange(4))


def phases(x):
    z = np.fft.fft(x)
    return np.sum(np.angle(z[1:4]) * np.array([1.0, -2.0, 0.5]))


def parts(x):
    z = x * (1.0 + 2.0j) + 0.5j * x**2
    return np.sum(np.real(z) ** 2 + np.imag(z) * x + np.abs(np.conj(z)))


def attributes(x):
    z = np.exp(1j * x)
    return np.sum(z.real * x + z.imag**2 + z.conj().imag)


def padded_ortho(x):
    z = np.fft.fft(x, n=12, norm="ortho")
    w = np.fft.ifft(z * z, n=6, norm="forward")
    return np.sum(np.abs(z)) + np.sum(np.real(w) * np.arange(6))


def quotient(x):
    z = x.astype(complex) / (2.0 + x * 1j)
    return np.sum(np.abs(z - 0.1) + np.imag(np.mean(z)))


def shifted(x):
    z = np.fft.fftshift(np.fft.fft2(x), axes=(0,))
    z = np.reshape(z, (-1,)) * np.arange(z.size)
    return np.abs(np.sum(z) - 1.0) + np.sum(np.real(np.cumsum(z)))


def nd(x):
    z = np.fft.fftn(x, axes=(0, 1))
    return np.sum(np.abs(np.fft.ifftn(z * np.conj(z), axes=(0, 1))))


def odd_filter(x):
    y = np.fft.irfft(np.fft.rfft(x, n=9) * 1j, n=7)
    return np.sum(np.sin(y) * np.arange(7))


def degrees(x):
    return np.sum(np.angle(x + 2.0j, deg=True) ** 2)


def scalar_abs(x):
    z = complex(1.0, 2.0) * x[0]
    return abs(z + 1.0) * x[1]
"""

_AUTOGRAD = ["power", "spectral_filter", "convolution", "phases", "parts"]
_AUTOGRAD += ["padded_ortho", "quotient", "shifted", "nd"]
_SHAPES = {"convolution": (6, 4), "shifted": (4, 3), "nd": (3, 4, 2), "scalar_abs": (2,)}


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("complex"), SOURCE)


def _x(name, dtype=np.float64):
    return np.random.RandomState(5).standard_normal(_SHAPES.get(name, (8,))).astype(dtype)


@pytest.mark.parametrize("name", [*_AUTOGRAD, "attributes", "odd_filter", "degrees", "scalar_abs"])
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


@pytest.mark.parametrize("name", [*_AUTOGRAD, "attributes", "odd_filter", "degrees", "scalar_abs"])
def test_forward_mode(module, name):
    f = getattr(module, name)
    x = _x(name)
    g = tl.grad(f)(x)
    for seed in (2, 3):
        t = np.random.RandomState(seed).standard_normal(x.shape)
        value, jt = tl.jvp(f)(x, t)
        assert np.isclose(value, f(x))
        assert np.isclose(jt, np.sum(g * t), rtol=1e-9, atol=1e-10)


def test_float32(module):
    x = _x("power", np.float32)
    g = tl.grad(module.power)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, tl.grad(module.power)(x.astype(np.float64)), rtol=1e-4)


def test_two_arguments(tmp_path):
    m = load_module(
        tmp_path,
        """
import numpy as np

def circular(a, k):
    return np.sum(np.real(np.fft.ifft(np.fft.fft(a) * np.fft.fft(k))) ** 2)
""",
    )
    rng = np.random.RandomState(7)
    a, k = rng.standard_normal(6), rng.standard_normal(6)
    ga, gk = tl.grad(m.circular, wrt=(0, 1))(a, k)
    for i, g in enumerate((ga, gk)):
        check_against_fd(m.circular, g, [a, k], i)
        np.testing.assert_allclose(g, autograd_grad(m.circular, [a, k], i), rtol=1e-9)


def test_generated_code_takes_the_real_part_at_the_real_input(module):
    source = tl.grad(module.power).source
    assert "real_part(rfft_vjp(" in source
    assert "np.conj(" in source  # the complex form of np.abs


REFUSED = """
import numpy as np


def complex_output(x):
    return np.sum(np.fft.fft(x))


def real_only_rule(x):
    z = np.fft.fft(x)
    return np.sum(np.maximum(z, 0.0).real)


def real_input_transform(x):
    return np.sum(np.abs(np.fft.rfft(x * 1j)))


def helper(z):
    return np.abs(z)


def complex_to_helper(x):
    return np.sum(helper(np.fft.fft(x)))


def complex_argument(x, h):
    return np.sum(np.imag(x * h))
"""


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("refused"), REFUSED)


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("complex_output", 6, "returns a value that may be complex"),
        ("real_only_rule", 11, "maximum is applied where a value may be complex, and has a rule"),
        ("real_input_transform", 15, "rfft is applied where a value may be complex, and takes"),
        ("complex_to_helper", 23, "passed to a function tangentlike differentiates"),
    ],
)
@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_refusals_are_located(refused, name, line, message, mode):
    f = getattr(refused, name)
    x = np.linspace(0.1, 0.8, 4)
    with pytest.raises(tl.TangentlikeError) as err:
        if mode == "grad":
            tl.grad(f)(x)
        else:
            tl.jvp(f)(x, np.ones(4))
    assert message in str(err.value)
    assert err.value.location.line == line


def test_a_complex_argument_is_refused_at_run_time(refused):
    x = np.linspace(0.1, 0.8, 4)
    with pytest.raises(tl.CheckError, match="of a complex value"):
        tl.grad(refused.complex_argument)(x, np.full(4, 1j))


def test_a_complex_output_of_vjp_is_refused(refused):
    x = np.linspace(0.1, 0.8, 4)
    with pytest.raises(tl.TangentlikeError, match="returns a value that may be complex"):
        tl.vjp(refused.complex_output)(x, 1.0)


def test_grad_of_grad_through_complex_values(module):
    """rfft_vjp has a second-order rule now (rules/runtime_transforms.py; more cases in
    tests/higher/test_second_order_transforms.py): the Hessian of a power spectrum's sum,
    against central differences of the gradient. The specialised build: debug mode's
    checks in a gradient of complex values (adjoint_contribution) have no complex role."""
    x = _x("power")
    H = tl.hessian(module.power, checks=False)(x)
    columns = [fd_hvp(module.power, x, e) for e in np.eye(x.size)]
    assert np.allclose(H, np.array(columns).T, rtol=1e-5, atol=1e-6)


LOOPS = """
import numpy as np

import tangentlike as tl

H = np.exp(-0.2 * np.arange(6)) * (1.0 - 0.3j)


def diffuse(x):
    for _ in range(3):
        x = np.real(np.fft.ifft(np.fft.fft(x) * H)) + 0.1 * x
    return np.sum(x**2)


def diffuse_checkpointed(x):
    for _ in tl.checkpointed(range(4), snapshots=2):
        x = np.fft.irfft(np.fft.rfft(x) * 1j) + np.tanh(x)
    return np.sum(x**2)


def branch(x, flag):
    if flag:
        z = np.fft.fft(x)
    else:
        z = x * (1.0 + 1.0j)
    return np.sum(np.abs(z))
"""


@pytest.mark.parametrize("name", ["diffuse", "diffuse_checkpointed", "branch"])
@pytest.mark.parametrize("checks", [False, True])
def test_loops_checkpoints_and_branches(tmp_path, name, checks):
    f = getattr(load_module(tmp_path, LOOPS), name)
    x = np.random.RandomState(9).standard_normal(6)
    extra = [True] if name == "branch" else []
    for args in ([x, *extra], [x, False] if extra else None):
        if args is None:
            continue
        g = tl.grad(f, checks=checks)(*args)
        check_against_fd(f, g, args, 0)
        t = np.random.RandomState(1).standard_normal(6)
        assert np.isclose(tl.jvp(f)(*args, t)[1], np.sum(g * t), rtol=1e-9)
