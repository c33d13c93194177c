"""A jvp made by tl.jvp, called inside a differentiated function as documented
(`jf(*args, t)`, the tangent last). The generated function it runs takes its tangents
by keyword (`jvp_g(x, *, dx)`), so the call was bound to its signature positionally and
refused ("missing a required argument: 'dx'"); normalize/jvp_calls.py spells the
tangents by keyword, which jf takes too. Gradients and tangents of such functions
against autograd (also through a gradient looping over a list, whose jvp calls add_terms
and no_object_zero, which had no reverse rule); the refusals located."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np

import tangentlike as tl


def g(x):
    return np.sum(np.sin(x) * x)


def h(x, y):
    return np.sum(x * np.cos(y)) + np.sum(x ** 2 * y)


def g_list(x):
    s = 0.0
    for v in [x, x * 2.0]:
        s = s + np.sum(np.sin(v) * v)
    return s


jg = tl.jvp(g)
jggl = tl.jvp(tl.grad(g_list))
jgg = tl.jvp(tl.grad(g))
jh = tl.jvp(h, wrt=(0, 1))


def tangent_last(x, v):
    y, t = jg(x, v)
    return y * t ** 2


def tangent_by_keyword(x, v):
    y, t = jg(x, dx=v)
    return y * t ** 2


def hessian_vector(x, v):
    y, hv = jgg(x, v)
    return np.sum(hv ** 2) + np.sum(y)


def hessian_vector_of_list_loop(x, v):
    y, hv = jggl(x, v)
    return np.sum(hv ** 2) + np.sum(y)


def two_tangents(x, v):
    y, t = jh(x, x * 2.0, (v, np.sin(v)))
    return y * t


def two_tangents_computed(x, v):
    pair = (v, v)
    y, t = jh(x, x, pair)
    return y * t


def tangent_in_star_args(x, v):
    args = (x, v)
    y, t = jg(*args)
    return y * t


def tangents_starred(x, v):
    pair = (v, v)
    y, t = jh(x, x, (*pair,))
    return y * t
"""

X = np.array([0.3, -0.7, 1.2])
V = np.array([0.5, 0.1, -0.4])
U = np.array([0.2, 0.9, -0.3])


def _ag_g(x):
    return anp.sum(anp.sin(x) * x)


def _ag_h(x, y):
    return anp.sum(x * anp.cos(y)) + anp.sum(x**2 * y)


def _ag_g_list(x):
    s = 0.0
    for v in [x, x * 2.0]:
        s = s + anp.sum(anp.sin(v) * v)
    return s


def _ag_jg(x, v):
    return anp.sum(autograd.grad(_ag_g)(x) * v)


def _ag_jh(x, y, tx, ty):
    return anp.sum(autograd.grad(_ag_h, 0)(x, y) * tx) + anp.sum(autograd.grad(_ag_h, 1)(x, y) * ty)


TWINS = {
    "tangent_last": lambda x, v: _ag_g(x) * _ag_jg(x, v) ** 2,
    "tangent_by_keyword": lambda x, v: _ag_g(x) * _ag_jg(x, v) ** 2,
    "hessian_vector": lambda x, v: (
        anp.sum(autograd.grad(lambda x: anp.sum(autograd.grad(_ag_g)(x) * v))(x) ** 2)
        + anp.sum(autograd.grad(_ag_g)(x))
    ),
    # the jvp of that gradient sums adjoints of list items (add, no_object_zero)
    "hessian_vector_of_list_loop": lambda x, v: (
        anp.sum(autograd.grad(lambda x: anp.sum(autograd.grad(_ag_g_list)(x) * v))(x) ** 2)
        + anp.sum(autograd.grad(_ag_g_list)(x))
    ),
    "two_tangents": lambda x, v: _ag_h(x, x * 2.0) * _ag_jh(x, x * 2.0, v, anp.sin(v)),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jvp_inside"), SOURCE, name="tl_jvp_inside")


@pytest.mark.parametrize("wrt", [0, 1])
@pytest.mark.parametrize("case", sorted(TWINS))
def test_gradient_and_tangent_of_a_function_calling_a_jvp(m, case, wrt):
    f, twin = getattr(m, case), TWINS[case]
    assert np.isclose(f(X, V), twin(X, V), rtol=1e-12)
    expected = autograd.grad(twin, wrt)(X, V)
    assert np.allclose(tl.grad(f, wrt=wrt)(X, V), expected, rtol=1e-9, atol=1e-12)
    value, tangent = tl.jvp(f, wrt=wrt)(X, V, U)
    assert np.isclose(value, twin(X, V), rtol=1e-12)
    assert np.isclose(tangent, expected @ U, rtol=1e-9, atol=1e-12)


def test_a_jvp_takes_its_tangents_by_keyword_too(m):
    assert np.allclose(m.jg(X, dx=V), m.jg(X, V))
    assert np.allclose(m.jh(X, X, dx=V, dy=U)[1], m.jh(X, X, (V, U))[1])
    with pytest.raises(TypeError, match="lack dy"):
        m.jh(X, X, dx=V)


def test_a_computed_tuple_of_tangents_is_refused_at_its_line(m):
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(m.two_tangents_computed)(X, V)
    text = str(err.value)
    assert "takes a tuple display of its tangents" in text
    assert "y, t = jh(x, x, pair)" in text
    assert "dx=..., dy=..." in text


@pytest.mark.parametrize(
    "case, what, line",
    [
        ("tangent_in_star_args", "a jvp called with *args", "y, t = jg(*args)"),
        ("tangents_starred", "star-unpacking is not supported", "y, t = jh(x, x, (*pair,))"),
    ],
)
def test_star_arguments_of_a_jvp_are_refused_at_their_line(m, case, what, line):
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(getattr(m, case))(X, V)
    text = str(err.value)
    assert what in text and line in text
