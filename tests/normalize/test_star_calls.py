"""`g(*args)` with differentiated values (normalize/methods.py spell_out): a tuple or list
literal, or a local bound once to one and never changed (or a slice of it with constant
bounds, normalize/star_items.py), is spelled out item by item;
values passed into a callee's own `*xs` reach it as a tuple; gradients against central
differences and autograd, forward mode too. A list that may change length, and values
passed into a callee's `**kw`, stay refused with their location."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np


def _fixed(a, b, c=1.0):
    return a * np.cos(b) + c


def _star(*xs):
    return xs[0] * xs[1]


def local_tuple(x, y):
    args = (x, y * 2.0)
    return _fixed(*args) + _fixed(*[y, x], x)


def literal_tuple(x, y):
    return _fixed(*(x, y)) * np.add(*[x, y])


def in_a_loop(x, y):
    s = 0.0
    for k in range(3):
        pair = (x * k, y)
        s = s + _fixed(*pair, c=k)
    return s


def sliced(x, y):
    args = [x, y, 2.0]
    return _fixed(np.sin(args[0]), *args[1:]) + _fixed(*args[:2]) * _fixed(*args[::-2], y)


def sliced_tuple(x, y):
    args = (y, x * 3.0, x)
    return _fixed(*args[-2:], *args[0:1])


def mutated_list(x, y):
    args = [x]
    args.append(y)
    return _fixed(*args)


def _keywords(**kw):
    return kw["a"] * kw["b"]


def into_star_parameter(x, y):
    return _star(x, y)


def into_keywords_parameter(x, y):
    return _keywords(a=x, b=y)
"""

ARGS = (0.3, -1.1)
WORKS = [
    "local_tuple",
    "literal_tuple",
    "in_a_loop",
    "into_star_parameter",
    "sliced",
    "sliced_tuple",
]


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("star"), SOURCE, "star_calls_cases")


@pytest.mark.parametrize("name", WORKS)
def test_spelled_out_calls_match_differences_autograd_and_jvp(module, name):
    import autograd

    f = getattr(module, name)
    grads = tl.grad(f, wrt=(0, 1))(*ARGS)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, fd_gradient(f, list(ARGS), i), rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(g, autograd.grad(autograd_version(f), i)(*ARGS), rtol=1e-10)
    _, derivative = tl.jvp(f, wrt=(0, 1))(*ARGS, (1.0, 2.0))
    assert np.isclose(derivative, grads[0] + 2.0 * grads[1], rtol=1e-10)


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [("mutated_list", 43, "star-unpacking"), ("into_keywords_parameter", 55, "**kw")],
)
def test_what_it_cannot_spell_out_is_refused_with_a_location(module, name, line, words):
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(getattr(module, name), wrt=(0, 1))(*ARGS)
    message = str(err.value)
    assert f"star_calls_cases.py:{line}:" in message and words in message, message
    assert "What to do" in message and "^" in message, message
