"""tl.jvp inside a differentiated function: of a nested function closing over the outer
variables (lifted with them as keyword-only parameters, its tangent then passed by its
keyword: normalize/nested_grads._by_keyword) and of a function of the module. The outer
derivative differentiates through the generated jvp; checked against autograd's make_jvp
nested in autograd.grad (no perturbation confusion) and central differences
(holdout12 R7: was refused, "nested function 'h' is used as a value")."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import tangentlike as tl


def closure(x):
    def h(y):
        return np.sin(x * y)
    return tl.jvp(h)(x, 1.0)[1]


def closure_arrays(x, w):
    def h(y):
        return np.sum(np.tanh(x * y) * w)
    value, slope = tl.jvp(h)(x * 2.0, w)
    return value * slope


def closure_two_params(x):
    def h(a, b):
        return np.sum(a * b * x ** 2)
    return tl.jvp(h, wrt=1)(x, np.cos(x), x)[1]


def of_module(y, x):
    return np.sin(x * y)


def module_function(x):
    return tl.jvp(of_module)(x, x, 1.0)[1]


def with_default(y, x, c=2.0):
    return np.sin(x * y) * c


def module_function_with_default(x):
    return tl.jvp(with_default)(x, x, 1.0)[1]


def module_tuple_wrt(x):
    return tl.jvp(of_module, wrt=(0, 1))(x, x, (1.0, 1.0))[1]


def tuple_wrt(x):
    def h(a, b):
        return a * b * x
    return tl.jvp(h, wrt=(0, 1))(x, x, (1.0, 1.0))[1]
"""


def _jvp(f, args, i, t):
    """autograd's J t of f with respect to argument i."""
    return autograd.make_jvp(lambda a: f(*args[:i], a, *args[i + 1 :]))(args[i])(t)


REFERENCES = {
    "closure": lambda x: _jvp(lambda y: anp.sin(x * y), (x,), 0, 1.0)[1],
    "closure_arrays": lambda x, w: anp.prod(
        anp.stack(_jvp(lambda y: anp.sum(anp.tanh(x * y) * w), (x * 2.0,), 0, w))
    ),
    "closure_two_params": lambda x: _jvp(lambda a, b: anp.sum(a * b * x**2), (x, anp.cos(x)), 1, x)[
        1
    ],
    "module_function": lambda x: _jvp(lambda y, z: anp.sin(z * y), (x, x), 0, 1.0)[1],
}
X = np.array([0.3, -0.5, 0.8])
W = np.array([0.7, 0.2, -1.1])
ARGS = {
    "closure": (0.7,),
    "closure_arrays": (X, W),
    "closure_two_params": (X,),
    "module_function": (0.7,),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("nesting_jvp"), SOURCE, name="tl_nesting_jvp")


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_against_autograd_and_central_differences(m, name):
    f, args = getattr(m, name), ARGS[name]
    np.testing.assert_allclose(f(*args), REFERENCES[name](*args), rtol=1e-12)
    for i in range(len(args)):
        got = tl.grad(f, wrt=i)(*args)
        expected = autograd.grad(REFERENCES[name], i)(*args)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
        check_against_fd(f, got, list(args), i)


def test_closed_form(m):
    # d/dx [x cos(x y)] at y = x: cos(x^2) - 2 x^2 sin(x^2)
    x = 0.7
    assert tl.grad(m.closure)(x) == pytest.approx(np.cos(x * x) - 2 * x * x * np.sin(x * x))


def test_a_tuple_wrt_stays_refused(m):
    """Several tangents (a tuple) are not lifted: refused at the line, never guessed."""
    with pytest.raises(tl.TangentlikeError, match="used as a value"):
        tl.grad(m.tuple_wrt)(0.7)


@pytest.mark.parametrize("name", ["module_function_with_default", "module_tuple_wrt"])
def test_tangents_the_entry_takes_otherwise_are_refused(m, name):
    """A jvp whose generated entry takes its tangents by keyword (f has a default) or
    several of them: the tangent given last does not fit the entry's signature, which
    is refused at the call (never bound to another parameter)."""
    with pytest.raises(tl.TangentlikeError, match="does not match its signature") as err:
        tl.grad(getattr(m, name))(0.7)
    assert err.value.location.text.strip().startswith("return tl.jvp(")


def test_forward_over_and_second_order(m):
    """jvp of the outer function (forward over forward) and its hvp (forward over reverse
    over forward) against autograd."""
    ref = REFERENCES["closure_arrays"]
    v = np.array([1.0, -0.3, 0.2])
    expected = np.dot(autograd.grad(ref)(X, W), v)
    np.testing.assert_allclose(tl.jvp(m.closure_arrays)(X, W, v)[1], expected, rtol=1e-9)
    expected = autograd.grad(lambda a: anp.dot(autograd.grad(ref)(a, W), v))(X)
    np.testing.assert_allclose(tl.hvp(m.closure_arrays)(X, W, v), expected, rtol=1e-8)
