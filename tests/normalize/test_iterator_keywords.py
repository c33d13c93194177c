"""Loops over builtins' iterators and their keywords: `enumerate(xs, start=k)`,
`zip(..., strict=...)`, `map(...)`.

A loop over an iterator the lowering does not index (`zip(a, b, strict=True)`, `map`)
called len() on it and crashed in generated code (TypeError: object of type 'zip' has
no len()); it now iterates a list of it. `enumerate(xs, start=k)` and `zip(...,
strict=False)` take the forms the lowering indexes, so differentiated values pass; so
does a loop over `zip(..., strict=True)`, which ends with a check of the lengths.
"""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl


def padded_size(x, y):
    full = tuple(a + b - 1 for a, b in zip(np.shape(x), np.shape(y), strict=True))
    return np.sum(np.zeros(full) + 1.0) * np.sum(x * x)


def counted_from_one(x):
    s = 0.0
    for i, v in enumerate(x, start=1):
        s = s + v**2 * i
    return s


def zipped_not_strict(x, y):
    s = 0.0
    for a, b in zip(x, y, strict=False):
        s = s + a * b * a
    return s


def over_a_map(x):
    s = 0.0
    for n in map(int, np.shape(x)):
        s = s + n * np.sum(x**2)
    return s


def zipped_strict(x, y):
    s = 0.0
    for a, b in zip(x, y, strict=True):
        s = s + a * b
    return s


X = np.array([1.0, -2.0, 0.5])
Y = np.array([3.0, 4.0, -1.0])
V = np.array([0.3, -1.0, 2.0])


def test_a_comprehension_over_a_strict_zip_of_shapes_runs():
    g = tl.grad(padded_size)(X, Y)
    np.testing.assert_allclose(g, 5 * 2 * X)  # np.zeros((5,)) + 1 sums to 5
    np.testing.assert_allclose(tl.hvp(padded_size)(X, Y, V), 10 * V)


def test_enumerate_with_a_start_keyword():
    weights = np.arange(1.0, 4.0)
    np.testing.assert_allclose(tl.grad(counted_from_one)(X), 2 * weights * X)
    _, t = tl.jvp(counted_from_one, wrt=0)(X, V)
    assert float(t) == pytest.approx(float(np.sum(2 * weights * X * V)))
    np.testing.assert_allclose(tl.hvp(counted_from_one)(X, V), 2 * weights * V)


def test_zip_not_strict():
    np.testing.assert_allclose(tl.grad(zipped_not_strict)(X, Y), 2 * X * Y)
    np.testing.assert_allclose(tl.hvp(zipped_not_strict)(X, Y, V), 2 * Y * V)


def test_a_loop_over_a_map_of_constants():
    np.testing.assert_allclose(tl.grad(over_a_map)(X), 3 * 2 * X)


def test_a_strict_zip_of_differentiated_values_is_lowered():
    """Refused at its line until the loop over a strict zip was lowered as a non-strict
    one ending with the length check (tests/transform/test_strict_zip.py)."""
    np.testing.assert_allclose(tl.grad(zipped_strict)(X, Y), Y)
    np.testing.assert_allclose(tl.grad(zipped_strict, wrt=1)(X, Y), X)
    np.testing.assert_allclose(tl.hvp(zipped_strict)(X, Y, V), np.zeros(3))
    with pytest.raises(ValueError, match="zip\\(\\) argument 2 is shorter than argument 1"):
        tl.grad(zipped_strict)(X, Y[:2])


def test_a_strict_zip_of_unequal_lengths_still_raises_like_python():
    with pytest.raises(ValueError):
        padded_size(np.ones(3), np.ones((2, 2)))
    with pytest.raises(ValueError, match="zip"):
        tl.grad(padded_size)(np.ones(3), np.ones((2, 2)))
