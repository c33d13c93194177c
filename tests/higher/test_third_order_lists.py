"""Third order through lists appended and extended in a loop, items written into a list
or dict, and np.linspace with a differentiated end: the second derivative's reverse
forms call unappend_vjp, unextend_vjp, take_item_vjp and linspace_vjp_vjp, which were
refused ("has no second-order rule yet") when differentiated again; their rules
(rules/runtime_third.py) are the cuts and sums they transpose. Against central
differences of tangentlike's second derivative, and autograd's third derivative where
autograd has the function.

Reaching them took two more fixes: the third derivative of an append in a loop calls
the helper `unappend` under the name `unappend_2` (its own name taken in that module),
a copy parse/generated.py now recognises as the helper; and `add_item` takes None, a
zero adjoint, for a list slice's adjoint (it iterated over it)."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

A = np.array([0.3, -1.2, 0.8])


def f_append(t):
    xs = []
    for i in range(3):
        xs.append(t ** (i + 1))
    return sum(xs) * t


def f_append_arrays(t):
    rows = []
    for i in range(3):
        rows.append(np.sin(A * t * (i + 1)))
    return np.sum(np.stack(rows) ** 2)


def f_extend(t):
    xs = []
    for i in range(3):
        xs.extend([t * (i + 1), np.sin(t * i)])
    s, w = 0.0, 1.0
    for x in xs:
        w = w + 1.0
        s = s + w * x**3
    return s


def f_list_write(t):
    xs = [t, 2.0 * t, 3.0]
    xs[2] = xs[0] * xs[1]
    return xs[2] * xs[2]


def f_linspace(t):
    return np.sum(np.linspace(0.0, t, 5) ** 3)


def f_linspace_ends(t):
    return np.sum(np.sin(np.linspace(t, t * t, 5)) ** 2)


def f_linspace_step(t):
    samples, step = np.linspace(A * t, 2.0, 4, retstep=True)
    return np.sum(samples**3) + np.sum(step**3)
"""

CASES = [
    "f_append",
    "f_append_arrays",
    "f_extend",
    "f_list_write",
    "f_linspace",
    "f_linspace_ends",
    "f_linspace_step",
]
AUTOGRAD = ["f_append", "f_append_arrays", "f_extend", "f_list_write"]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("third_lists"), SOURCE, name="tl_third_lists")


@pytest.mark.parametrize("case", CASES)
def test_third_derivative_against_differences(m, case):
    f, eps = getattr(m, case), 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))
    for t in (0.7, 1.3):
        expected = (second(t + eps) - second(t - eps)) / (2 * eps)
        assert np.isclose(third(t), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", AUTOGRAD)
def test_third_derivative_against_autograd(m, case):
    f = getattr(m, case)
    third = tl.grad(tl.grad(tl.grad(f)))
    expected = autograd.grad(autograd.grad(autograd.grad(autograd_version(f))))
    for t in (0.7, 1.3):
        assert np.isclose(third(t), expected(t), rtol=1e-9, atol=1e-12)


def test_third_derivative_of_linspace_exactly(m):
    """sum_k (t k / 4)^3 over k = 0..4 is t^3 (0 + 1 + 8 + 27 + 64) / 64: its third
    derivative is 6 * 100 / 64 whatever t."""
    third = tl.grad(tl.grad(tl.grad(m.f_linspace)))
    assert np.isclose(third(0.7), 600 / 64, rtol=1e-12)
