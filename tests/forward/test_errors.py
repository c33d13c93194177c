"""Forward mode refuses what it cannot differentiate with a located, actionable error:
never a zero tangent."""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tests.reference import load_module

SOURCE = """
import numpy as np

def cube(x):
    return x * x * x

def no_forward_form(x):
    y = x * 2.0
    return np.sum(cube(y))

def bump(v):
    v[0] = v[0] + 1.0

def effects(x):
    y = x * 1.0
    bump(y)
    return y

def opaque(x):
    return np.sum(np.frompyfunc(lambda a: a, 1, 1)(x))

def plain(x, A):
    return A @ x
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("errors"), SOURCE)


def test_a_rule_without_forward_form_is_refused_with_its_line(m):
    @tl.adjoint(m.cube)  # a user rule with its reverse form only
    def dcube(result, x):
        d[x] = d[result] * 3.0 * x * x  # noqa: F821  (template notation)

    with pytest.raises(tl.TangentlikeError) as err:
        tl.jvp(m.no_forward_form)(np.ones(3), np.ones(3))
    text = str(err.value)
    assert "cube" in text and "no forward form" in text
    assert ".py:9" in text and "return np.sum(cube(y))" in text and "^" in text
    assert "vjp" in text  # what to do


def test_a_call_for_its_effects_on_a_differentiated_value_is_refused(m):
    with pytest.raises(tl.TangentlikeError) as err:
        tl.jvp(m.effects)(np.ones(3), np.ones(3))
    assert "bump(y)" in str(err.value) and "effects" in str(err.value)


def test_an_unknown_function_is_refused(m):
    with pytest.raises(tl.TangentlikeError):
        tl.jvp(m.opaque)(np.ones(3), np.ones(3))


def test_a_tangent_of_another_shape_is_refused(m):
    with pytest.raises(tl.CheckError) as err:
        tl.jvp(m.plain)(np.ones(3), np.ones((2, 3)), np.ones(4))
    assert "shape (4,)" in str(err.value) and "(3,)" in str(err.value)


def test_a_tuple_wrt_takes_a_tuple_of_tangents(m):
    with pytest.raises(tl.WrtError, match="tuple of 2"):
        tl.jvp(m.plain, wrt=(0, 1))(np.ones(3), np.ones((2, 3)), np.ones(3))


def test_an_integer_argument_is_not_differentiable(m):
    with pytest.raises(tl.WrtError, match="int64"):
        tl.jvp(m.plain)(np.arange(3), np.ones((2, 3)), np.ones(3))


def test_the_tangent_is_required(m):
    with pytest.raises(TypeError, match="tangent"):
        tl.jvp(m.plain)()


def test_vector_tangent_needs_the_leading_axis(m):
    from tangentlike.api_forward import jvp_vector

    with pytest.raises(tl.CheckError, match="k directions"):
        jvp_vector(m.plain)(np.ones(3), np.ones((2, 3)), np.ones((2, 4)))
