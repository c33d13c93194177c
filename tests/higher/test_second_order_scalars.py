"""Second order through math.prod's, math.dist's and np.arange's adjoint helpers (unprod,
prod_of, undist, inner, negated, arange_vjp: rules/runtime_scalars.py, maths in
runtime/higher_scalars.py): each was refused ("has no second-order rule yet") when a
gradient calling it was differentiated again. Hessian-vector products forward over
reverse and reverse over reverse, against central differences of tangentlike's own
gradient, and against autograd's where autograd runs the function (math.prod multiplies
autograd's boxes; math.dist and np.arange with a differentiated start take floats)."""

from __future__ import annotations

import math

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import math

import numpy as np


def f_prod_array(x):
    return math.prod(x) * x[0]


def f_prod_list(x):
    return math.prod([x[0], x[1] ** 2, np.sin(x[2])]) * x[3]


def f_prod_start(x):
    return math.prod([x[0], x[1]], start=x[2] ** 2) + x[3] ** 3


def f_prod_rows(x):
    rows = np.reshape(x[:4], (2, 2))
    return np.sum(math.prod([rows, np.sin(rows), rows * x[3]]) ** 2)


def f_prod_loop(x):
    total = 0.0
    for k in range(3):
        total = total + math.prod([x[k], x[k + 1] ** 2])
    return total


def f_dist_arrays(x):
    return math.dist(x[:2], x[2:]) * x[0]


def f_dist_list(x):
    return math.dist([x[0], x[1]], [x[2] ** 2, 1.0]) ** 3


def f_dist_chain(x):
    return np.sin(math.dist([x[0] * x[3], x[1]], [np.cos(x[2]), x[3]]))


def f_arange_start(x):
    return np.sum(np.sin(np.arange(x[0], 3.0, 0.5)) * x[1])


def f_arange_step(x):
    return np.sum(np.arange(0.5, 3.0, x[1]) ** 2 * x[2])


def f_arange_both(x):
    return np.sum(np.exp(0.2 * np.arange(x[0], 4.0, x[1] ** 2)))


def g_dist(t):
    return math.dist([t, t ** 2], [1.0, np.sin(t)]) ** 3


def g_prod(t):
    return math.prod([t, t ** 2, np.cos(t)])
"""

# autograd runs these (math.prod of its boxes)
AUTOGRAD = {"f_prod_array", "f_prod_list", "f_prod_start", "f_prod_loop"}
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
X = np.array([0.7, 1.3, -0.4, 0.9])
V = np.array([0.3, -0.5, 0.8, 0.2])
CASES = {name: X for name in NAMES}
CASES["f_arange_start"] = np.array([0.3, 1.3, -0.4, 0.9])  # away from a jump in the count
CASES["f_arange_step"] = np.array([0.7, 0.45, -0.4, 0.9])
CASES["f_arange_both"] = np.array([0.3, 0.8, -0.4, 0.9])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("scalars2"), SOURCE, name="tl_second_scalars")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    hv = tl.hvp(f, method=method)(x, V)
    assert np.shape(hv) == np.shape(x)
    np.testing.assert_allclose(hv, fd_hvp(f, x, V), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        expected = autograd.hessian_vector_product(autograd_version(f))(x, V)
        np.testing.assert_allclose(hv, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("case", ["f_prod_list", "f_prod_rows", "f_dist_list", "f_dist_chain"])
def test_hessian_through_helper(m, case):
    """Columns H e_k: a list adjoint's items left zero (None) by a column (the constant
    1.0 in f_dist_list's second point) are read as zeros."""
    f, x = getattr(m, case), CASES[case]
    H = tl.hessian(f)(x)
    columns = [fd_hvp(f, x, e) for e in np.eye(x.size)]
    np.testing.assert_allclose(H, np.array(columns).T, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_prod_exact_at_a_zero(m, method):
    """unprod and its second-order maths multiply the other items, never divide: an item
    exactly 0 gives the exact Hessian (x[2] = 0 here: x[0] * x[1] ** 2 * sin(x[2]))."""
    x = np.array([0.7, 1.3, 0.0, 0.9])
    hv = tl.hvp(m.f_prod_list, method=method)(x, V)
    expected = autograd.hessian_vector_product(autograd_version(m.f_prod_list))(x, V)
    np.testing.assert_allclose(hv, expected, rtol=1e-12, atol=1e-12)
    assert np.all(np.isfinite(hv)) and np.any(hv != 0)


def test_third_order_through_dist(m):
    """undist's second-order rule is spelled with inner, scaled, negated and ratio_or_zero,
    each with rules of its own: a third derivative goes through them."""
    t, eps = 0.8, 1e-5
    second = tl.grad(tl.grad(m.g_dist))
    third = tl.grad(tl.grad(tl.grad(m.g_dist)))(t)
    np.testing.assert_allclose(third, (second(t + eps) - second(t - eps)) / (2 * eps), rtol=1e-6)


def test_third_order_through_prod_is_refused(m):
    """unprod's second-order maths (unprod_hessian) has no rule of its own: a third
    derivative through math.prod is refused, located at the user's line."""
    assert np.isclose(
        tl.grad(tl.grad(m.g_prod))(0.8),
        autograd.grad(autograd.grad(autograd_version(m.g_prod)))(0.8),
    )
    with pytest.raises(UnsupportedSyntaxError, match="unprod_hessian") as info:
        tl.grad(tl.grad(tl.grad(m.g_prod)))(0.8)
    assert "return math.prod([t, t ** 2, np.cos(t)])" in str(info.value)


def test_prod_of_rows_forward(m):
    """math.prod over the rows of a 2-D array, in forward mode: its tangent sums the
    rows' terms entry by entry (inner along the items' axis), a row's shape."""
    X2 = np.array([[1.0, 2.0], [3.0, -4.0], [0.5, 2.0]])
    T2 = np.array([[0.1, -0.3], [0.2, 0.4], [-0.5, 0.7]])
    _, tangent = tl.jvp(prod_rows)(X2, T2)
    eps = 1e-6
    expected = (prod_rows(X2 + eps * T2) - prod_rows(X2 - eps * T2)) / (2 * eps)
    np.testing.assert_allclose(tangent, expected, rtol=1e-8)


def prod_rows(a):
    return math.prod(a)
