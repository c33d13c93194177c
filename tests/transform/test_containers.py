"""Lists, tuples and dicts: every program of corpus/containers.py differentiated and
compared with central differences (leaf by leaf) and with autograd."""

from __future__ import annotations

import numpy as np
import pytest
from corpus.containers import CASES
from reference import autograd_version

import tangentlike as tl


def _id(case):
    return f"{case[0].__name__}-{CASES.index(case)}"


def leaves(value):
    """The float leaves of a nested container, in order (a bare value is one leaf)."""
    if isinstance(value, dict):
        return [leaf for k in value for leaf in leaves(value[k])]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


def rebuild(value, new):
    """`value` with its leaves replaced, in order, by the iterator `new`."""
    if isinstance(value, dict):
        return {k: rebuild(v, new) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(rebuild(v, new) for v in value)
    return next(new)


def fd_structured(f, args, i, eps=1e-6):
    """Central differences of scalar f for every entry of every leaf of argument i,
    in the structure of that argument."""
    grads = []
    for k, leaf in enumerate(leaves(args[i])):
        g = np.zeros(np.shape(leaf))
        for idx in np.ndindex(*np.shape(leaf)):
            vals = []
            for sign in (1.0, -1.0):
                bumped = [np.array(x, dtype=np.float64) for x in leaves(args[i])]
                bumped[k][idx] += sign * eps
                bumped = [
                    b if np.ndim(x) else float(b)
                    for b, x in zip(bumped, leaves(args[i]), strict=True)
                ]
                moved = list(args)
                moved[i] = rebuild(args[i], iter(bumped))
                vals.append(float(f(*moved)))
            g[idx] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return rebuild(args[i], iter(grads))


def assert_same_structure(g, like):
    assert type(g) is type(like), (type(g), type(like))
    if isinstance(like, dict):
        assert list(g) == list(like)  # same keys, same order
        for k in like:
            assert_same_structure(g[k], like[k])
    elif isinstance(like, (list, tuple)):
        assert len(g) == len(like)
        for a, b in zip(g, like, strict=True):
            assert_same_structure(a, b)
    else:
        assert np.shape(g) == np.shape(like)
        if isinstance(like, np.ndarray):
            assert g.dtype == like.dtype


def assert_close(g, expected, **tol):
    for a, b in zip(leaves(g), leaves(expected), strict=True):
        np.testing.assert_allclose(a, b, **tol)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gradient_matches_finite_differences(case):
    f, make, wrt = case
    args = make()
    grads = tl.grad(f, wrt=wrt)(*args)
    for i, g in zip(wrt, grads, strict=True):
        assert_same_structure(g, args[i])
        assert_close(g, fd_structured(f, list(args), i), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gradient_matches_autograd(case):
    import autograd

    f, make, wrt = case
    args = make()
    grads = tl.grad(f, wrt=wrt)(*args)
    for i, g in zip(wrt, grads, strict=True):
        expected = autograd.grad(autograd_version(f), i)(*args)
        assert_close(g, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_value_and_grad_and_arguments_untouched(case):
    f, make, wrt = case
    args = make()
    before = [np.copy(leaf) for a in args for leaf in leaves(a)]
    value, grads = tl.value_and_grad(f, wrt=wrt)(*args)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)
    after = [leaf for a in args for leaf in leaves(a)]
    for a, b in zip(before, after, strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(grads, tl.grad(f, wrt=wrt)(*args), strict=True):
        assert_close(a, b, rtol=1e-12)
