"""A range loop whose body rebinds its target (`for i in range(n): i = i + 1`).

The backward sweep runs the loop's positions again in reverse; it used to take them for
the target's value, so every read of x[i] after the rebinding got the adjoint of the
wrong item (a gradient shifted by one, with no error). Each program is checked against
central differences and autograd, in reverse mode (plain, specialised and
checkpointed loops), forward mode and second order.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

PROGRAMS = """
import numpy as np
import tangentlike as tl


def shifted(x):
    total = 0.0
    for i in range(len(x) - 1):
        i = i + 1
        total = total + np.tanh(x[i])
    return total


def augmented(x):
    total = 0.0
    for i in range(len(x) - 1):
        i += 1
        total = total + np.tanh(x[i]) * x[i - 1]
    return total


def on_one_path(x):
    total = 0.0
    for i in range(3):
        if i > 0:
            i = 2 * i
        total = total + x[i] * x[i]
    return total


def in_an_inner_loop(x):
    total = 0.0
    for i in range(2):
        for j in range(2):
            i = i + j
            total = total + np.sin(x[i]) * x[j + 3]
    return total


def checkpointed(x):
    s = x[0] * 1.0
    for i in tl.checkpointed(range(len(x) - 2), snapshots=2):
        i = len(x) - 1 - i
        s = np.sin(s) * x[i] + x[i - 1]
    return s
"""

NAMES = ["shifted", "augmented", "on_one_path", "in_an_inner_loop", "checkpointed"]
X = np.array([0.3, -0.7, 1.1, 0.4, -0.2, 0.9])


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rebound"), PROGRAMS, "rebound_targets")


@pytest.mark.parametrize("name", NAMES)
def test_reverse_mode_follows_the_rebound_target(programs, name):
    f = getattr(programs, name)
    expected = fd_gradient(f, [X.copy()], 0)
    df = tl.grad(f)
    for _ in range(3):  # the generic build, then the one specialised to x's signature
        np.testing.assert_allclose(df(X.copy()), expected, rtol=1e-6, atol=1e-8)
    if name != "checkpointed":  # autograd has no checkpoint marker
        np.testing.assert_allclose(df(X.copy()), autograd_grad(f, [X.copy()], 0), rtol=1e-10)


@pytest.mark.parametrize("name", NAMES)
def test_forward_and_second_order_follow_it(programs, name):
    f = getattr(programs, name)
    t = np.linspace(-1.0, 1.0, X.size)
    value, tangent = tl.jvp(f)(X.copy(), t)
    np.testing.assert_allclose(value, f(X.copy()))
    np.testing.assert_allclose(tangent, fd_gradient(f, [X.copy()], 0) @ t, rtol=1e-6, atol=1e-8)
    if name == "checkpointed":
        return  # a gradient with checkpointed loops is not differentiated again (refused)
    g = tl.grad(f)
    eps = 1e-5
    second = (g(X + eps * t) - g(X - eps * t)) / (2 * eps)
    np.testing.assert_allclose(tl.hvp(f)(X.copy(), t), second, rtol=1e-5, atol=1e-7)


def test_the_generated_loop_copies_its_position_to_the_target(programs):
    code = [line.split("#")[0].strip() for line in tl.grad(programs.shifted).source.splitlines()]
    assert "for _i1 in _r3:" in code and "for _i1 in reversed(_r3):" in code
    assert "i = _i1" in code  # the user's i, saved and restored as any variable
