"""Second order through an array written by index and then rebound on one path
(`v[1] *= ...`, then `if c: v = (v - 1)[::-1]`; issue 12, shrunk from hvp fuzz seed 12
program 8): the gradient restores v by a pop in the branch and by an item write after it
(`v[1] = _pop()`). The differentiable form pairs the branch's pop through a saved name
prebound to None (higher/form_pairs.py), so the item restore writes into a name that is
the array, a slice of arithmetic with it, or the saved name, None on the path where the
branch did not run. The container check counted None as perhaps a list ('writing into the
list or dict '_pushed1' by index') and refused; None is no container (an item write into
it fails), which transform/containers.py `_ndarray` now says. Hessian-vector products
(both methods, both branches), Hessians and grad of grad against autograd on an
out-of-place twin, and against central differences of the gradient; refused on main."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f(y, x):
    v = np.array([np.log(1.0 + x ** 2), np.mean(y * y), np.exp(-x)])
    v[-2] *= np.sum(np.sin(v))
    if x < 0.0:
        v = (-1 + v)[::-1]
    return np.sum(v ** 2) * np.sum(y) + np.sum(np.sin(y)) * 0.5


def twin(y, x):
    a, b, c = np.log(1.0 + x ** 2), np.mean(y * y), np.exp(-x)
    b = b * np.sum(np.sin(np.array([a, b, c])))
    v = np.array([a, b, c])
    if x < 0.0:
        v = (-1 + v)[::-1]
    return np.sum(v ** 2) * np.sum(y) + np.sum(np.sin(y)) * 0.5
"""

Y = np.array([0.6, -0.4, 0.9, 0.3])
V = np.array([0.3, 1.1, -0.7, 0.45])
XS = [0.3, -0.3]  # both branches


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("prebound2"), SOURCE, name="tl_second_prebound")


def _expected_hvp(m, x):
    twin = autograd_version(m.twin)
    gradient = autograd.grad(twin)
    return autograd.grad(lambda y: autograd.numpy.sum(gradient(y, x) * V))(Y)


@pytest.mark.parametrize("x", XS)
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_through_a_restore_after_a_branch_rebinding(m, method, x):
    hv = tl.hvp(m.f, method=method)(Y.copy(), x, V)
    assert np.allclose(hv, fd_hvp(lambda y: m.f(y, x), Y, V), rtol=1e-4, atol=1e-6)
    assert np.allclose(hv, _expected_hvp(m, x), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("x", XS)
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hessian_through_a_restore_after_a_branch_rebinding(m, method, x):
    H = tl.hessian(m.f, method=method)(Y.copy(), x)
    expected = autograd.hessian(autograd_version(m.twin))(Y, x)
    assert np.allclose(H, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("x", XS)
def test_grad_of_grad_through_a_restore_after_a_branch_rebinding(m, x):
    g = tl.grad(m.f)
    gg = tl.grad(lambda y: np.sum(g(y, x) * V))(Y.copy())
    assert np.allclose(gg, _expected_hvp(m, x), rtol=1e-7, atol=1e-9)
