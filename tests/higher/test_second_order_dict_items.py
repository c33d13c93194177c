"""Second order through writes by key into a dict the function made (`D[k] = v`, the key
there before or new): the differentiable form spells out saved_item / restore_item for a
name that is certainly a dict (higher/form_items.py): `(k in D, D[k] if k in D else
None)`, and `D[k] = saved[1]` or `D.pop(k)`. Hessian-vector products (forward over
reverse, reverse over reverse) and Hessians against autograd and central differences of
the gradient; grad of grad for a scalar; a dict not visibly made by a display stays
refused at the user's line, naming the user's variable."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def f_dict(x):
    D = {"a": x, "b": x * x}
    D["b"] = np.sin(D["a"]) * D["b"]
    return np.sum(D["a"] * D["b"])


def f_new_key(x):
    D = {"a": x, "b": np.cos(x)}
    D["c"] = D["a"] * D["b"]
    D["a"] = np.exp(D["c"]) - D["b"]
    return np.sum(D["a"] * D["c"]) + np.sum(D["b"] ** 2)


def f_loop(x):
    D = {"a": x}
    for i in range(3):
        D["s"] = np.sin(D["a"]) * (i + 1.0)
        D["a"] = D["s"] * x
    return np.sum(D["a"] * D["s"])


def f_branch(x):
    D = {"a": x * x, "b": np.tanh(x)}
    if np.sum(x) > 0.0:
        D["c"] = D["a"] * D["b"]
    else:
        D["b"] = D["a"] ** 3
    return np.sum(D["b"] * D.get("c", x))


def f_scalar(x):
    D = {"a": x}
    D["b"] = np.sin(D["a"]) * x
    return D["a"] * D["b"] ** 2


def f_copied(x):
    E = {"a": x, "b": 2.0 * x}
    D = dict(E)
    D["a"] = np.sin(E["b"]) * D["a"]
    return np.sum(D["a"] * E["a"])
"""

CASES = ["f_dict", "f_new_key", "f_loop", "f_branch"]
POINTS = {
    "positive": np.array([0.4, 0.9, 0.3]),  # f_branch adds the new key "c"
    "negative": np.array([-0.5, 0.2, -0.6]),  # f_branch overwrites "b"
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("dict_items2"), SOURCE, name="tl_second_dicts")


@pytest.mark.parametrize("point", sorted(POINTS))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", CASES)
def test_hvp_through_dict_writes(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    af = autograd_version(f)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", CASES)
def test_hessian_through_dict_writes(m, case):
    f, x = getattr(m, case), POINTS["positive"]
    H = tl.hessian(f)(x)
    assert np.allclose(H, autograd.hessian(autograd_version(f))(x), rtol=1e-7, atol=1e-9)
    columns = np.stack([fd_hvp(f, x, e) for e in np.eye(x.size)], axis=-1)
    assert np.allclose(H, columns, rtol=1e-4, atol=1e-6)


def test_grad_of_grad_through_dict_writes(m):
    f, x = m.f_scalar, 0.8
    second = tl.grad(tl.grad(f))(x)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(x)
    assert np.isclose(second, expected, rtol=1e-7, atol=1e-9)
    g = tl.grad(f)
    assert np.isclose(second, (g(x + 1e-6) - g(x - 1e-6)) / 2e-6, rtol=1e-5)


def test_dict_not_made_by_a_display_stays_refused_located(m):
    """`D = dict(E)` in the gradient is no display the form can see the dict in: its write
    keeps saved_item and is refused at the user's line, naming the user's dict."""
    with pytest.raises(TangentlikeError) as err:
        tl.hvp(m.f_copied)(POINTS["positive"], np.ones(3))
    message = str(err.value)
    assert "saved_item" in message and "'D'" in message
    assert "binds by displays alone" in message and "copied from another container" in message
    line = SOURCE.splitlines().index('    D["a"] = np.sin(E["b"]) * D["a"]') + 1
    assert err.value.location.line == line
