"""Second order through generated gradients that first order writes with argument copies,
comprehensions and nested loops: the memory the adjoint helpers' results may share
(analyze/memory.py: a product's or an index's adjoint is new memory, add_item's holds
only the adjoints it adds, so a restore into the argument's copy changes no adjoint), a
comprehension's list handed to its name (higher/form_lists.handed_over_copies), and an
inner loop's counter restored from the stack (higher/form_counters.py). Hessian-vector
products, forward over reverse and reverse over reverse, Hessians and grad of grad,
against autograd (on the same function written without writes in place) and central
differences of the gradient."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_comprehension(y):
    L1 = [np.sin(e) * y[0] for e in y if e > 0.1]
    return sum(L1) ** 2


def f_comprehension_loop(y):
    s = 0.0
    for k in range(2):
        L = [e * e * y[3] for e in y]
        s = s + sum(L) * np.cos(y[k])
    return s


def f_nested_loops(y):
    s = 0.0
    for k in range(2):
        t = 0.0
        for e in y:
            t = t + e * e * y[3]
        s = s + t * np.cos(y[k])
    return s


def f_out_argument(y):
    np.sin(y, out=y)
    return y @ np.r_[y[2:4], y[0:2]]


def f_out_argument_read_back(y):
    np.sin(y, out=y)
    return np.sum(y**2) + y[::-1] @ np.r_[y[2:4], y[2:4]]


def f_write_argument(x, y):
    y[1:3] = y[1:3] * x
    return np.sum(np.dot(y, y) * y) + y[1] ** 3
"""


def a_comprehension(y):
    return sum([anp.sin(e) * y[0] for e in y if e > 0.1]) ** 2


def a_comprehension_loop(y):
    s = 0.0
    for k in range(2):
        s = s + sum([e * e * y[3] for e in y]) * anp.cos(y[k])
    return s


def a_out_argument(y):
    y = anp.sin(y)
    return anp.dot(y, anp.concatenate([y[2:4], y[0:2]]))


def a_out_argument_read_back(y):
    y = anp.sin(y)
    return anp.sum(y**2) + anp.dot(y[::-1], anp.concatenate([y[2:4], y[2:4]]))


def a_write_argument(x, y):
    y = anp.concatenate([y[:1], y[1:3] * x, y[3:]])
    return anp.sum(anp.dot(y, y) * y) + y[1] ** 3


Y = np.array([0.3, 2.0, -1.5, 0.8])
V = np.array([0.5, -1.0, 2.0, 0.7])
CASES = {
    "f_comprehension": (a_comprehension, (Y,), 0),
    "f_comprehension_loop": (a_comprehension_loop, (Y,), 0),
    "f_nested_loops": (a_comprehension_loop, (Y,), 0),
    "f_out_argument": (a_out_argument, (Y,), 0),
    "f_out_argument_read_back": (a_out_argument_read_back, (Y,), 0),
    "f_write_argument": (a_write_argument, (0.7, Y), 1),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("forms2"), SOURCE, name="tl_second_forms")


def _copies(args):
    return [np.array(a) if isinstance(a, np.ndarray) else a for a in args]


def _fd_hvp(g, args, wrt, v, eps=1e-6):
    plus, minus = _copies(args), _copies(args)
    plus[wrt] = plus[wrt] + eps * v
    minus[wrt] = minus[wrt] - eps * v
    return (np.asarray(g(*plus)) - np.asarray(g(*minus))) / (2 * eps)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp(m, case, method):
    a, args, wrt = CASES[case]
    f = getattr(m, case)
    hv = tl.hvp(f, wrt=wrt, method=method)(*_copies(args), V)
    assert hv.shape == V.shape
    assert np.allclose(hv, _fd_hvp(tl.grad(f, wrt=wrt), args, wrt, V), rtol=1e-5, atol=1e-7)

    def along(*xs):
        return anp.sum(autograd.grad(a, wrt)(*xs) * V)

    expected = autograd.grad(along, wrt)(*_copies(args))
    assert np.allclose(hv, expected, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("case", sorted(CASES))
def test_hessian(m, case):
    a, args, wrt = CASES[case]
    h = tl.hessian(getattr(m, case), wrt=wrt)(*_copies(args))
    expected = autograd.hessian(a, wrt)(*_copies(args))
    assert h.shape == (4, 4)
    assert np.allclose(h, expected, rtol=1e-9, atol=1e-10)


def test_grad_of_grad(m):
    """d/dx of a scalar made of the gradient: grad(grad(f)) through argument copies."""
    f = m.f_write_argument
    inner = tl.grad(f, wrt=1)

    def g(x, y):
        return np.sum(inner(x, y) * np.array([1.0, -2.0, 0.5, 3.0]))

    outer = tl.grad(g, wrt=0)(0.7, Y.copy())

    def ag(x, y):
        return anp.sum(autograd.grad(a_write_argument, 1)(x, y) * np.array([1.0, -2.0, 0.5, 3.0]))

    assert np.allclose(outer, autograd.grad(ag, 0)(0.7, Y.copy()), rtol=1e-9, atol=1e-10)
    eps = 1e-6
    fd = (g(0.7 + eps, Y.copy()) - g(0.7 - eps, Y.copy())) / (2 * eps)
    assert np.allclose(outer, fd, rtol=1e-5, atol=1e-7)


def test_argument_unchanged_by_hvp(m):
    """The HVP of a function writing into its argument leaves the caller's array as the
    function itself would (written back), and v as it was."""
    y, v = Y.copy(), V.copy()
    tl.hvp(m.f_out_argument)(y, v)
    assert np.array_equal(v, V)
    assert np.allclose(y, np.sin(Y))
