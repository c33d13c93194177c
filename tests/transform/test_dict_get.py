"""`d.get(k)` and `d.get(k, default)`: a read of the entry when it is there, the default
(evaluated first, as the call evaluates it) when it is not; against autograd and central
differences, for dicts built in the function, passed in, and read in loops."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module
from stages import code, prepare

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np

def built(x):
    d = {"a": x, "b": x ** 2}
    return d.get("a") + d.get("b", 0.0) + d.get("c", x * 3.0)

def in_loop(x, w):
    d = {"w": w * x}
    total = 0.0
    for k in ("w", "v"):
        total = total + np.sum(d.get(k, np.zeros(3)) ** 2)
    return total

def passed_in(w, x):
    return np.sum(np.tanh(x * w.get("scale", 1.0))) + np.sum(w.get("shift", x) ** 2)

def computed_key(x, n):
    d = {0: x, 1: 2.0 * x, 2: x * x}
    s = 0.0
    for i in range(n):
        s = s + d.get(i % 4, 1.5) * x
    return s
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("dict_get"), SOURCE)


def test_built_dict(m):
    assert tl.grad(m.built)(2.0) == pytest.approx(1.0 + 4.0 + 3.0)
    check_against_fd(m.built, tl.grad(m.built)(0.7), (0.7,), 0)


def test_in_a_loop_with_a_missing_key(m):
    x, w = 1.3, np.array([1.0, -2.0, 0.5])
    gx, gw = tl.grad(m.in_loop, wrt=(0, 1))(x, w)
    assert gx == pytest.approx(autograd_grad(m.in_loop, (x, w), 0))
    np.testing.assert_allclose(gw, autograd_grad(m.in_loop, (x, w), 1), rtol=1e-12)


@pytest.mark.parametrize("keys", [("scale", "shift"), ("scale",), ()])
def test_a_dict_passed_in(m, keys):
    x = np.array([0.3, -0.8, 1.1])
    values = {"scale": np.array([1.5, 0.5, -1.0]), "shift": np.array([0.2, 0.1, -0.3])}
    w = {k: values[k] for k in keys}
    gw, gx = tl.grad(m.passed_in, wrt=(0, 1))(w, x)
    check_against_fd(m.passed_in, gx, (w, x), 1)
    assert sorted(gw) == sorted(keys)
    for k in keys:
        expected = autograd_grad(lambda v, k=k: m.passed_in({**w, k: v}, x), (w[k],), 0)
        np.testing.assert_allclose(gw[k], expected, rtol=1e-10)


def test_a_computed_key(m):
    for n in (3, 6):
        g = tl.grad(m.computed_key)(0.9, n)
        assert g == pytest.approx(autograd_grad(m.computed_key, (0.9, n), 0))


def test_normal_form(tmp_path):
    stage = prepare(tmp_path, "def f(x, d):\n    return d.get('a', x * 2.0)\n").anf()
    assert stage.body() == code(
        """
        _f1 = x * 2.0
        _c1 = 'a' in d
        if _c1:
            _f2 = d['a']
        else:
            _f2 = _f1
        f = _f2
        return f
        """
    )


def test_keywords_are_refused_with_a_location(tmp_path):
    m = load_module(tmp_path, "def f(x, d):\n    return d.get('a', default=x)\n")
    with pytest.raises(UnsupportedSyntaxError) as info:
        tl.grad(m.f)(1.0, {})
    message = str(info.value)
    assert ".get(...) with keywords" in message and ":2:" in message
