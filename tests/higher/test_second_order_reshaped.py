"""Second order through updates in place of a reshape, transpose or row of an array
(`z = y.reshape(2, 2); z *= ...`, `z = A[1]; z /= ...`; issue 12, hvp fuzz seed 12
programs 35, 89, 110, ...).

The gradient lowers the update in two ways (`if _shares1:` the reshape is a view: y is
written and z made again; else z alone changes) and pushes z in each branch. The
differentiable form pairs each pop with its branch's push through a saved name, None on
the other path (higher/form_pairs.py), so after the branches the saved name is the
reshape view of y on one path and None on the other; the join dropped the view, and the
restore of y in the backward sweep (`y[...] = _stack[0]`) then found z, read afterwards,
sharing y's memory: refused at run time. analyze/joins.py keeps a view that may be a copy
(reshape, transpose, new axes) across a join when the other path's value shares none of
its base's memory, so the second pass asks `same_memory` and makes z again after the
restore; a row or slice becomes such a view (asked, written back by its index).
Hessian-vector products (both methods, points on both branches where there is one),
Hessians (both methods) and grad of grad against autograd on twins written out of place,
and against central differences of the gradient; a first-order case where the joined
view is a new array on one path (the update must leave it alone there), and an element
of a vector (a number: the update leaves the vector alone)."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_argument_reshaped(x):
    z = x.reshape(2, 2)
    z *= np.sin(x[0]) + 2.0
    return np.sum(x ** 2 * x[1]) + np.sum(np.cos(z))


def twin_argument_reshaped(x):
    x = x * (np.sin(x[0]) + 2.0)
    z = x.reshape(2, 2)
    return np.sum(x ** 2 * x[1]) + np.sum(np.cos(z))


def f_local_reshaped(x):
    y = np.exp(x) * 1.0
    z = y.reshape(2, 2)
    z -= np.reshape(x, (2, 2)) ** 2
    return np.sum(y * y) + np.sum(np.sin(z)) * x[2]


def twin_local_reshaped(x):
    y = np.exp(x) * 1.0 - x ** 2
    z = y.reshape(2, 2)
    return np.sum(y * y) + np.sum(np.sin(z)) * x[2]


def f_transposed(x):
    A = np.outer(x, x) + 1.0
    T = A.T
    T *= np.cos(x)
    return np.sum(np.sin(A)) + np.sum(T * x)


def twin_transposed(x):
    A = np.outer(x, x) + 1.0
    A = (A.T * np.cos(x)).T
    T = A.T
    return np.sum(np.sin(A)) + np.sum(T * x)


def f_reshaped_on_one_path(x):
    y = x * 1.0
    if x[0] > 0.0:
        z = y.reshape(2, 2)
    else:
        z = np.ones((2, 2)) * x[1]
    y *= np.sin(x)
    return np.sum(z * np.cos(y.reshape(2, 2))) + np.sum(z ** 2)


def twin_reshaped_on_one_path(x):
    y = x * np.sin(x)
    if x[0] > 0.0:
        z = y.reshape(2, 2)
    else:
        z = np.ones((2, 2)) * x[1]
    return np.sum(z * np.cos(y.reshape(2, 2))) + np.sum(z ** 2)


def f_row_updated(x):
    A = np.outer(x, x) + 1.0
    z = A[1]
    z /= np.cos(x) + 2.0
    return np.sum(np.sin(A)) + np.sum(z * x)


def twin_row_updated(x):
    A = np.outer(x, x) + 1.0
    z = A[1] / (np.cos(x) + 2.0)
    A = np.concatenate([A[:1], z[None], A[2:]])
    return np.sum(np.sin(A)) + np.sum(z * x)


def f_element_of_argument(x):
    z = x[1]
    z /= np.cos(x[0]) + 2.0
    return np.sum(np.sin(x) * x) + z * x[2]


def twin_element_of_argument(x):
    z = x[1] / (np.cos(x[0]) + 2.0)
    return np.sum(np.sin(x) * x) + z * x[2]
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINTS = [np.array([0.6, -0.4, 0.9, 0.3]), np.array([-0.7, 0.5, -1.2, 0.8])]  # both branches
V = np.array([0.3, 1.1, -0.7, 0.45])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("reshaped2"), SOURCE, name="tl_second_reshaped")


def _twin(m, case):
    return autograd_version(getattr(m, case.replace("f_", "twin_", 1)))


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_reshapes_updated_in_place(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    given = x.copy()
    hv = tl.hvp(f, method=method)(given, V)
    assert np.allclose(hv, fd_hvp(f, x, V), rtol=1e-4, atol=1e-6)
    twin = _twin(m, case)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_reshapes_updated_in_place(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    given, changed = x.copy(), x.copy()
    H = tl.hessian(f, method=method)(given)
    assert np.allclose(H, autograd.hessian(_twin(m, case))(x), rtol=1e-7, atol=1e-9)
    f(changed)  # f_argument_reshaped changes its argument: H's columns, once in all
    assert np.allclose(given, changed, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize("case", NAMES)
def test_grad_of_grad_through_reshapes_updated_in_place(m, case):
    f, x = getattr(m, case), POINTS[1]
    g = tl.grad(f)
    gg = tl.grad(lambda y: np.sum(g(y) * V))(x.copy())
    twin = _twin(m, case)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(x)
    assert np.allclose(gg, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("case", NAMES)
def test_first_order_unchanged(m, case, point):
    f, x = getattr(m, case), POINTS[point]
    g = tl.grad(f)(x.copy())
    assert np.allclose(g, autograd.grad(_twin(m, case))(x), rtol=1e-9, atol=1e-12)
