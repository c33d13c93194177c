"""Second order through the adjoint helpers of np.meshgrid, np.vectorize and
np.apply_along_axis (rules/runtime_lists.py): each was refused ("has no second-order
rule yet") when a gradient calling it was differentiated again; so was meshgrid's
forward form differentiated in reverse (reverse over forward). Hessian-vector products
forward over reverse and reverse over reverse against central differences of
tangentlike's own gradient (autograd differentiates none of these)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

W = np.arange(12.0).reshape(3, 4) / 7.0 - 0.5


def f_meshgrid(x):
    a, b = np.meshgrid(x[:3] ** 2, np.sin(x[3:]))
    return np.sum((a * b) ** 2)


def f_meshgrid_ij(x):
    a, b, c = np.meshgrid(x[:2], x[2:4] ** 3, np.cos(x[4:]), indexing="ij")
    return np.sum(np.sin(a * b + c))


def f_meshgrid_one_used(x):
    a, b = np.meshgrid(x[:4] ** 2, np.arange(3.0))
    return np.sum(a ** 3 * b)


def f_meshgrid_sparse(x):
    a, b = np.meshgrid(x[:2] ** 2, np.exp(x[2:]), sparse=True)
    return np.sum((a + b) ** 3)


def element(e):
    return np.sin(e) * e ** 2


def f_vectorize(x):
    y = x * 1.5
    return np.sum(np.vectorize(element)(y) ** 2)


def row_value(r):
    return np.sum(r ** 2) * r[0]


def row_vector(r):
    return r * np.sum(np.sin(r))


def f_apply_along_axis(x):
    m = np.reshape(x, (3, 2))
    return np.sum(np.apply_along_axis(row_value, 1, m) ** 2)


def f_apply_along_axis_rows(x):
    m = np.reshape(x, (2, 3))
    return np.sum(np.apply_along_axis(row_vector, 0, m) ** 2 * np.arange(6.0).reshape(2, 3))
"""

R = np.random.RandomState(14)
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
CASES = {name: R.randn(6) for name in NAMES}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("lists2"), SOURCE, name="tl_second_lists")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", ["f_meshgrid_ij", "f_vectorize", "f_apply_along_axis"])
def test_hessian_through_helper(m, case):
    f, x = getattr(m, case), CASES[case]
    H = tl.hessian(f)(x)
    columns = [fd_hvp(f, x, e) for e in np.eye(x.size)]
    assert np.allclose(H, np.array(columns).T, rtol=1e-4, atol=1e-6)
