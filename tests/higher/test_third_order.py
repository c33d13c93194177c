"""Third and fourth derivatives (the gradient of a second-order gradient) through loops,
branches, while loops, lists and helpers, against autograd and against central differences
of the second derivative.

Third order once came out wrong with no error (30 for 36 through a loop; 2 for 6 through
two helper calls): the adjoint of a name holding a container adjoint in the
differentiable form (`b_stack = add_item(...)`, a split variant's adjoint parameter read
through `part`) was accumulated with `+`, which concatenated two lists. The cases below
are the shapes that exercised it."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

PROGRAMS = """
import numpy as np

def affine_loop(x):
    s = 1.0
    for i in range(3):
        s = s * x + 1.0
    return s

def product_loop(x):
    s = x
    for i in range(4):
        s = s * x
    return s

def branch_in_loop(x):
    s = 0.5
    for i in range(4):
        if s > 1.0:
            s = s * x - 0.3
        else:
            s = s + x * x
    return s

def while_loop(x):
    s = x
    k = 0
    while k < 3:
        s = np.sin(s) * x + s
        k = k + 1
    return s

def list_in_loop(x):
    parts = [x, x * x, np.cos(x)]
    s = 0.25
    for p in parts:
        s = s * p + 1.0
    return s

def helper(s, x):
    return s * np.tanh(x) + x

def two_helper_calls(x):
    s = helper(x, x)
    return helper(s, x) * x

def helper_in_loop(x):
    s = x
    for i in range(3):
        s = helper(s, x)
    return s

def array_loop(x):
    v = np.array([0.5, -1.0, 2.0]) * x
    for i in range(3):
        v = np.tanh(v) * x + v
    return np.sum(v * v)

def nested_loops(x):
    s = x
    for i in range(2):
        for j in range(2):
            s = s * x + np.exp(-s * 0.1)
    return s
"""

NAMES = [
    "affine_loop",
    "product_loop",
    "branch_in_loop",
    "while_loop",
    "list_in_loop",
    "two_helper_calls",
    "helper_in_loop",
    "array_loop",
    "nested_loops",
]


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("third"), PROGRAMS)


def _nth(grad, f, n):
    for _ in range(n):
        f = grad(f)
    return f


@pytest.mark.parametrize("name", NAMES)
def test_third_derivative_through_loops_agrees_with_autograd(programs, name):
    f = getattr(programs, name)
    third = _nth(tl.grad, f, 3)
    second = _nth(tl.grad, f, 2)
    for x in (0.7, 1.3):
        expected = _nth(autograd.grad, f, 3)(x)
        assert third(x) == pytest.approx(expected, rel=1e-8, abs=1e-10)
        h = 1e-5
        differences = (second(x + h) - second(x - h)) / (2 * h)
        assert third(x) == pytest.approx(differences, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_fourth_derivative_through_loops_agrees_with_autograd(programs, name):
    """branch_in_loop and nested_loops reach unmul_vjp (the third-order code's adjoint of a
    product's adjoint) at fourth order: its rule, both forms (rules/runtime_helpers.py)."""
    f = getattr(programs, name)
    fourth = _nth(tl.grad, f, 4)
    third = _nth(tl.grad, f, 3)
    for x in (0.7, 1.3):
        assert fourth(x) == pytest.approx(_nth(autograd.grad, f, 4)(x), rel=1e-8, abs=1e-10)
        h = 1e-5
        differences = (third(x + h) - third(x - h)) / (2 * h)
        assert fourth(x) == pytest.approx(differences, rel=1e-5, abs=1e-6)


def test_hvp_of_a_gradient_through_a_loop(programs):
    """Forward over reverse over reverse: the Hessian-vector product of the gradient of a
    looping function is its third derivative along v (a scalar here)."""
    f = programs.affine_loop
    hv = tl.hvp(tl.grad(f), wrt=0)
    x, v = 1.5, 0.25
    assert np.allclose(hv(x, v), _nth(autograd.grad, f, 3)(x) * v)
