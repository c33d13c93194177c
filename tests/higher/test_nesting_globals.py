"""Derivatives of functions of the module taken inside a differentiated function:
`x * tl.grad(add)(1.0, x)`, the brief's perturbation-confusion shape with the inner
function at module level (hold-out 12: refused, "calling a local variable", though
the same with a nested def or a gradient bound at module level was differentiated).
Each case against its closed form and central differences; the outer derivative
follows a rebinding of the inner function."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import tangentlike as tl


def add(y, x):
    return x + y


def classic(x):
    return x * tl.grad(add)(1.0, x)


def mul(y, x):
    return (x * y) ** 2


def at_x(x):
    return tl.grad(mul)(x, x)


def waves(a, x):
    return np.sum(np.sin(a * x))


def arrays(x):
    v, g = tl.value_and_grad(waves, wrt=1)(x, x * 2.0)
    return v + np.sum(g * x)


def scaled(y, x):
    return x * np.sum(y ** 3)


def of_vjp(x):
    return np.sum(tl.vjp(scaled)(x, x[0], 2.0) * x)


def second_of_closure(x):
    def h(y):
        return x * y ** 3

    return tl.grad(tl.grad(h))(2.0)  # 6 x y at y = 2: 12 x


def hvp_of_global(x):
    return tl.hvp(scaled)(np.ones(2), x, np.ones(2))


def hessian_of_closure(x):
    def h(y):
        return x * y ** 4

    return tl.hessian(h)(1.0)
"""


@pytest.fixture
def m(tmp_path):
    return load_module(tmp_path, SOURCE)


def test_the_classic_shape_is_one(m):
    assert tl.grad(m.classic)(0.7) == pytest.approx(1.0)  # not 2.0
    assert tl.jvp(m.classic)(0.7, 1.0)[1] == pytest.approx(1.0)


def test_inner_derivative_at_the_outer_variable(m):
    # d/dy (x y)^2 at y = x is 2 x^3: its derivative 6 x^2
    assert tl.grad(m.at_x)(0.7) == pytest.approx(6 * 0.49)
    assert tl.hvp(m.at_x)(0.7, 1.0) == pytest.approx(12 * 0.7)


@pytest.mark.parametrize("name", ["arrays", "of_vjp"])
def test_against_central_differences(m, name):
    f = getattr(m, name)
    x = np.array([0.3, -0.5, 0.8])
    check_against_fd(f, tl.grad(f)(x), [x], 0)
    v = np.array([1.0, -0.5, 0.25])
    eps = 1e-6
    g = tl.grad(f)
    fd = (g(x + eps * v) - g(x - eps * v)) / (2 * eps)
    assert np.allclose(tl.hvp(f)(x, v), fd, rtol=1e-5, atol=1e-7)


def test_grad_of_grad_of_a_closure(m):
    # once refused naming the generated '_dh1' ("the nested function '_dh1' is used as a value")
    assert tl.grad(m.second_of_closure)(0.7) == pytest.approx(12.0)
    assert tl.jvp(m.second_of_closure)(0.7, 1.0)[1] == pytest.approx(12.0)


def test_hessian_of_a_closure_is_refused_at_the_users_line(m):
    # once refused inside tangentlike's own higher/api.py (the wrapper's *args)
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.grad(m.hessian_of_closure)(0.7)
    message = str(err.value)
    assert m.__file__ in message and "tl.hessian(h)(1.0)" in message and "'h'" in message


def test_hvp_of_a_global_is_refused_saying_what_is_called(m):
    # once "calling a local variable is not supported yet": there is no local variable
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.grad(m.hvp_of_global)(0.7)
    message = str(err.value)
    assert "calling what a call returns" in message and "`tl.hvp(...)`" in message
    assert m.__file__ in message and "tl.hvp(scaled)(np.ones(2), x, np.ones(2))" in message


def test_rebinding_the_inner_function_reaches_the_outer_derivative(m):
    d = tl.grad(m.classic)
    assert d(0.7) == pytest.approx(1.0)

    def add(y, x):
        return x * y

    m.add = add  # classic(x) = x * x: its derivative 2 x
    assert d(0.7) == pytest.approx(1.4)
    assert tl.grad(m.classic)(0.7) == pytest.approx(1.4)
