"""`while <test with a comprehension>: ... else: ...` (normalize/comprehensions.py): the
test runs at the top of a `while True:` body, and the `else:` runs after the loop only
where a false test ended it, never after a `break` of the loop's own. Values, gradients,
tangents and Hessian-vector products against autograd and central differences."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import fd_gradient, fd_hvp

import tangentlike as tl


def grow(x, n, limit):
    k = 0
    s = 0.0
    while k < n and sum([v * v for v in x]) < 50.0:
        x = x * 1.5
        k += 1
        if k > limit:
            break
    else:
        s = s + np.sum(np.sin(x))
    return s + np.sum(x**2)


def grow_ag(x, n, limit):
    k = 0
    s = 0.0
    while k < n and sum([v * v for v in x]) < 50.0:
        x = x * 1.5
        k += 1
        if k > limit:
            break
    else:
        s = s + anp.sum(anp.sin(x))
    return s + anp.sum(x**2)


X = np.array([0.7, -1.2, 0.4])
V = np.array([0.3, 0.5, -0.9])
# the loop ends by its test on the sum (else runs), by its counter (else runs), by break
CASES = [(20, 30), (2, 30), (20, 2)]


@pytest.mark.parametrize("n, limit", CASES)
def test_values_and_gradients(n, limit):
    assert tl.grad(grow)(X, n, limit) is not None
    value, g = tl.value_and_grad(grow)(X, n, limit)
    assert value == pytest.approx(grow_ag(X, n, limit))
    np.testing.assert_allclose(g, autograd.grad(grow_ag)(X, n, limit), rtol=1e-12)
    np.testing.assert_allclose(g, fd_gradient(grow, (X, n, limit), 0), rtol=1e-6)


def test_the_else_runs_only_where_the_test_ends_the_loop():
    assert np.sum(X**2) * 2.25**3 < 50.0 <= np.sum(X**2) * 2.25**4  # the test ends it at k = 4
    with_else = grow(X, 20, 30) - np.sum((X * 1.5**4) ** 2)
    assert with_else == pytest.approx(np.sum(np.sin(X * 1.5**4)))
    broken = grow(X, 20, 2)
    assert broken == pytest.approx(np.sum((X * 1.5**3) ** 2))
    assert tl.value_and_grad(grow)(X, 20, 2)[0] == pytest.approx(broken)


@pytest.mark.parametrize("n, limit", CASES)
def test_tangents_and_hessian_vector_products(n, limit):
    value, t = tl.jvp(grow)(X, n, limit, V)
    assert value == pytest.approx(grow_ag(X, n, limit))
    assert t == pytest.approx(autograd.grad(grow_ag)(X, n, limit) @ V, rel=1e-12)
    hv = tl.hvp(grow)(X, n, limit, V)
    np.testing.assert_allclose(hv, autograd.hessian(grow_ag)(X, n, limit) @ V, rtol=1e-10)
    np.testing.assert_allclose(hv, fd_hvp(lambda x: grow(x, n, limit), X, V), rtol=1e-5)
