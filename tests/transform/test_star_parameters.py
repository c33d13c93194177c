"""Differentiated values passed into a callee's own `*xs` (`def g(a, *xs)`, called
`g(x, y, 2.0, y * x)`): the callee's adjoint returns one for the collected tuple and the
caller takes item k for the k-th collected argument (constants skipped, the same name
twice accumulated); forward mode passes the tuple of tangents. Against autograd and
central differences, in loops, with ragged shapes, nested, at second order."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, directional_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def weighted(a, *xs):
    s = 0.0
    for k, x in enumerate(xs):
        s = s + a * (k + 1) * np.sum(np.sin(x))
    return s


def pairs(*xs):
    return np.sum(xs[0] * xs[1]) + np.sum(xs[-1] ** 2)


def relay(a, *xs):
    return weighted(a, xs[0], xs[1] * a) + pairs(xs[1], xs[0], a)


def mixed(x, y):
    return weighted(x, y, 2.0, y * x) + pairs(x, x, y[:1])


def same_twice(x, y):
    return pairs(y, y, x)


def ragged(x, y):
    return weighted(1.5, x, y, x[0]) * pairs(y[:2], x, y)


def in_a_loop(x, y):
    s = 0.0
    for k in range(3):
        s = s + weighted(x * k, y, y * x) / (k + 1.0)
    return s


def nested(x, y):
    return relay(x, y, y * 2.0, x)
"""
ARGS = (np.array([0.3, -0.8]), np.array([0.5, 1.2, -0.4]))
FLOAT_FIRST = {"mixed", "same_twice", "in_a_loop", "nested"}


def _args(name):
    x, y = ARGS
    return (0.7, y) if name in FLOAT_FIRST else (x, y)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("starparams"), SOURCE, "star_parameters")


NAMES = ["mixed", "same_twice", "ragged", "in_a_loop", "nested"]


@pytest.mark.parametrize("name", NAMES)
def test_reverse_mode_against_autograd_and_differences(m, name):
    import autograd

    f, args = getattr(m, name), _args(name)
    grads = tl.grad(f, wrt=(0, 1))(*args)
    rng = np.random.default_rng(1)
    for i, g in enumerate(grads):
        expected = autograd.grad(autograd_version(f), i)(*args)
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)
        u = rng.standard_normal(np.shape(args[i])) if np.ndim(args[i]) else 1.0
        fd = directional_fd(f, list(args), i, u)
        np.testing.assert_allclose(np.sum(g * u), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", NAMES)
def test_forward_mode_matches_reverse_mode(m, name):
    f, args = getattr(m, name), _args(name)
    grads = tl.grad(f, wrt=(0, 1))(*args)
    t = (1.0 if np.ndim(args[0]) == 0 else np.array([1.0, -2.0]), np.array([0.5, 0.25, -1.0]))
    value, tangent = tl.jvp(f, wrt=(0, 1))(*args, t)
    assert np.isclose(value, f(*args), rtol=1e-12)
    expected = sum(np.sum(g * d) for g, d in zip(grads, t, strict=True))
    np.testing.assert_allclose(tangent, expected, rtol=1e-10)


def test_second_order_through_star_parameters(m):
    f, (x, y) = m.mixed, _args("mixed")
    second = tl.grad(tl.grad(f))(x, y)
    eps = 1e-5
    fd = (tl.grad(f)(x + eps, y) - tl.grad(f)(x - eps, y)) / (2 * eps)
    np.testing.assert_allclose(second, fd, rtol=1e-6)
    v = np.array([0.3, -0.2, 0.9])
    hv = tl.hvp(f, wrt=1)(x, y, v)
    fd = (tl.grad(f, wrt=1)(x, y + eps * v) - tl.grad(f, wrt=1)(x, y - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hv, fd, rtol=1e-6, atol=1e-8)
