"""optimize/numbers.py: in a build specialised to Python-number arguments, NumPy's unary
functions of numbers become `math` calls (floats stay floats), only where every value
they make meets other numbers; math's errors fall back to the generic build."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

def iterate(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x

def branchy(x, c):
    y = np.exp(-x * x) + np.log(1.0 + c * c)
    if y > 0.5:
        y = np.tanh(y) * np.sqrt(c)
    return y * x

def meets_array(x, W):
    s = np.sin(x)
    return np.sum(W * s)

def log_of(x, a):
    y = np.log(x * a)
    return y * y
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("numbers"), SOURCE)


def _body(text: str) -> str:
    """The generated function's code, without its comments."""
    body = text.split("\ndef d", 1)[1]
    return "\n".join(line.split("#")[0] for line in body.splitlines())


@pytest.mark.parametrize("x, a", [(0.5, 0.9), (-1.3, 1.1), (2.0, 0.7)])
def test_a_scalar_map_runs_on_floats(m, x, a):
    df = tl.grad(m.iterate, wrt=(0, 1), checks=False)
    gx, ga = df(x, a, 30)
    key = next(iter(df.specialised))
    body = _body(df.specialised[key])
    assert "math.sin(x)" in body and "math.cos(x)" in body and "np." not in body
    assert "import math" in df.specialised[key]
    assert "np.sin(x)" in _body(df.source)  # the generic build keeps NumPy's
    assert type(gx) is float and type(ga) is float
    for i, g in enumerate((gx, ga)):
        check_against_fd(m.iterate, g, (float(x), float(a), 30), i, rtol=1e-5)
        assert g == pytest.approx(autograd_grad(m.iterate, (float(x), float(a), 30), i), rel=1e-12)


@pytest.mark.parametrize("x, c", [(0.4, 1.2), (1.5, 0.3)])  # both sides of the branch
def test_branches_and_several_functions(m, x, c):
    df = tl.grad(m.branchy, wrt=(0, 1), checks=False)
    grads = df(x, c)
    body = _body(next(iter(df.specialised.values())))
    assert "math.exp(" in body and "math.tanh(" in body and "math.sqrt(" in body
    for i, g in enumerate(grads):
        check_against_fd(m.branchy, g, (x, c), i, rtol=1e-5)
        assert g == pytest.approx(autograd_grad(m.branchy, (x, c), i), rel=1e-12)


def test_a_value_meeting_an_array_keeps_numpy(m):
    # float32 W times NumPy's float64 sin is a float64 array; times a float it is float32
    W = np.array([1.0, -2.0, 0.5], dtype=np.float32)
    df = tl.grad(m.meets_array, wrt=(0, 1), checks=False)
    gx, gW = df(0.7, W)
    assert "math." not in next(iter(df.specialised.values()))
    assert gW.dtype == np.float32
    check_against_fd(m.meets_array, gx, (0.7, W.astype(np.float64)), 0, rtol=1e-5)


def test_math_errors_run_the_generic_build(m):
    # np.log(0.0) is -inf where math.log raises: the call runs the generic build
    df = tl.grad(m.log_of, wrt=(0, 1), checks=False)
    df(2.0, 1.5)
    assert "math.log(" in _body(next(iter(df.specialised.values())))
    generic = tl.grad(m.log_of, wrt=(0, 1), checks=True)  # debug mode: the generic build
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got, expected = df(0.0, 1.5), generic(0.0, 1.5)
    np.testing.assert_array_equal(np.array(got), np.array(expected))
    assert not np.isfinite(got[0])
