"""jit=True gives the gradient the Python adjoint gives, on loops, branches, while loops,
helpers and reductions over scalars and 1-D arrays: checked against the plain gradient,
central differences and autograd (numba absent: skipped)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

pytest.importorskip("numba")

SOURCE = """
import math

import numpy as np


def scalar_map(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x


def math_calls(x, y):
    s = 0.0
    for i in range(5):
        s = s + math.exp(-x * i) * math.cos(y + i)
    return s / (1.0 + x * x)


def while_loop(x):
    y = x
    n = 0
    while n < 6:
        y = y * 0.9 + np.cos(y)
        n = n + 1
    return y


def branches(x, a):
    if x > 0.0:
        y = x * a
    else:
        y = -x / a
    return y * y + a


def early_return(x, a):
    if a > 1.0:
        return x * a
    return x ** 3


def square(u, c):
    return u * u + c


def with_helper(x, a):
    s = 0.0
    for i in range(4):
        s = s + square(x, a) * i
    return s


def logsumexp(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)


def reductions(x, w):
    t = 0.0
    for i in range(x.shape[0]):
        t = t + np.tanh(x[i] * w[i])
    return t + np.sum(x * x) + np.dot(w, x)


def nested_loops(x):
    total = 0.0
    for i in range(len(x)):
        for j in range(i):
            total = total + x[i] * x[j]
    return total


def array_loop(q, v, dt, steps):
    for _ in range(steps):
        stretch = np.diff(np.concatenate(([0.0], q, [0.0])))
        force = stretch[1:] - stretch[:-1]
        q, v = q + dt * v, v + dt * force
    return np.sum(q * q) + 0.1 * np.sum(v * v)


def running_product(x):
    p = 1.0
    for i in range(len(x)):
        p = p * (1.0 + 0.1 * x[i])
        if p > 2.0:
            p = p / 2.0
    return p


def vector_ops(x, y):
    z = x * y + np.exp(-x) / (1.0 + y * y)
    return np.sum(np.sqrt(z * z + 1.0)) + np.max(x) * 0.5


def rolled(x):
    return np.sum(np.roll(x, 2) * x)


def accumulate(x):
    out = 0.0
    k = 0
    while k < len(x):
        out = out + x[k] ** 2 * (k + 1)
        k = k + 2
    return out
"""

RNG = np.random.default_rng(3)
VEC = RNG.standard_normal(6)
POS = np.abs(RNG.standard_normal(6)) + 0.5

# (function, arguments, wrt)
CASES = [
    ("scalar_map", (0.5, 0.9, 30), (0, 1)),
    ("math_calls", (0.4, 0.3), (0, 1)),
    ("while_loop", (0.3,), 0),
    ("branches", (1.2, 0.7), (0, 1)),
    ("branches", (-1.2, 0.7), (0, 1)),
    ("early_return", (1.3, 2.0), 0),
    ("early_return", (1.3, 0.5), 0),
    ("with_helper", (1.5, 0.3), (0, 1)),
    ("logsumexp", (VEC * 3.0,), 0),
    ("reductions", (VEC, POS), (0, 1)),
    ("nested_loops", (VEC,), 0),
    ("array_loop", (VEC, POS, 0.01, 20), (0, 1)),
    ("running_product", (POS * 3.0,), 0),
    ("vector_ops", (VEC, POS), (0, 1)),
    ("accumulate", (VEC,), 0),
    ("rolled", (VEC,), 0),
    ("scalar_map", (np.float64(0.5), 0.9, 30), (0, 1)),  # a NumPy scalar: the generic build
]


def autograd_grad(f, args, i):
    """autograd's gradient of a copy of f whose `np` and `math` are autograd.numpy."""
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    g = types.FunctionType(f.__code__, {**f.__globals__, "np": anp, "math": anp}, f.__name__)
    return autograd.grad(g, i)(*args)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jit"), SOURCE)


def _ids(case):
    name, args, _ = case
    return f"{name}-{type(args[0]).__name__}-{np.sign(np.sum(args[0])):+.0f}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_compiled_gradient_matches_python_fd_and_autograd(m, case):
    name, args, wrt = case
    f = getattr(m, name)
    compiled = tl.grad(f, wrt=wrt, jit=True)(*args)
    plain = tl.grad(f, wrt=wrt)(*args)
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    got = compiled if isinstance(wrt, tuple) else (compiled,)
    expected = plain if isinstance(wrt, tuple) else (plain,)
    for i, g, e in zip(positions, got, expected, strict=True):
        assert type(g) is type(e)
        assert np.shape(g) == np.shape(e)
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-14)
        check_against_fd(f, g, args, i)
        np.testing.assert_allclose(g, autograd_grad(f, args, i), rtol=1e-9, atol=1e-12)


def test_value_and_grad_and_vjp_compile(m):
    x = VEC * 3.0
    value, (g,) = tl.value_and_grad(m.logsumexp, wrt=(0,), jit=True)(x)
    assert value == pytest.approx(m.logsumexp(x))
    np.testing.assert_allclose(g, tl.grad(m.logsumexp)(x), rtol=1e-12)
    seed = 2.5
    pulled = tl.vjp(m.logsumexp, jit=True)(x, seed)
    np.testing.assert_allclose(pulled, seed * g, rtol=1e-12)


def test_one_gradient_serves_floats_and_arrays(m):
    """Each argument signature gets its own build and compiled code."""
    dj = tl.grad(m.vector_ops, wrt=(0, 1), jit=True)
    for args in ((0.3, 1.5), (VEC, POS)):
        got = dj(*args)
        expected = tl.grad(m.vector_ops, wrt=(0, 1))(*args)
        for g, e in zip(got, expected, strict=True):
            assert type(g) is type(e)
            np.testing.assert_allclose(g, e, rtol=1e-12)
    assert len(dj.jit_sources) == 2


def test_float32_gradients_keep_their_dtype(m):
    x = (VEC * 3.0).astype(np.float32)
    g = tl.grad(m.logsumexp, jit=True)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, tl.grad(m.logsumexp)(x), rtol=1e-5)


def test_keyword_arguments_and_defaults(m):
    dj = tl.grad(m.array_loop, wrt=(0, 1), jit=True)
    by_position = dj(VEC, POS, 0.01, 20)
    by_name = dj(VEC, POS, dt=0.01, steps=20)
    for a, b in zip(by_position, by_name, strict=True):
        np.testing.assert_array_equal(a, b)
