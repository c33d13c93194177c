"""Second order through np.linalg.solve's and np.linalg.cholesky's adjoint helpers
(solve_vjp, cholesky_vjp: differentiated through their source, rules/runtime_helpers.py
THROUGH_SOURCE): Hessian-vector products, forward over reverse and reverse over
reverse, against autograd and central differences of the gradient; np.cumprod's helper
stays refused at an exact zero (its exact case there is not differentiable)."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

B = np.array([0.3, -1.0, 0.5])


def f_solve(a):
    return np.sum(np.linalg.solve(a, B * a[0, 0]) ** 2)


def f_solve_matrix(a):
    return np.sum(np.linalg.solve(a + 3 * np.eye(3), np.sin(a)) ** 2)


def f_solve_batched(a):
    rhs = np.stack([B, a[1]])[..., None]
    return np.sum(np.linalg.solve(np.stack([a, a.T + np.eye(3)]), rhs) ** 2)


def f_cholesky(a):
    s = a @ a.T + 3.0 * np.eye(3)
    return np.sum(np.linalg.cholesky(s) ** 3)


def f_cholesky_logdet(a):
    s = a.T @ a + np.eye(3)
    return 2.0 * np.sum(np.log(np.diagonal(np.linalg.cholesky(s)))) * np.sum(a)


def f_cumprod(a):
    return np.sum(np.sin(np.cumprod(a)))
"""

R = np.random.RandomState(5)
A = R.randn(3, 3) + 2 * np.eye(3)
V = R.randn(3, 3)
# autograd's second derivative of np.diagonal raises (make_diagonal: offset 0 only)
NO_AUTOGRAD = {"f_cholesky_logdet"}
NAMES = ["f_solve", "f_solve_matrix", "f_solve_batched", "f_cholesky", "f_cholesky_logdet"]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("linalg2"), SOURCE, name="tl_second_linalg")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method)(A, V)
    assert hv.shape == A.shape
    assert np.allclose(hv, fd_hvp(f, A, V), rtol=1e-5, atol=1e-6)
    if case in NO_AUTOGRAD:
        return
    af = autograd_version(f)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * V))(A)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


def test_hessian_of_solve(m):
    h = tl.hessian(m.f_solve_matrix)(A)
    assert h.shape == (3, 3, 3, 3)
    expected = autograd.hessian(autograd_version(m.f_solve_matrix))(A)
    assert np.allclose(h, expected, rtol=1e-7, atol=1e-9)


def test_cumprod_at_a_zero_stays_refused(m):
    """cumprod_vjp's exact formula at a zero takes the tail after the zero as constant
    (its derivative would be wrong there): refused when the gradient runs
    (tests/higher/test_second_order_cumprod.py has the cases without zeros)."""
    with pytest.raises(tl.TangentlikeError, match=r"np.cumprod where its input holds an exact"):
        tl.hvp(m.f_cumprod, method="reverse")(np.array([1.3, 0.0, 0.7]), np.ones(3))
