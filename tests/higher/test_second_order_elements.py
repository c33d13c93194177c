"""Second order through an element of a vector updated in place (`for e in y: e -= ...`):
the generated gradient asks at run time whether `e` shares y's memory (a row of a matrix
does, an element of a vector is a number) and writes the update into y only where it
does. In its code `e` is then `y[i]` on one path and the new value on the other, which
the alias analysis joins into a "same" view of the new value; a write into y after that
asks at run time that `e` shares none of y's memory (transform/view_updates.py `_asked`,
runtime.untouched) instead of refusing it. Across a loop's rounds `e` (and the sequence
iterated, y itself or a copy) is a "same" view too: the loop's join keeps such views a
few more rounds (analyze/aliases.py) before the strict join that settles. A number
never shares memory: H v (forward over reverse, reverse over reverse) and H against
autograd (on twins written out of place) and central differences of the gradient. A
matrix's rows do share it: the sequence iterated, pushed before each round's write into
the matrix and read back for its shape only, is pushed as a stand-in in the gradient's
form (higher/form_shapes.py), and H v is checked the same way."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_element_in_branch(y):
    s = 0.0
    for e in y:
        if e > 0.0:
            s = s + np.sin(e) * e
        else:
            e -= e * 0.5
            e *= 3.0
            s = s + e * e
    return s + np.sum(y ** 2)


def twin_element_in_branch(y):
    s = 0.0
    for e in y:
        if e > 0.0:
            s = s + np.sin(e) * e
        else:
            e = (e - e * 0.5) * 3.0
            s = s + e * e
    return s + np.sum(y ** 2)


def f_element_then_vector(y):
    t = np.cos(y)
    for e in y:
        if e < 0.5:
            t = t * e
        else:
            e -= e
            e *= 1000.0
            t = t + e
    return np.sum(t * y)


def twin_element_then_vector(y):
    t = np.cos(y)
    for e in y:
        if e < 0.5:
            t = t * e
        else:
            e = (e - e) * 1000.0
            t = t + e
    return np.sum(t * y)


def f_element_loop_with_break(y):
    for i, e in enumerate(y):
        e += e
        if i >= e + 5.0:
            break
        e += np.sin(e)
    return np.sum(y ** 2) * np.sum(np.cos(y))


def twin_element_loop_with_break(y):
    for i, e in enumerate(y):
        e = e + e
        if i >= e + 5.0:
            break
        e = e + np.sin(e)
    return np.sum(y ** 2) * np.sum(np.cos(y))


def f_rows_of_matrix(A):
    for row in A:
        if np.sum(row) > 0.0:
            row *= 2.0
        else:
            row -= row
            row *= 1000.0
    return np.sum(A ** 2)


def twin_rows_of_matrix(A):
    rows = [row * 2.0 if np.sum(row) > 0.0 else (row - row) * 1000.0 for row in A]
    return np.sum(np.array(rows) ** 2)
"""

NAMES = ["f_element_in_branch", "f_element_then_vector", "f_element_loop_with_break"]
POINTS = [np.array([0.6, -0.4, 0.9]), np.array([-0.7, 0.8, -1.2])]  # both branches


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("elements"), SOURCE, name="tl_second_elements")


def _fd_hvp(f, x, v, eps=1e-6):
    g = tl.grad(f)
    return (np.asarray(g(x + eps * v)) - np.asarray(g(x - eps * v))) / (2 * eps)


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_an_element_updated_in_place(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    v = np.array([0.3, 1.1, -0.7])
    given = x.copy()
    hv = tl.hvp(f, method=method)(given, v)
    assert np.array_equal(given, x)  # an element's update leaves the vector alone
    assert np.allclose(hv, _fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_an_element_updated_in_place(m, case, method):
    f, x = getattr(m, case), POINTS[1]
    H = tl.hessian(f, method=method)(x.copy())
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)
    columns = np.stack([_fd_hvp(f, x, e) for e in np.eye(x.size)], axis=-1)
    assert np.allclose(H, columns, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_rows_of_a_matrix_updated_in_place(m, method):
    A = np.array([[0.3, -0.5], [0.7, 0.2], [-0.6, -0.1]])  # both branches
    v = np.array([[0.4, -1.2], [0.9, 0.3], [-0.2, 1.1]])
    given = A.copy()
    hv = tl.hvp(m.f_rows_of_matrix, method=method)(given, v)
    assert np.allclose(hv, _fd_hvp(m.f_rows_of_matrix, A, v), rtol=1e-4, atol=1e-6)
    twin = autograd_version(m.twin_rows_of_matrix)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(A)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)
