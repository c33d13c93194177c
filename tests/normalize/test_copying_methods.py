"""`x.flatten()` is a copy of x, never a view (np.ravel alone may be one): an update of
the result in place leaves x as it was, in the value and in the gradient. `x.copy()` is
np.copy(x) for an array, checked at run time: a list's or dict's .copy() is shallow."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def updated(x):
    y = x.flatten()
    y *= 2.0
    return np.sum(x.ravel() * x.ravel() * y)


def fortran(x):
    y = x.flatten("F")
    y[0] = 0.0
    return np.sum(np.sin(x) * y.reshape(x.shape, order="F"))


def in_loop(x):
    total = 0.0
    for k in range(3):
        y = x.flatten()
        y += k
        total = total + np.sum(y * x.ravel())
    return total
"""

TWINS = {  # out of place, for autograd
    "updated": lambda x: (2.0 * x**3).sum(),
    "fortran": lambda x: (np.sin(x) * x).sum() - np.sin(x[0, 0]) * x[0, 0],
    "in_loop": lambda x: sum(((x + k) * x).sum() for k in range(3)),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_flatten_is_a_copy_in_value_and_gradient(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE, f"flat_{name}"), name)
    x = np.array([[0.5, -1.2], [0.3, 2.0]])
    expected = TWINS[name](x)
    assert f(x.copy()) == pytest.approx(expected)
    for checks in (False, True):  # the build specialised to x; debug mode's generic one
        value, g = tl.value_and_grad(f, checks=checks)(x.copy())
        assert value == pytest.approx(expected, rel=1e-12), checks
        np.testing.assert_allclose(g, autograd_grad(TWINS[name], (x,), 0), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(f, (x.copy(),), 0), rtol=1e-6, atol=1e-8)
    t = np.array([[1.0, 0.5], [-0.3, 0.2]])
    _, tangent = tl.jvp(f)(x.copy(), t)
    assert tangent == pytest.approx(np.sum(g * t), rel=1e-10)


CONTAINERS = """
import numpy as np


def list_copy(xs):
    ys = xs.copy()
    a = ys[0]
    a *= 3.0
    return np.sum(xs[0] * ys[1])


def dict_copy(p):
    q = p.copy()
    q["a"] = q["a"] * 2.0
    return np.sum(q["a"] * p["a"])


def array_copy(x):
    y = x.copy()
    y[0] = 0.0
    y *= x
    return np.sum(np.sin(y) * x)
"""


@pytest.mark.parametrize(
    "name, arg, kind, line",
    [
        ("list_copy", lambda: [np.arange(3.0), np.ones(3)], "list", 6),
        ("dict_copy", lambda: {"a": np.arange(3.0)}, "dict", 13),
    ],
)
def test_copy_of_a_list_or_dict_is_refused_where_it_runs(tmp_path, name, arg, kind, line):
    # np.copy of the list made its arrays new: `a *= 3.0` left xs[0] alone (a wrong
    # value and gradient); np.copy of a dict failed inside the generated code
    f = getattr(load_module(tmp_path, CONTAINERS, f"copies_{name}"), name)
    for checks in (False, True):
        with pytest.raises(TypeError) as err:
            tl.grad(f, checks=checks)(arg())
        message = str(err.value)
        assert f"copies_{name}.py:{line}:" in message, message
        assert f"here it is a {kind}" in message and f"{kind}(...)" in message, message


def test_copy_of_an_array_in_every_mode(tmp_path):
    f = load_module(tmp_path, CONTAINERS, "copies_array").array_copy
    x = np.array([0.5, -1.2, 0.3])

    import autograd
    import autograd.numpy as anp

    def twin(x):
        y = anp.concatenate([anp.zeros(1), x[1:]]) * x
        return anp.sum(anp.sin(y) * x)

    for checks in (False, True):
        g = tl.grad(f, checks=checks)(x)
        np.testing.assert_allclose(g, autograd_grad(twin, (x,), 0), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(f, (x,), 0), rtol=1e-6, atol=1e-8)
    t = np.array([1.0, 0.5, -0.3])
    assert tl.jvp(f)(x, t)[1] == pytest.approx(np.dot(g, t), rel=1e-10)
    hv = autograd.hessian_vector_product(twin)(x, t)
    np.testing.assert_allclose(tl.hvp(f)(x, t), hv, rtol=1e-8, atol=1e-10)


def test_the_check_is_dropped_where_the_build_knows_an_array(tmp_path):
    f = load_module(tmp_path, CONTAINERS, "copies_known").array_copy
    df = tl.grad(f, checks=False)  # debug mode (TANGENTLIKE_CHECKS=1) runs the generic build
    df(np.array([0.5, -1.2, 0.3]))
    (specialised,) = df.specialised.values()
    assert "np.copy(x)" in specialised and "copies_array(x" not in specialised
    assert "copies_array(x" in df.source  # the generic build, for any argument
