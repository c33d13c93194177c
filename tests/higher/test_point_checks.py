"""hvp and hessian refuse a point that is not differentiable, and a vector v of the wrong
shape or structure, naming the user's function and argument (they named the generated
gradient, `df`, and said "jvp: the tangent of x": holdout13 N5)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import CheckError, WrtError

SOURCE = """
import numpy as np


def f(x, n_steps):
    s = 0.0
    for i in range(n_steps):
        s = s + np.sum(np.sin(x) * i)
    return s


def g(x):
    return np.sum(x ** 3)


def h(x, a):
    return np.sum(np.sin(x)) * a
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("points"), SOURCE, name="tl_point_checks")


@pytest.mark.parametrize(
    "call",
    [
        lambda m: tl.hvp(m.f, wrt=1)(np.ones(3), 3, 1.0),
        lambda m: tl.hessian(m.f, wrt=1)(np.ones(3), 3),
        lambda m: tl.hessian(m.f, wrt=1, method="reverse")(np.ones(3), 3),
    ],
)
def test_an_integer_argument_is_refused_naming_the_function(m, call):
    with pytest.raises(WrtError) as err:
        call(m)
    text = str(err.value)
    assert "cannot differentiate f with respect to 'n_steps'" in text
    assert "df" not in text.split()


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_a_vector_of_another_shape_is_refused(m, method):
    with pytest.raises(CheckError) as err:
        tl.hvp(m.g, method=method)(np.ones(3), np.ones(4))
    text = str(err.value)
    assert "hvp of g: v has shape (4,) for 'x', whose shape is (3,)" in text
    assert "jvp" not in text


def test_a_tuple_wrt_takes_a_tuple_of_vectors(m):
    with pytest.raises(CheckError, match="takes v as a tuple of 2 vectors"):
        tl.hvp(m.h, wrt=(0, 1))(np.ones(3), 3.0, np.ones(3))


def test_the_checks_leave_right_calls_alone(m):
    x = np.array([0.5, -1.0, 2.0])
    assert np.allclose(tl.hvp(m.g)(x, np.ones(3)), 6.0 * x)
    assert np.allclose(tl.hessian(m.g)(x), np.diag(6.0 * x))
    hv = tl.hvp(m.h, wrt=(0, 1))(x, 3.0, (np.ones(3), 0.0))
    assert np.allclose(hv[0], -3.0 * np.sin(x)) and np.isclose(hv[1], np.sum(np.cos(x)))
