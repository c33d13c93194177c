"""jvp and jacobian (all three modes) against autograd, on functions with loops,
branches, while, helpers, reductions, linear algebra and vector outputs."""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tests.reference import autograd_version, load_module

autograd = pytest.importorskip("autograd")

SOURCE = """
import numpy as np

def helper(v, w):
    return np.tanh(v * w) + v

def looped(x, w):
    h = x
    for i in range(3):
        h = helper(h, w) * 0.5
    return h

def branched(x):
    if np.sum(x) > 0:
        out = np.exp(x) * x[0]
    else:
        out = x ** 3 - x
    return out

def whiled(x):
    y = x * 1.0
    n = 0
    while n < 4:
        y = np.sin(y) + x * 0.1
        n = n + 1
    return y

def reduced(x):
    return np.sum(x ** 2) * np.mean(np.cos(x)) + np.max(x)

def linear(x, A):
    return np.linalg.solve(A, x) + A.T @ np.tanh(x)

def matrix_in(M):
    return np.sum(M * M, axis=0) + np.trace(M) * M[0]

def scalar_to_vector(s):
    return np.array([s, s * s, np.sin(s)])
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("ag"), SOURCE)


def _r(seed):
    return np.random.RandomState(seed)


CASES = [
    ("looped", lambda: (_r(0).randn(4), _r(1).randn(4))),
    ("branched", lambda: (np.abs(_r(0).randn(3)),)),
    ("branched", lambda: (-np.abs(_r(0).randn(3)),)),
    ("whiled", lambda: (_r(0).randn(3),)),
    ("reduced", lambda: (_r(0).randn(5),)),
    ("linear", lambda: (_r(0).randn(3), _r(1).randn(3, 3) + 3 * np.eye(3))),
    ("matrix_in", lambda: (_r(0).randn(3, 2),)),
    ("scalar_to_vector", lambda: (0.7,)),
]


@pytest.mark.parametrize("name, make", CASES, ids=[c[0] for c in CASES])
def test_jvp_against_autograd(m, name, make):
    f = getattr(m, name)
    args = make()
    t = _r(9).randn(*np.shape(args[0])) if np.ndim(args[0]) else 0.3
    value, tangent = tl.jvp(f)(*args, t)
    # autograd's own forward mode lacks some rules (solve): its Jacobian applied to t
    J = autograd.jacobian(autograd_version(f), 0)(*args)
    want = np.tensordot(J, t, axes=np.ndim(t))
    assert np.allclose(value, f(*args))
    assert np.allclose(tangent, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("mode", ["forward", "reverse", "auto"])
@pytest.mark.parametrize("name, make", CASES, ids=[c[0] for c in CASES])
def test_jacobian_against_autograd(m, name, make, mode):
    f = getattr(m, name)
    args = make()
    J = tl.jacobian(f, wrt=0, mode=mode)(*args)
    want = autograd.jacobian(autograd_version(f), 0)(*args)
    assert np.shape(J) == np.shape(f(*args)) + np.shape(args[0])
    assert np.allclose(J, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_jacobian_tuple_wrt_gives_a_tuple_of_blocks(m, mode):
    x, A = _r(0).randn(3), _r(1).randn(3, 3) + 3 * np.eye(3)
    Jx, JA = tl.jacobian(m.linear, wrt=(0, 1), mode=mode)(x, A)
    assert np.allclose(Jx, autograd.jacobian(autograd_version(m.linear), 0)(x, A))
    assert np.allclose(JA, autograd.jacobian(autograd_version(m.linear), 1)(x, A))
    assert JA.shape == (3, 3, 3)


def test_auto_picks_forward_for_few_inputs(m, monkeypatch):
    from tangentlike import api_forward

    used = []
    monkeypatch.setattr(api_forward, "_reverse_blocks", lambda *a: used.append("reverse") or 1 / 0)
    tl.jacobian(m.scalar_to_vector, mode="auto")(0.5)  # 1 input, 3 outputs: forward
    assert used == []


def test_jacobian_rejects_an_unknown_mode(m):
    with pytest.raises(ValueError, match="forward"):
        tl.jacobian(m.reduced, mode="sideways")


def test_jacobian_of_a_tuple_output_is_a_tuple_of_jacobians(tmp_path):
    mod = load_module(
        tmp_path,
        """
        import numpy as np

        def pair(x):
            return np.sin(x), np.sum(x * x)
        """,
    )
    x = _r(0).randn(3)
    for mode in ("forward", "reverse"):
        J1, J2 = tl.jacobian(mod.pair, mode=mode)(x)
        assert np.allclose(J1, np.diag(np.cos(x))) and np.allclose(J2, 2 * x)
