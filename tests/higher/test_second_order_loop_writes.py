"""Second order of loops that write arrays by index: rows, columns, stencils, recurrences.

The gradient reads views (`M[i]`) made in a statement that then writes M in place,
and keeps them on its stack; differentiated again, those views were refused
(`M[i] = M[i] * (i + 1) + np.sin(M[i])` in a loop, Gram-Schmidt's column updates, a
stencil `u[1:-1] += ...`). The differentiable form copies a view every forward read
of which comes before any write into its array (higher/form_copies.py). References:
central differences of the first-order gradient, itself checked against central
differences of f (autograd cannot run writes by index).
"""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl


def row_updates(x):
    M = np.outer(x, np.ones(3))
    for i in range(M.shape[0]):
        M[i] = M[i] * (i + 1) + np.sin(M[i])
    return np.sum(M**2)


def normalize_rows(x):
    M = x.reshape(2, 3).copy()
    for i in range(2):
        M[i] = M[i] / np.sum(M[i] ** 2)
    return np.sum(M * x.reshape(2, 3))


def gram_schmidt(v):
    A = v.reshape(3, 3).copy()
    for j in range(3):
        for k in range(j):
            A[:, j] -= (A[:, k] @ A[:, j]) * A[:, k]
        A[:, j] /= np.linalg.norm(A[:, j])
    return np.sum(A**3)


def stencil(u0):
    u = u0.copy()
    for _ in range(3):
        u[1:-1] += 0.1 * (u[:-2] - 2 * u[1:-1] + u[2:])
    return np.sum(u**2)


def heat(u0):
    """A new array written by slice each step: its pops are what its pushes saved."""
    u = u0.copy()
    for _ in range(3):
        lap = np.zeros_like(u)
        lap[1:-1] = u[:-2] - 2 * u[1:-1] + u[2:]
        u = u + 0.1 * lap
    return np.sum(u**2)


def recurrence(x):
    y = np.zeros_like(x)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = 0.5 * y[i - 1] + x[i] ** 2
    return np.sum(y**2)


def kernel_matrix(x):
    n = len(x)
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            K[i, j] = np.exp(-((x[i] - x[j]) ** 2))
    return np.sum(K @ x)


def view_read_after_the_write(x):
    """`r` is a view the write changes: what it reads afterwards is the new row."""
    M = np.outer(x, np.ones(2))
    r = M[0]
    M[0] = M[0] * 3.0 + x[1]
    return np.sum(r * x[0]) + np.sum(M**2)


CASES = [
    (row_updates, np.array([0.3, -0.5, 0.8, 1.1])),
    (normalize_rows, np.array([0.3, -0.5, 0.8, 1.1, 0.2, 0.7])),
    (gram_schmidt, np.array([2.0, 0.3, 0.1, 0.2, 1.5, 0.4, 0.3, 0.2, 1.8])),
    (stencil, np.array([0.0, 0.3, 1.0, 0.2, -0.4])),
    (heat, np.array([0.0, 0.3, 1.0, 0.2, -0.4])),
    (recurrence, np.array([0.3, -0.5, 0.8, 1.1])),
    (kernel_matrix, np.array([0.3, -0.5, 0.8])),
    (view_read_after_the_write, np.array([0.3, -0.5, 0.8])),
]
IDS = [f.__name__ for f, _ in CASES]


def _central_gradient(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def _central_hessian(f, x, eps=1e-5):
    grad = tl.grad(f)
    columns = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        columns.append((grad(x + e) - grad(x - e)) / (2 * eps))
    return np.array(columns).T


@pytest.mark.parametrize("f, x", CASES, ids=IDS)
def test_the_gradient_is_right(f, x):
    np.testing.assert_allclose(tl.grad(f)(x), _central_gradient(f, x), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("f, x", CASES, ids=IDS)
def test_hvp_matches_differences_of_the_gradient(f, x, method):
    v = np.linspace(-1.0, 1.0, x.size)
    got = tl.hvp(f, method=method)(x, v)
    np.testing.assert_allclose(got, _central_hessian(f, x) @ v, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("f, x", CASES, ids=IDS)
def test_hessian_matches_differences_of_the_gradient(f, x):
    H = tl.hessian(f)(x)
    np.testing.assert_allclose(H, _central_hessian(f, x), rtol=1e-5, atol=1e-6)
