"""A list or dict display the function made holds a parameter's arrays; writing a key
or an item of that display changes the display only, not the parameter (a dict of
parameters rebuilt with one entry replaced). Writing into an array it holds still
changes the parameter: refused, with its location."""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError

SOURCE = """
import numpy as np


def replaced(p):
    r = {"a": p["a"], "b": p["b"]}
    r["a"] = r["a"] * 2.0
    return np.sum(np.sin(r["a"]) * r["b"] * p["a"])


def added(p):
    r = {"a": p["a"]}
    r["c"] = p["b"] * 2.0
    return np.sum(r["c"] * r["a"])


def in_a_list(p):
    r = [p["a"], p["b"]]
    for k in range(2):
        r[k] = r[k] * (k + 1.5)
    return np.sum(r[0] * r[1] * p["b"])


def in_a_loop(p):
    total = 0.0
    for k in range(3):
        r = {"w": p["a"]}
        r["w"] = np.tanh(r["w"] + k)
        total = total + np.sum(r["w"] * p["b"])
    return total


def into_a_held_array(p):
    r = {"a": p["a"]}
    r["a"][0] = 5.0
    return np.sum(r["a"] * p["b"])
"""

TWINS = {
    "replaced": lambda p: anp.sum(anp.sin(p["a"] * 2.0) * p["b"] * p["a"]),
    "added": lambda p: anp.sum(p["b"] * 2.0 * p["a"]),
    "in_a_list": lambda p: anp.sum(p["a"] * 1.5 * p["b"] * 2.5 * p["b"]),
    "in_a_loop": lambda p: sum(anp.sum(anp.tanh(p["a"] + k) * p["b"]) for k in range(3)),
}


def _point():
    return {"a": np.array([0.3, -0.8, 1.1]), "b": np.array([1.2, 0.4, -0.6])}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_a_write_into_a_display_leaves_the_parameter(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE, f"displays_{name}"), name)
    p = _point()
    expected = autograd_grad(TWINS[name], (p,), 0)
    for checks in (False, True):  # the specialised build; debug mode's generic one
        value, g = tl.value_and_grad(f, checks=checks)(p)
        assert value == pytest.approx(TWINS[name](p), rel=1e-12)
        for key in ("a", "b"):
            np.testing.assert_allclose(g[key], expected[key], rtol=1e-12, atol=1e-15)
    assert all(np.array_equal(p[k], _point()[k]) for k in p)  # the caller's arrays
    flat = np.concatenate([p["a"], p["b"]])

    def on_flat(v):
        return f({"a": v[:3], "b": v[3:]})

    fd = fd_gradient(on_flat, (flat,), 0)
    np.testing.assert_allclose(np.concatenate([g["a"], g["b"]]), fd, rtol=1e-6, atol=1e-8)
    t = {"a": np.array([1.0, 0.5, -0.2]), "b": np.array([0.1, -1.0, 0.7])}
    _, tangent = tl.jvp(f)(p, t)
    assert tangent == pytest.approx(sum(np.sum(g[k] * t[k]) for k in g), rel=1e-10)


def test_a_write_into_an_array_the_display_holds_changes_the_parameter(tmp_path):
    f = load_module(tmp_path, SOURCE, "displays_held").into_a_held_array
    with pytest.raises((CheckError, UnsupportedSyntaxError)) as err:
        tl.grad(f)(_point())
    assert "displays_held.py:35:" in str(err.value)
