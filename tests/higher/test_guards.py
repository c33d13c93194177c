"""`raise` is a guard: kept in the forward sweep, nothing to differentiate; generated
code (which checks its output with a raise) is differentiated with its guard."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def guarded(x, limit):
    if np.max(np.abs(x)) > limit:
        raise ValueError("x out of range")
    y = np.sin(x) * x
    for k in range(2):
        if k > 5:
            raise RuntimeError(f"unreachable {k}")
        y = y * np.cos(y)
    return np.sum(y)


def guard_in_helper(x):
    return np.sum(_checked(x) ** 2)


def _checked(v):
    if np.any(np.isnan(v)):
        raise ValueError("nan") from None
    return v * 3.0
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("guards"), SOURCE, name="tl_guard_cases")


def test_a_raise_differentiates_as_a_guard(m):
    x = np.array([0.3, -0.5, 0.2])
    check_against_fd(m.guarded, tl.grad(m.guarded)(x, 2.0), [x, 2.0], 0)
    check_against_fd(m.guard_in_helper, tl.grad(m.guard_in_helper)(x), [x], 0)


def test_the_guard_still_raises_in_the_gradient(m):
    with pytest.raises(ValueError, match="out of range"):
        tl.grad(m.guarded)(np.array([3.0, 0.0]), 2.0)
    with pytest.raises(ValueError, match="nan"):
        tl.grad(m.guard_in_helper)(np.array([np.nan, 0.0]))


def test_second_order_through_guards(m):
    x = np.array([0.3, -0.5, 0.2])
    v = np.array([1.0, -1.0, 0.5])
    g = tl.grad(m.guarded)
    eps = 1e-6
    fd = (g(x + eps * v, 2.0) - g(x - eps * v, 2.0)) / (2 * eps)
    assert np.allclose(tl.hvp(m.guarded)(x, 2.0, v), fd, rtol=1e-5, atol=1e-7)


def test_the_scalar_check_of_a_generated_gradient_survives_differentiation(m):
    second = tl.grad(tl.grad(m.guarded))  # x is an array: the inner gradient is not scalar
    with pytest.raises(tl.NonScalarOutputError):
        second(np.array([0.3, 0.1]), 2.0)
