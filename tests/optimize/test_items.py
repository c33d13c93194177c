"""optimize/items.py with optimize/numbers.py: in a build specialised to float64 vectors,
their items are float64 numbers, so NumPy's unary functions of them become `math`
calls; arrays of another dtype, matrices and non-int indices keep NumPy's calls."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

def logsumexp(x):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    total = 0.0
    for i in range(len(x)):
        total = total + np.exp(x[i] - m)
    return m + np.log(total)

def rows(x):
    total = 0.0
    for i in range(len(x)):
        total = total + np.sum(np.exp(x[i]))
    return total

def steps(x, h):
    total = 0.0
    for i in range(len(x)):
        total = total + np.sin(x[i] * h) * x[i]
    return total
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("items"), SOURCE)


def _body(text: str) -> str:
    body = text.split("\ndef d", 1)[1]
    return "\n".join(line.split("#")[0] for line in body.splitlines())


@pytest.mark.parametrize("seed", [0, 1])
def test_items_of_a_float64_vector_run_on_math(m, seed):
    x = np.random.default_rng(seed).standard_normal(7)
    df = tl.grad(m.logsumexp, checks=False)
    g = df(x)
    body = _body(df.specialised[("x[N]",)])
    assert "math.exp(" in body and "np.exp(" not in body
    assert "np.exp(" in _body(df.source)  # the generic build keeps NumPy's
    assert g.dtype == np.float64 and g.shape == x.shape
    check_against_fd(m.logsumexp, g, (x,), 0, rtol=1e-6)
    np.testing.assert_allclose(g, autograd_grad(m.logsumexp, (x,), 0), rtol=1e-12)


def test_another_dtype_gets_its_own_build_with_numpy(m):
    x = np.random.default_rng(2).standard_normal(5)
    df = tl.grad(m.logsumexp, checks=False)
    g64 = df(x)
    g32 = df(x.astype(np.float32))
    assert g32.dtype == np.float32
    body = _body(df.specialised[("x[N,other]",)])
    assert "math." not in body
    np.testing.assert_allclose(g32, g64, rtol=1e-5)


def test_rows_of_a_matrix_keep_numpy(m):
    x = np.random.default_rng(3).standard_normal((4, 3))
    df = tl.grad(m.rows, checks=False)
    g = df(x)
    assert "math." not in _body(df.specialised[("x[NN]",)])
    np.testing.assert_allclose(g, autograd_grad(m.rows, (x,), 0), rtol=1e-12)


@pytest.mark.parametrize("h", [0.5, np.float32(0.5)])
def test_items_with_another_argument(m, h):
    x = np.random.default_rng(4).standard_normal(6)
    df = tl.grad(m.steps, wrt=(0, 1), checks=False)
    gx, gh = df(x, h)
    ref = [autograd_grad(m.steps, (x, float(h)), i) for i in (0, 1)]
    np.testing.assert_allclose(gx, ref[0], rtol=1e-6)
    assert float(gh) == pytest.approx(float(ref[1]), rel=1e-6)
    check_against_fd(m.steps, gx, (x, float(h)), 0, rtol=1e-5)
