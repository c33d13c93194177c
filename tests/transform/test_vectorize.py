"""np.vectorize(h)(x) and np.apply_along_axis(h, axis, a) with a user function h (issue
13): lowered to a comprehension over x's entries (a's 1-D slices), so h's body is
differentiated. Gradients against central differences
(autograd has no rule for vectorize), tangents against reverse mode (one direction
and k at once), and the forms it does not lower refused with their location."""

from __future__ import annotations

import numpy as np
import pytest
from forward.corpus_check import check_case, check_vector
from reference import fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def h(t):
    if t > 0.5:
        return np.sin(t) * t
    return t ** 3 - 1.0


def scalar_branches(x):
    return np.sum(np.vectorize(h)(x) ** 2)


def of_a_ufunc(x):
    y = x * 2.0
    return np.sum(np.vectorize(np.tanh)(y) * x)


def of_a_number(x):
    z = np.vectorize(h)(1.5)
    return np.sum(x * z)


def row_norm(r):
    return np.sqrt(np.sum(r ** 2) + 0.1) * r[0]


def row_map(r, w):
    return np.cumsum(r * w)[:2]


def along_rows(x):
    return np.sum(np.apply_along_axis(row_norm, 1, x) ** 2)


def along_columns_to_vectors(x):
    w = x[0, 0]
    y = np.apply_along_axis(row_map, 0, x, w)
    return np.sum(np.sin(y) * np.arange(y.size).reshape(y.shape))


def along_the_last_of_three(x):
    t = np.reshape(x, (2, 1, 3))
    a = -1
    return np.sum(np.apply_along_axis(row_norm, a, t))
"""

REFUSED = """
import numpy as np


def h(t, u=1.0):
    return t * u


def two_arguments(x):
    return np.sum(np.vectorize(h)(x, x))


def otypes(x):
    return np.sum(np.vectorize(h, otypes=[float])(x))


def an_expression(x):
    return np.sum(np.vectorize(h)(x * 2.0))


def k(t):
    return 1 if t > 0 else t * 2.0


def mixed_kinds(x):  # vectorize casts to the first result's int: refused at run time
    return np.sum(np.vectorize(k)(x) * x)


def along_with_keywords(x):
    return np.sum(np.apply_along_axis(h, axis=0, arr=x))
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("vectorize"), SOURCE)


X = np.array([[0.3, 0.9, -0.4], [1.2, 0.6, -1.1]])


NAMES = ["scalar_branches", "of_a_ufunc", "of_a_number", "along_rows"]
NAMES += ["along_columns_to_vectors", "along_the_last_of_three"]


@pytest.mark.parametrize("name", NAMES)
def test_reverse_and_forward(module, name):
    f = getattr(module, name)
    g = tl.grad(f)(X)
    np.testing.assert_allclose(g, fd_gradient(f, [X], 0), rtol=1e-6, atol=1e-8)
    check_case(f, [X], (0,))
    check_vector(f, [X], (0,))


def test_second_order_matches_differences_of_the_gradient(module):
    """Refused until the comprehension's appends had second-order rules (rules11); now
    the Hessian-vector product is checked against central differences of the gradient."""
    v = np.random.RandomState(0).standard_normal(X.shape)
    f = module.scalar_branches
    hv = tl.hvp(f)(X, v)
    grad, eps = tl.grad(f), 1e-6
    expected = (grad(X + eps * v) - grad(X - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hv, expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("two_arguments", 10),
        ("otypes", 14),
        ("an_expression", 18),
        ("mixed_kinds", 26),
        ("along_with_keywords", 30),
    ],
)
def test_what_is_not_lowered_is_refused_with_a_location(tmp_path, name, line):
    refused = load_module(tmp_path, REFUSED)
    with pytest.raises((TangentlikeError, ValueError)) as err:
        tl.grad(getattr(refused, name))(X)
    message = str(err.value)
    assert f"{refused.__name__}.py:{line}:" in message or name == "mixed_kinds", message
    assert "What to do" in message, message
