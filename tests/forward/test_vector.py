"""Vector mode's axis handling: reductions with every kind of axis and matrix products of
every rank, k directions in one pass against k single-direction runs; and the Jacobian
built from them."""

from __future__ import annotations

import numpy as np
import pytest
from corpus_check import check_vector

import tangentlike as tl
from tests.reference import load_module

SOURCE = """
import numpy as np

def sums(x):
    return (np.sum(x, axis=0), np.sum(x, axis=-1), np.sum(x, axis=(0, 1)),
            np.sum(x, axis=1, keepdims=True), np.sum(x), np.mean(x, axis=2), np.mean(x))

def products(a, M, B, v):
    return (M @ v, a @ M, M @ B, a @ v, np.matmul(M, v) @ B, np.matmul(a, M))

def batched(S, M, v):
    return S @ v, S @ M, np.matmul(M, S)

def mixed(x, M):
    y = np.tanh(M @ x)
    return np.sum(y * y, axis=0) + np.max(M, axis=0) @ x
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("vector"), SOURCE)


def _r(seed):
    return np.random.RandomState(seed)


CASES = [
    ("sums", lambda: (_r(0).randn(2, 3, 4),), (0,)),
    (
        "products",
        lambda: (_r(0).randn(3), _r(1).randn(3, 3), _r(2).randn(3, 2), _r(3).randn(3)),
        (0, 1, 2, 3),
    ),
    (
        "products",
        lambda: (_r(0).randn(3), _r(1).randn(3, 3), _r(2).randn(3, 2), _r(3).randn(3)),
        (1,),
    ),
    (
        "products",
        lambda: (_r(0).randn(3), _r(1).randn(3, 3), _r(2).randn(3, 2), _r(3).randn(3)),
        (3,),
    ),
    ("batched", lambda: (_r(0).randn(4, 3, 3), _r(1).randn(3, 3), _r(2).randn(3)), (0, 1, 2)),
    ("batched", lambda: (_r(0).randn(4, 3, 3), _r(1).randn(3, 3), _r(2).randn(3)), (1,)),
    ("mixed", lambda: (_r(0).randn(3), _r(1).randn(4, 3)), (0, 1)),
]


@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize("name, make, wrt", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_vector_mode_equals_single_directions(m, name, make, wrt, k):
    check_vector(getattr(m, name), make(), wrt, k=k)


def test_reductions_and_products_need_no_loop_over_directions(m):
    from tangentlike.api_forward import jvp_vector

    text = jvp_vector(m.sums).source + jvp_vector(m.products, wrt=(0, 1, 2, 3)).source
    assert "for _j" not in text and "shifted_axis" in text and "matmul_right" in text


def test_forward_jacobian_of_a_matrix_argument(m):
    x, M = _r(0).randn(3), _r(1).randn(4, 3)
    JM = tl.jacobian(m.mixed, wrt=1, mode="forward")(x, M)
    assert JM.shape == (4, 3)  # a scalar output: the shape of M
    assert np.allclose(JM, tl.jacobian(m.mixed, wrt=1, mode="reverse")(x, M))
