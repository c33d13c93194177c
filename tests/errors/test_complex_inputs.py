"""Complex arguments are refused (a gradient with respect to one would need a convention for
the caller); complex values made inside a real function are followed
(tests/rules/test_complex_fft.py), and a complex output is refused."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import WrtError

SOURCE = """\
import numpy as np


def f(x, y):
    return np.sum(np.real(x) * y)


def g(p, y):
    return np.sum(np.real(p["w"][0]) * y)
"""

COMPLEX_DTYPES = [np.complex64, np.complex128, np.clongdouble]


@pytest.fixture
def module(tmp_path):
    return load_module(tmp_path, SOURCE)


VALUES = [
    pytest.param(1.0 + 2.0j, "complex (complex)", id="python complex"),
    pytest.param(complex(1.0), "complex (complex)", id="python complex, zero imaginary part"),
    *(
        pytest.param(np.ones(3, dtype=t), f"complex ({np.dtype(t)})", id=f"{np.dtype(t)} array")
        for t in COMPLEX_DTYPES
    ),
    *(
        pytest.param(t(1.0), f"complex ({np.dtype(t)})", id=f"{np.dtype(t)} scalar")
        for t in COMPLEX_DTYPES
    ),
    pytest.param(np.array(1.0 + 1j), "complex (complex128)", id="0-d array"),
]


@pytest.mark.parametrize(("value", "kind"), VALUES)
@pytest.mark.parametrize("make", [tl.grad, tl.value_and_grad, tl.vjp])
def test_complex_arguments_are_refused(module, value, kind, make):
    df = make(module.f)
    args = (value, 2.0, 1.0) if make is tl.vjp else (value, 2.0)
    with pytest.raises(WrtError) as err:
        df(*args)
    message = str(err.value)
    assert f"cannot differentiate f with respect to 'x': it is {kind}" in message
    assert "real floating-point values only" in message
    assert "Pass real values" in message


@pytest.mark.parametrize(
    ("p", "path"),
    [
        ({"w": [np.ones(2) * 1j]}, "p['w'][0]"),
        ({"w": [np.ones(2), np.complex64(1.0)]}, "p['w'][1]"),
        ({"w": (np.ones(2), 2j)}, "p['w'][1]"),
        ({"w": [np.ones(2)], "c": np.ones(2, np.complex128)}, "p['c']"),
    ],
)
def test_complex_leaves_of_containers_are_refused(module, p, path):
    with pytest.raises(WrtError) as err:
        tl.grad(module.g)(p, 2.0)
    assert f"with respect to {path!r}: it is complex" in str(err.value)


def test_complex_values_may_pass_alongside(module):
    # not differentiated: y's gradient only
    assert tl.grad(module.f, wrt=1)(np.ones(3) * (1 + 1j), 2.0) == pytest.approx(3.0)


INTERMEDIATES = """\
import numpy as np


def real_part(x):
    return np.real(np.sum(np.exp(1j * x)))


def squared_modulus(x):
    z = np.exp(1j * x) * x
    return np.real(np.sum(z * np.conj(z)))


def complex_sum(x):
    return np.sum(np.exp(1j * x))


def complex_array(x):
    return np.exp(1j * x)
"""


@pytest.mark.parametrize("name", ["real_part", "squared_modulus"])
@pytest.mark.parametrize("checks", [False, True])
def test_complex_values_on_the_gradient_path_are_followed(tmp_path, name, checks):
    # squared_modulus is x ** 2: its gradient once came back as the real part of a
    # complex adjoint, [0.497, 0.560] for [0.6, 1.0] at x = [0.3, 0.5]; then it was
    # refused; now complex intermediates follow autograd's convention
    f = getattr(load_module(tmp_path, INTERMEDIATES), name)
    x = np.array([0.3, 0.5])
    g = tl.grad(f, checks=checks)(x)
    expected = 2.0 * x if name == "squared_modulus" else -np.sin(x)
    np.testing.assert_allclose(g, expected, rtol=1e-12)


@pytest.mark.parametrize(("name", "line"), [("complex_sum", 14), ("complex_array", 18)])
@pytest.mark.parametrize("make", [tl.grad, tl.vjp])
def test_a_complex_output_is_refused_at_its_return(tmp_path, name, line, make):
    f = getattr(load_module(tmp_path, INTERMEDIATES), name)
    x = np.array([0.3, 0.5])
    with pytest.raises(tl.TangentlikeError) as err:
        make(f)(x) if make is tl.grad else make(f)(x, np.ones(2))
    assert "returns a value that may be complex" in str(err.value)
    assert err.value.location.line == line
