"""Derivatives inside differentiated functions: no perturbation confusion.

A derivative taken inside a function that is itself differentiated, of a closure
over a variable the outer derivative varies, must keep the two levels apart
(Siskind and Pearlmutter's `d/dx [x * d/dy (x + y)] = 1`, which a naive nesting
gets as 2). Each case is checked against its closed form and central differences."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import tangentlike as tl


def classic(x):
    def inner(y):
        return x + y

    return x * tl.grad(inner)(1.0)


def at_x(x):
    def inner(y):
        return x * y * y

    return x * tl.grad(inner)(x)


def stored(x, a):
    def inner(y):
        return np.sum(np.sin(x * y))

    g = tl.grad(inner)
    return np.sum(g(a) * x)


def two_levels(x):
    def middle(y):
        def inner(z):
            return x * y * z * z

        return y * tl.grad(inner)(y)

    return tl.grad(middle)(x) * x


def in_loop(x):
    def inner(y):
        return np.sum(x * np.exp(y))

    total = 0.0
    for k in range(3):
        total = total + np.sum(tl.grad(inner)(x * k))
    return total


def keyword_wrt(x, b):
    def inner(y, c):
        return np.sum(y * c * x)

    return np.sum(tl.grad(inner, wrt="c")(b, x) ** 2)


def g(x, y):
    return x * y**2


dg = tl.grad(g, wrt=1)


def calls_a_global_gradient(x):
    return x * dg(x, 1.0)


def h(x, y):
    return np.sum(np.sin(x * y))


dh = tl.grad(h, wrt=1)


def global_gradient_of_arrays(x, y):
    return np.sum(dh(x, y) * x)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("nesting"), SOURCE, name="tl_nesting_cases")


def test_the_classic_shape_is_one(m):
    assert m.classic(2.0) == pytest.approx(2.0)
    assert tl.grad(m.classic)(2.0) == pytest.approx(1.0)  # not 2.0


def test_inner_derivative_at_the_outer_variable(m):
    # x * d/dy (x y^2) at y = x is 2 x^3: its derivative is 6 x^2
    assert tl.grad(m.at_x)(1.5) == pytest.approx(6 * 1.5**2)


def test_two_levels_of_nesting(m):
    # inner: d/dz (x y z^2) at z = y is 2 x y^2; middle(y) = 2 x y^3; d/dy at x: 6 x^3
    # two_levels(x) = 6 x^4: its derivative 24 x^3
    assert m.two_levels(1.3) == pytest.approx(6 * 1.3**4)
    assert tl.grad(m.two_levels)(1.3) == pytest.approx(24 * 1.3**3)


@pytest.mark.parametrize(
    "name,args",
    [
        ("stored", (np.array([0.3, 0.5]), np.array([0.7, -0.2]))),
        ("in_loop", (np.array([0.3, -0.4, 0.1]),)),
        ("keyword_wrt", (np.array([0.3, 0.5]), np.array([1.2, -0.7]))),
        ("global_gradient_of_arrays", (np.array([0.3, 0.5]), np.array([0.7, -0.2]))),
    ],
)
def test_against_central_differences(m, name, args):
    f = getattr(m, name)
    for i in range(len(args)):
        check_against_fd(f, tl.grad(f, wrt=i)(*args), list(args), i)


def test_a_gradient_called_inside_a_differentiated_function(m):
    assert tl.grad(m.calls_a_global_gradient)(1.5) == pytest.approx(4 * 1.5)


def test_hvp_of_a_function_taking_an_inner_derivative(m):
    x = np.array([0.3, -0.4, 0.1])
    v = np.array([1.0, 0.5, -2.0])
    eps = 1e-6
    g = tl.grad(m.in_loop)
    fd = (g(x + eps * v) - g(x - eps * v)) / (2 * eps)
    assert np.allclose(tl.hvp(m.in_loop)(x, v), fd, rtol=1e-5, atol=1e-7)
