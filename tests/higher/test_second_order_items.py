"""Second order through writes by index into a list the function made (`L[k] = v`): the
differentiable form spells out saved_item / restore_item for a name that is certainly a
list (higher/form_items.py) and calls take_item's copying twin (rules/runtime_pieces.py).
Hessian-vector products (forward over reverse, reverse over reverse) and Hessians against
autograd and central differences of the gradient; grad of grad for a scalar."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_write(x):
    L = [x, 2.0 * x]
    L[0] = np.sin(x) * L[1]
    return np.sum(L[0] * L[1])


def f_write_twice(x):
    L = [x * x, np.cos(x), x]
    L[1] = L[0] * L[2]
    L[0] = np.exp(L[1]) + L[2]
    return np.sum(L[0] ** 2) + np.sum(L[1] * L[2])


def f_write_loop(x):
    L = [x, x * x]
    for i in range(3):
        L[i % 2] = np.sin(L[0]) * L[1] + 0.5 * i
    return np.sum(L[0] * L[1]) + np.sum(L[1] ** 2)


def f_write_branch(x):
    L = [x, np.tanh(x)]
    if np.sum(x) > 0.0:
        L[1] = L[0] ** 3
    else:
        L[0] = L[1] * x
    return np.sum(L[0] * np.sin(L[1]))


def f_write_appended(x):
    L = [x]
    for i in range(2):
        L.append(np.sin(L[-1]) * x)
    L[1] = L[2] * L[0]
    return np.sum(L[1] * L[2]) + np.sum(L[0] ** 2)


def f_scalar(x):
    L = [x, x * x]
    L[1] = np.sin(L[1]) * L[0]
    return L[0] * L[1] ** 2
"""

R = np.random.RandomState(11)
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
ARRAYS = sorted(n for n in NAMES if n != "f_scalar")


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("items2"), SOURCE, name="tl_second_items")


def _point(case):
    x = R.randn(3) * 0.7
    if case == "f_write_branch":
        x = np.abs(x) + 0.1  # away from the branch boundary
    return x


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", ARRAYS)
def test_hvp_through_list_writes(m, case, method):
    f, x = getattr(m, case), _point(case)
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    af = autograd_version(f)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", ARRAYS)
def test_hessian_through_list_writes(m, case, method):
    f, x = getattr(m, case), _point(case)
    H = tl.hessian(f, method=method)(x)
    expected = autograd.hessian(autograd_version(f))(x)
    assert np.allclose(H, expected, rtol=1e-7, atol=1e-9)
    columns = np.stack([fd_hvp(f, x, e) for e in np.eye(x.size)], axis=-1)
    assert np.allclose(H, columns, rtol=1e-4, atol=1e-6)


def test_grad_of_grad_through_list_writes(m):
    f, x = m.f_scalar, 0.8
    second = tl.grad(tl.grad(f))(x)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(x)
    assert np.isclose(second, expected, rtol=1e-7, atol=1e-9)
    g = tl.grad(f)
    assert np.isclose(second, (g(x + 1e-6) - g(x - 1e-6)) / 2e-6, rtol=1e-5)
