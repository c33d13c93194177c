"""jit=True compiles matrix products and row reductions: the matmul_vjp_a / matmul_vjp_b
kernels give the Python adjoint's gradient for every pairing of vectors and matrices, in
straight-line code and in a loop (an RNN), and np.sum / np.max(x, axis=k, keepdims=True)
compile (a softmax MLP); checked against the Python adjoint, NumPy and the runtime
helpers themselves, and central differences (numba absent: skipped)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl
from tangentlike import runtime

pytest.importorskip("numba")

SOURCE = """
import numpy as np


def matrix_matrix(A, B):
    return np.sum(np.tanh(A @ B))


def matrix_vector(A, v):
    return np.sum(np.sin(A @ v))


def vector_matrix(v, B):
    return np.sum(np.cos(v @ B))


def vector_vector(u, v):
    return np.sin(u @ v)


def logistic(w, b, X, y):
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, -y * z))


def softmax_mlp(W1, W2, X, Y):
    H = np.maximum(X @ W1, 0.0)
    logits = H @ W2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(Y * log_probs) / X.shape[0]


def rnn(W, U, h, xs):
    total = 0.0
    for t in range(len(xs)):
        h = np.tanh(h @ W + xs[t] @ U)
        total = total + np.sum(h * h)
    return total
"""

RNG = np.random.default_rng(11)
A, B = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 2))
U4, V4, V3 = RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal(3)
X, Y = RNG.standard_normal((6, 4)), np.sign(RNG.standard_normal(6))
W, UU, H = RNG.standard_normal((3, 3)) * 0.5, RNG.standard_normal((2, 3)), RNG.standard_normal(3)
XS = RNG.standard_normal((5, 2))

# (function, arguments, wrt)
CASES = [
    ("matrix_matrix", (A, B), (0, 1)),
    ("matrix_vector", (A, V4), (0, 1)),
    ("vector_matrix", (V3, A), (0, 1)),
    ("vector_vector", (U4, V4), (0, 1)),
    ("logistic", (V4, 0.3, X, Y), (0, 1)),
    ("rnn", (W, UU, H, XS), (0, 1, 2)),
    ("softmax_mlp", (A.T, B[:3], X, np.eye(2)[[0, 1, 1, 0, 1, 0]]), (0, 1)),
]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jit_products"), SOURCE)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_compiled_products_match_python_and_fd(m, case):
    name, args, wrt = case
    f = getattr(m, name)
    compiled = tl.grad(f, wrt=wrt, jit=True)(*args)
    plain = tl.grad(f, wrt=wrt)(*args)
    for i, g, e in zip(wrt, compiled, plain, strict=True):
        assert type(g) is type(e)
        assert np.shape(g) == np.shape(e)
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-14)
        check_against_fd(f, g, args, i)


@pytest.mark.parametrize(
    ("a", "b"),
    [(A, B), (A, V4), (V3, A), (U4, V4)],
    ids=["matrix-matrix", "matrix-vector", "vector-matrix", "vector-vector"],
)
def test_kernels_compute_the_runtime_helpers(a, b):
    import numba

    from tangentlike.jit import kernels

    g = np.ones(np.shape(a @ b)) * 0.7 if np.ndim(a @ b) else 0.7

    @numba.njit
    def both(g, a, b):
        return kernels.matmul_vjp_a(g, a, b), kernels.matmul_vjp_b(g, a, b)

    got_a, got_b = both(g, a, b)
    np.testing.assert_allclose(got_a, runtime.matmul_vjp_a(g, a, b), rtol=1e-14)
    np.testing.assert_allclose(got_b, runtime.matmul_vjp_b(g, a, b), rtol=1e-14)


def test_row_reductions_keep_numpys_values_and_dtypes():
    import numba

    from tangentlike.jit import kernels_join as kj

    @numba.njit
    def reduced(x, hit):
        return (
            kj.sum_axis_keepdims(x, 1),
            kj.sum_axis_keepdims(x, -2),
            kj.max_axis_keepdims(x, 0),
            kj.max_axis_keepdims(x, -1),
            kj.sum_axis_keepdims(hit, 1),  # booleans count (ties of a max: 2)
        )

    x = np.array([[1.0, 3.0, 3.0], [-2.0, 0.5, 0.0]])
    hit = x == np.max(x, axis=1, keepdims=True)
    expected = (
        np.sum(x, axis=1, keepdims=True),
        np.sum(x, axis=-2, keepdims=True),
        np.max(x, axis=0, keepdims=True),
        np.max(x, axis=-1, keepdims=True),
        np.sum(hit, axis=1, keepdims=True),
    )
    for got, e in zip(reduced(x, hit), expected, strict=True):
        assert got.shape == e.shape and got.dtype.kind == e.dtype.kind
        np.testing.assert_array_equal(got, e)
