"""`dict(...)` calls (normalize/comprehensions.py): keywords become a dict literal, pairs
(zip, enumerate, d.items(), a literal list) a dict comprehension, a copy dict(d) or {**d}
of a dict d one over its keys; the gradients against
central differences and autograd, forward mode too; other forms are refused located."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, fd_gradient, load_module
from stages import code, prepare

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError

SOURCE = """
import numpy as np


def keywords(x):
    d = dict(a=x[0], b=x[1] * 2)
    return d['a'] * d['b']


def zipped(x):
    keys = ['a', 'b', 'c']
    vals = [x[0], x[1], x[2] ** 2]
    d = dict(zip(keys, vals))
    return d['a'] + d['b'] * d['c']


def enumerated(x):
    d = dict(enumerate([np.sin(x[0]), x[1] * x[2]]))
    return d[0] * d[1]


def of_items(x):
    p = {'w': x[0], 'v': x[1]}
    q = dict(p.items())
    q['w'] = q['w'] * x[2]
    return q['w'] + p['w'] * q['v']


def of_pairs(x):
    d = dict([('u', x[0] * 3.0), ('v', x[1])])
    return d['u'] * d['v']


def copied(x):
    p = {'w': x[0], 'v': x[1] * x[2]}
    q = dict(p)
    q['w'] = q['w'] * x[2]
    r = {**q}
    r['v'] = np.sin(r['v'])
    return q['w'] * p['v'] + r['w'] * r['v'] + p['w']


def empty_then_filled(x):
    d = dict()
    for i in range(3):
        d[i] = x[i] * (i + 1.0)
    return d[0] * d[1] + d[2]
"""

X = np.array([0.7, -1.3, 0.4])
NAMES = [
    "keywords",
    "zipped",
    "enumerated",
    "of_items",
    "of_pairs",
    "copied",
    "empty_then_filled",
]


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("dicts"), SOURCE, "dict_calls_cases")


def test_keywords_become_a_literal_and_pairs_a_comprehension(tmp_path):
    source = "def f(x, ks):\n    d = dict(a=x, b=2.0)\n    e = dict(zip(ks, x))\n    return d\n"
    assert prepare(tmp_path, source).comprehensions().body() == code(
        """
        d = {'a': x, 'b': 2.0}
        _keys1 = []
        _values1 = []
        for _key1, _value1 in zip(iterable(ks), iterable(x)):
            _keys1.append(stop_gradient(_key1))
            _values1.append(_value1)
        e = dict_of(_keys1, _values1)
        return d
        """
    )


@pytest.mark.parametrize("name", NAMES)
def test_gradients_match_differences_and_autograd(module, name):
    import autograd

    f = getattr(module, name)
    g = tl.grad(f)(X)
    np.testing.assert_allclose(g, fd_gradient(f, [X], 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(g, autograd.grad(autograd_version(f))(X), rtol=1e-10)
    value, derivative = tl.jvp(f)(X, np.array([1.0, -2.0, 0.5]))
    assert np.isclose(value, f(X))
    assert np.isclose(derivative, float(g @ np.array([1.0, -2.0, 0.5])), rtol=1e-10)


@pytest.mark.parametrize("call", ["dict(p, c=x)", "dict(**p)"], ids=["mixed", "double-star"])
def test_other_forms_are_refused_with_a_location(tmp_path, call):
    source = f"def f(x):\n    p = {{'a': x}}\n    d = {call}\n    return d['a']\n"
    module = load_module(tmp_path, source)
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(module.f)(1.0)
    message = str(err.value)
    assert ":3:" in message and "{**d}" in message and "^" in message, message


def test_a_copy_of_named_pairs_is_refused_at_run_time(tmp_path):
    """dict(d) copies a dict; a named list of pairs is not followed (a located error)."""
    source = "def f(x):\n    p = [('a', x)]\n    d = dict(p)\n    return d['a']\n"
    module = load_module(tmp_path, source)
    with pytest.raises(CheckError, match="holds no dict") as err:
        tl.grad(module.f)(1.0)
    assert ":3:" in str(err.value)
