"""Second order through the adjoint helpers of the matrix decompositions (eigh_vjp,
eig_vjp, svd_vjp, qr_vjp, also behind scipy.linalg.eigh and svd) and of scipy.linalg.expm
(frechet_block, top_right): they are differentiated through their source
(rules/runtime_helpers.py THROUGH_SOURCE), every call in it having a rule of its own.
Hessian-vector products (forward over reverse and reverse over reverse), Hessians and
the tangent of a gradient are checked against autograd where it has the function and
against central differences of the gradient.

Eigenvector and singular-vector functions here are invariant under the sign NumPy
picks for each vector (they read squares), as the derivative of a sign choice is not
defined; inputs have distinct eigen- and singular values, the rules' condition."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import scipy.linalg

C = np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7], [-0.2, 0.8, 1.1]])
D = np.array([[0.4, -0.6, 1.2, 0.1], [0.9, 0.2, -0.3, -1.0], [0.3, -0.8, 0.5, 0.6]])


def f_eigh(a):
    w, v = np.linalg.eigh(a + a.T)
    return np.sum(w ** 3) + np.sum((v ** 2) * C)


def f_eigvalsh(a):
    return np.sum(np.exp(0.3 * np.linalg.eigvalsh(a @ a.T)))


def f_eigh_upper(a):
    w, v = np.linalg.eigh(a, UPLO="U")
    return np.sum(np.sin(w)) + np.sum((v ** 2) * C)


def f_eigh_batched(a):
    w, v = np.linalg.eigh(np.stack([a + a.T, a @ a.T]))
    return np.sum(w ** 2) + np.sum(v[0] ** 2 * C) + np.sum(v[1] ** 4)


def f_eig(a):
    w, v = np.linalg.eig(np.triu(a) + 0.05 * a)
    return np.sum(w ** 3) + np.sum((v ** 2) * C)


def f_eigvals(a):
    return np.sum(np.sin(np.linalg.eigvals(np.tril(a) - 0.05 * a)))


def f_svd(a):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return np.sum(s ** 3) + np.sum((u ** 2) @ C) + np.sum((vt ** 2) * C)


def f_svd_wide(a):
    u, s, vt = np.linalg.svd(a.T, full_matrices=False)
    return np.sum(np.log(s)) + np.sum((u ** 2) * C) + np.sum((vt ** 2) * D)


def f_svd_square(a):
    u, s, vt = np.linalg.svd(a[:3])
    return np.sum(s ** 2 * np.arange(3.0)) + np.sum((u ** 2) * C) + np.sum(vt ** 4)


def f_svdvals(a):
    return np.sum(np.sqrt(np.linalg.svd(a, compute_uv=False)))


def f_qr(a):
    q, r = np.linalg.qr(a)
    return np.sum(r ** 2 * C) + np.sum(np.sin(q) * D.T)


def f_qr_r(a):
    r = np.linalg.qr(a, mode="r")
    return np.sum(np.cos(r))


def f_expm(a):
    return np.sum(np.sin(scipy.linalg.expm(0.5 * a[:3])))


def f_scipy_eigh(a):
    w, v = scipy.linalg.eigh(a, lower=False)
    return np.sum(w ** 3) + np.sum((v ** 2) * C)


def f_scipy_svd(a):
    u, s, vt = scipy.linalg.svd(a, full_matrices=False)
    return np.sum(np.sqrt(s)) + np.sum((u ** 2) @ C)


def f_svd_full(a):
    u, s, vt = np.linalg.svd(a)
    return np.sum(s ** 3) + np.sum(u[:, :3] ** 2 @ C)


def f_eig_complex(a):
    w, v = np.linalg.eig(a)
    return np.sum(w ** 2)
"""

R = np.random.RandomState(11)
A3 = R.randn(3, 3)
A43 = R.randn(4, 3)
V3 = R.randn(3, 3)
V43 = R.randn(4, 3)
# name -> (x, v, autograd has the function and its second derivative)
CASES = {
    "f_eigh": (A3, V3, True),
    "f_eigvalsh": (A3, V3, False),  # autograd has no eigvalsh gradient
    "f_eigh_upper": (A3, V3, False),  # autograd's eigh gradient is the symmetric one
    "f_eigh_batched": (A3, V3, True),
    "f_eig": (A3, V3, False),  # autograd's eig is complex
    "f_eigvals": (A3, V3, False),
    "f_svd": (A43, V43, True),
    "f_svd_wide": (A43, V43, True),
    "f_svd_square": (A43, V43, False),  # autograd: no gradient of a full svd
    "f_svdvals": (A43, V43, True),
    "f_qr": (A43, V43, False),  # autograd.numpy.linalg.qr has no gradient
    "f_qr_r": (A43, V43, False),
    "f_scipy_eigh": (A3, V3, False),  # the upper triangle read
    "f_scipy_svd": (A43, V43, False),
    "f_expm": (A43, V43, False),  # autograd has no second derivative of expm
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("decomp2"), SOURCE, name="tl_second_decomp")


def _autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp(m, case, method):
    f = getattr(m, case)
    x, v, has_autograd = CASES[case]
    hv = tl.hvp(f, method=method)(x, v)
    assert hv.shape == x.shape
    np.testing.assert_allclose(hv, fd_hvp(f, x, v), rtol=1e-5, atol=1e-5)
    if has_autograd:
        np.testing.assert_allclose(hv, _autograd_hvp(f, x, v), rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("case", ["f_eigh", "f_svd", "f_eigh_batched"])
def test_hessian(m, case):
    f = getattr(m, case)
    x = CASES[case][0]
    h = tl.hessian(f)(x)
    assert h.shape == x.shape + x.shape
    expected = autograd.hessian(autograd_version(f))(x)
    np.testing.assert_allclose(h, expected, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("case", ["f_eig", "f_qr"])
def test_tangent_of_the_gradient(m, case):
    """jvp(grad(f)): the gradient's own tangent, forward over reverse by hand."""
    f = getattr(m, case)
    x, v, _ = CASES[case]
    _, tangent = tl.jvp(tl.grad(f))(x, v)
    np.testing.assert_allclose(tangent, fd_hvp(f, x, v), rtol=1e-5, atol=1e-5)


def test_grad_of_grad(m):
    """tl.grad of a scalar made from tl.grad: <grad f, v> differentiated again is H v."""
    df = tl.grad(m.f_svd)

    def directional(a, v):
        return np.sum(df(a) * v)

    hv = tl.grad(directional)(A43, V43)
    np.testing.assert_allclose(hv, fd_hvp(m.f_svd, A43, V43), rtol=1e-5, atol=1e-5)


def test_full_svd_of_a_tall_matrix_stays_refused(m):
    """Full U of a tall matrix: its extra columns are not unique, the rule refuses at run
    time at first order and so at second order (never a value)."""
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        tl.grad(m.f_svd_full)(A43)
    for method in ("forward", "reverse"):
        with pytest.raises(NotImplementedError, match="full_matrices=False"):
            tl.hvp(m.f_svd_full, method=method)(A43, V43)


def test_complex_eigenvalues_stay_refused(m):
    rotation = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    for method in ("forward", "reverse"):
        with pytest.raises(ValueError, match="complex eigenvalues"):
            tl.hvp(m.f_eig_complex, method=method)(rotation, V3)
