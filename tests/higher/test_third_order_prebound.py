"""Third order through a helper with a loop: the second derivative's differentiable form
prebinds the helper's saved temporaries to None (`_s2 = None` before the loop that binds
`_s2 = x ** _s1`), so their adjoints in the third-order code may stay None, and their
accumulation crashed with `None + None` (`b_s2 = b_s2 + part(...)`): a name ever bound
to None in a form counted as certainly an array (None is numeric: no container), whose
adjoint `+` adds. Such names are accumulated with the runtime's `add` (None is zero).
Against autograd's third derivative and central differences of tangentlike's second."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np

C = np.array([0.3, -1.2, 0.8])


def moments(x, k):
    s = 0.0
    for i in range(k):
        s = s + np.sum(x ** (i + 1))
    return s


def moments_break(x, k):
    s = 0.0
    for i in range(k):
        s = s + np.sum(x ** (i + 1))
        if s > 3.0:
            break
    return s


def one_call(x):
    return moments(x, 3) * np.sum(x)


def two_calls(x):
    return moments(x, 3) * moments(x * 2.0, 2)


def early_break(x):
    return moments_break(x, 4) * np.sum(x)


def scalar_one_call(t):
    return one_call(C * t)


def scalar_two_calls(t):
    return two_calls(C * t)


def scalar_early_break(t):
    return early_break(C * t)
"""

DIRECTIONAL = """
import tangentlike as tl

V = np.array([0.2, -0.4, 0.5])
G_ONE = tl.grad(one_call)
G_TWO = tl.grad(two_calls)
G_BREAK = tl.grad(early_break)


def one_call_slope(x):
    return np.sum(G_ONE(x) * V)


def two_calls_slope(x):
    return np.sum(G_TWO(x) * V)


def early_break_slope(x):
    return np.sum(G_BREAK(x) * V)


H_ONE = tl.grad(one_call_slope)
H_TWO = tl.grad(two_calls_slope)
H_BREAK = tl.grad(early_break_slope)


def one_call_curvature(x):
    return np.sum(H_ONE(x) * V)


def two_calls_curvature(x):
    return np.sum(H_TWO(x) * V)


def early_break_curvature(x):
    return np.sum(H_BREAK(x) * V)
"""

NAMES = ["one_call", "two_calls", "early_break"]
X = np.array([0.3, 0.7, 1.1])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(
        tmp_path_factory.mktemp("third_prebound"), SOURCE + DIRECTIONAL, name="tl_third_prebound"
    )


@pytest.fixture(scope="module")
def a(tmp_path_factory):
    source = SOURCE.replace("import numpy as np", "import autograd.numpy as np")
    return load_module(tmp_path_factory.mktemp("third_prebound_ag"), source)


def _autograd_third(f, x, v):
    """<D³f(x)[v, v], v> by autograd, reverse over reverse over reverse."""
    slope = autograd.grad(lambda y: np.sum(autograd.grad(f)(y) * v))
    return float(np.sum(autograd.grad(lambda y: np.sum(slope(y) * v))(x) * v))


@pytest.mark.parametrize("name", NAMES)
def test_third_derivative_of_a_scalar_through_a_looping_helper(m, a, name):
    f, eps = getattr(m, "scalar_" + name), 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))
    for t in (0.7, 1.3):
        expected = autograd.grad(autograd.grad(autograd.grad(getattr(a, "scalar_" + name))))(t)
        assert third(t) == pytest.approx(expected, rel=1e-9)
        differences = (second(t + eps) - second(t - eps)) / (2 * eps)
        assert third(t) == pytest.approx(differences, rel=1e-5)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("route", ["grad", "hvp"])
def test_directional_third_derivative_through_a_looping_helper(m, a, name, route):
    """The gradient of <H(x) v, v> (reverse over reverse over reverse) and the hvp of
    <grad f(x), v> (forward over reverse over reverse), along v."""
    v, eps = m.V, 1e-5
    if route == "grad":
        got = float(np.sum(tl.grad(getattr(m, name + "_curvature"))(X) * v))
    else:
        got = float(np.sum(tl.hvp(getattr(m, name + "_slope"))(X, v) * v))
    assert got == pytest.approx(_autograd_third(getattr(a, name), X, v), rel=1e-9)
    curvature = getattr(m, name + "_curvature")
    differences = (curvature(X + eps * v) - curvature(X - eps * v)) / (2 * eps)
    assert got == pytest.approx(differences, rel=1e-5)
