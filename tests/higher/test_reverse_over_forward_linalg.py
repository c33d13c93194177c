"""Reverse over forward through np.linalg's tangent helpers (cholesky_jvp, eigh_jvp,
eig_jvp, svd_jvp, qr_jvp, norm_jvp, pinv_jvp, slogdet_jvp, solve_jvp: read through their
source, rules/runtime_sources.py): tl.grad of x -> <J(x) v, 1> is H v, checked against
central differences of tangentlike's gradient and, where autograd has the function and
its second derivative, against autograd's Hessian-vector product.

As in test_second_order_decompositions.py, eigen- and singular-vector functions read
squares (the sign NumPy picks has no derivative) and inputs have distinct eigen- and
singular values, the rules' condition."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

B = np.array([0.3, -1.0, 0.5])
C = np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7], [-0.2, 0.8, 1.1]])


def f_cholesky(a):
    return np.sum(np.linalg.cholesky(a @ a.T + 3.0 * np.eye(3)) ** 3)


def f_eigh(a):
    w, v = np.linalg.eigh(a + a.T)
    return np.sum(w ** 3) + np.sum((v ** 2) * C)


def f_eigvalsh(a):
    return np.sum(np.exp(0.3 * np.linalg.eigvalsh(a @ a.T)))


def f_eig(a):
    w, v = np.linalg.eig(np.triu(a) + 0.05 * a)
    return np.sum(w ** 3) + np.sum((v ** 2) * C)


def f_eigvals(a):
    return np.sum(np.sin(np.linalg.eigvals(np.tril(a) - 0.05 * a)))


def f_svd(a):
    u, s, vt = np.linalg.svd(a[:, :2], full_matrices=False)
    return np.sum(s ** 3) + np.sum((u ** 2) @ C[:2, :2]) + np.sum((vt ** 2) * C[:2, :2])


def f_svdvals(a):
    return np.sum(np.sqrt(np.linalg.svd(a, compute_uv=False)))


def f_qr(a):
    q, r = np.linalg.qr(a)
    return np.sum(r ** 2 * C) + np.sum(np.sin(q) * C.T)


def f_qr_r(a):
    return np.sum(np.cos(np.linalg.qr(a, mode="r")))


def f_norm(a):
    return np.linalg.norm(a) ** 3 + np.sum(np.linalg.norm(a, axis=0) ** 2 * B)


def f_norm_spectral(a):
    return np.linalg.norm(a, 2) ** 2


def f_pinv(a):
    return np.sum(np.linalg.pinv(a[:, :2]) ** 2)


def f_slogdet(a):
    sign, logdet = np.linalg.slogdet(a + 3.0 * np.eye(3))
    return logdet ** 2


def f_solve(a):
    return np.sum(np.linalg.solve(a + 3.0 * np.eye(3), np.sin(a)) ** 2)


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

# autograd has these functions and their second derivatives
AUTOGRAD = {"f_cholesky", "f_eigh", "f_svd", "f_svdvals", "f_norm", "f_slogdet", "f_solve"}
CASES = [
    "f_cholesky",
    "f_eigh",
    "f_eigvalsh",
    "f_eig",
    "f_eigvals",
    "f_svd",
    "f_svdvals",
    "f_qr",
    "f_qr_r",
    "f_norm",
    "f_norm_spectral",
    "f_pinv",
    "f_slogdet",
    "f_solve",
]

R = np.random.RandomState(11)
A = R.randn(3, 3)
V = R.randn(3, 3)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rof_linalg"), SOURCE, name="tl_rof_linalg")


@pytest.mark.parametrize("case", CASES)
def test_gradient_of_the_jvp(m, case):
    f = getattr(m, case)
    hv = tl.grad(m.phi_of(tl.jvp(f)))(A, V)
    assert hv.shape == A.shape
    np.testing.assert_allclose(hv, fd_hvp(f, A, V), rtol=1e-5, atol=1e-6)
    if case in AUTOGRAD:
        expected = autograd.hessian_vector_product(autograd_version(f))(A, V)
        np.testing.assert_allclose(hv, expected, rtol=1e-8, atol=1e-10)
