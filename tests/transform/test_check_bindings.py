"""The run-time memory checks of an update in place read names bound on one path only
(issue 12: hvp fuzz seed 13 program 99 crashed with an UnboundLocalError in generated
code). `if c: v = y[::-1]; y = y + v`, then `np.multiply(y, y, out=y)`, then v read
under the same test: the update asks at run time that v share none of y's memory, and
v is unbound where c is false. transform/check_bindings.py binds such names to None at
entry (a name unbound there shares nothing). Gradients against central differences on
both paths, Hessian-vector products (both methods) against the closed form."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_on_copies, fresh_copies, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def first(x, c):
    y = x * 1.0
    if c > 0:
        v = y[::-1]
        y = y + v
    np.multiply(y, y, out=y)
    s = np.sum(y)
    if c > 0:
        s = s + float(np.argmax(v))
    return s


def second(y, n):
    if n < -5:
        y += y[::-1]
    np.multiply(y, y, out=y)
    return np.sum(y ** 2)
"""

X = np.array([0.5, -1.2, 0.8, 2.0])
V = np.array([0.3, 1.1, -0.7, 0.45])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("check_bindings"), SOURCE, name="tl_check_bind")


@pytest.mark.parametrize("c", [-1, 1])
def test_the_gradient_runs_on_the_path_that_leaves_the_name_unbound(m, c):
    g = tl.grad(m.first)
    expected = fd_on_copies(m.first, [X, c], 0)
    np.testing.assert_allclose(g(X.copy(), c), expected, rtol=1e-6, atol=1e-8)
    assert g.source.index("v = None") < g.source.index("untouched(y, (v,)")


def _closed_form(y, v, n):
    """H v of sum((J y)^4), J = I (+ the reversal where n < -5): Jᵀ diag(12 (J y)²) J v."""
    J = np.eye(len(y)) + (np.eye(len(y))[::-1] if n < -5 else 0.0)
    return J.T @ (12.0 * (J @ y) ** 2 * (J @ v))


@pytest.mark.parametrize("n", [-6, 2])
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_runs_on_both_paths(m, n, method):
    # the specialised build (checks=False): in debug mode the generic gradient's form is
    # refused at run time for n = -6 (a located CheckError: the views of y made by the
    # branch taken are asked to share nothing with the restored y)
    hv = tl.hvp(m.second, method=method, checks=False)
    assert hv.method == method
    got = hv(*fresh_copies([X, n]), V.copy())
    np.testing.assert_allclose(got, _closed_form(X, V, n), rtol=1e-9)
    g = tl.grad(m.second)
    eps = 1e-6
    fd = (g(X + eps * V, n) - g(X - eps * V, n)) / (2 * eps)
    np.testing.assert_allclose(got, fd, rtol=1e-5)
