"""A parameter rebound first to the function's own list or dict (`p = dict(p)`).

`p = dict(p); p["w"] = p["w"] * 2.0` writes into a shallow copy: the caller's dict and
the arrays it holds stay as they were, so the write is one into a container the
function made (transform/container_writes.py). Before, it was refused with a message
about memory shared since `p = dict(p)`.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError


def scaled_dict(p, x):
    p = dict(p)
    p["w"] = p["w"] * 2.0
    p["b"] = np.tanh(p["b"])
    return np.sum(p["w"] * x) + np.sum(p["b"] ** 2)


def scaled_list(xs):
    xs = list(xs)
    xs[0] = xs[0] * 3.0
    return np.sum(xs[0] * xs[1])


def rows_of_an_array(a):
    a = list(a)
    a[1] = np.sin(a[0])
    return np.sum(a[1] * a[0])


def _params():
    rng = np.random.default_rng(0)
    return {"w": rng.normal(size=3), "b": rng.normal(size=2)}


CASES = [
    (scaled_dict, lambda: (_params(), np.arange(3.0))),
    (scaled_list, lambda: ([np.arange(1.0, 3.0), np.array([0.5, -1.5])],)),
    (rows_of_an_array, lambda: (np.arange(6.0).reshape(2, 3) / 5.0,)),
]


def _close(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _close(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for u, v in zip(a, b, strict=True):
            _close(u, v)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("f, make", CASES, ids=[c[0].__name__ for c in CASES])
def test_gradient_matches_autograd_and_leaves_the_argument_alone(f, make):
    args = make()
    before = make()
    value, grads = tl.value_and_grad(f, wrt=0)(*args)
    assert float(value) == pytest.approx(float(f(*make())))
    _close(grads, autograd_grad(f, make(), 0))
    _close(args[0], before[0])  # the caller's container and arrays are unchanged


@pytest.mark.parametrize("f, make", CASES[:2], ids=[c[0].__name__ for c in CASES[:2]])
def test_forward_mode_matches_the_gradient(f, make):
    args = make()
    grads = tl.grad(f, wrt=0)(*make())
    if isinstance(args[0], dict):
        t = {k: np.ones_like(v) for k, v in args[0].items()}
        expected = sum(float(np.sum(g)) for g in grads.values())
    else:
        t = [np.ones_like(v) for v in args[0]]
        expected = sum(float(np.sum(g)) for g in grads)
    _, tangent = tl.jvp(f, wrt=0)(*args, t)
    assert float(tangent) == pytest.approx(expected)


def test_an_update_of_the_item_itself_still_reaches_the_caller():
    def f(p, x):
        p = dict(p)
        p["w"] *= x  # changes the caller's array: Python's augmented assignment
        return np.sum(p["w"])

    with pytest.raises(UnsupportedSyntaxError, match=r'p\["w"\] \*= x'):
        tl.grad(f, wrt=1)(_params(), 2.0)


def test_a_copy_made_on_one_branch_only_is_still_the_callers():
    def f(p, x, flag):
        if flag:
            p = dict(p)
        p["w"] = p["w"] * x
        return np.sum(p["w"])

    with pytest.raises(CheckError, match="changes the argument 'p' in place"):
        tl.grad(f, wrt=1)(_params(), 2.0, True)


def test_another_name_for_the_copy_before_the_write_is_refused():
    def f(xs):
        xs = list(xs)
        ys = xs
        xs[0] = xs[0] * 3.0
        return np.sum(ys[0])

    with pytest.raises(UnsupportedSyntaxError, match="ys"):
        tl.grad(f)([np.ones(2), np.ones(2)])


def _swapped_back(p0, p1):
    t = p0
    p0 = t
    return 1.5


def calls_a_parameter_copied_back(x, y):
    s = x * 1.0
    s = s + _swapped_back(x, x)
    return np.sum(s)


def test_a_parameter_rebound_to_a_copy_of_itself_is_no_new_container():
    """`t = p0; p0 = t` is a cycle of copies: following it for a new list or dict
    recursed without end (a RecursionError, found by tests/properties)."""
    g = tl.grad(calls_a_parameter_copied_back)(np.array([1.0, 2.0]), 3.0)
    np.testing.assert_allclose(g, [1.0, 1.0])
