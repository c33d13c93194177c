"""hvp, hessian and jacobian of a bound method, a functools.partial and a callable object
(holdout13): tl.grad and tl.jvp took them, but hvp/hessian refused naming tangentlike's
own specialize.py ("wrapped by the decorator bound") and jacobian said "not a Python
function with source code". They differentiate the plain function, the bound values
passed first (specialize.on_plain). Against autograd."""

from __future__ import annotations

import functools

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


class Quadratic:
    def __init__(self, A, shift):
        self.A = A
        self.shift = shift

    def energy(self, x):
        z = x - self.shift
        return 0.5 * z @ self.A @ z + np.sum(np.cos(z))

    def __call__(self, x, scale=1.0):
        return scale * np.sum(np.sin(self.A @ x) ** 2)


def loss(x, w, *, shift=0.5):
    return np.sum(w * (x - shift) ** 3) + np.prod(x[:2])
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("bound_entry"), SOURCE)


def _cases(mod):
    A = np.array([[2.0, 0.3, 0.0], [0.3, 1.5, 0.2], [0.0, 0.2, 1.0]])
    q = mod.Quadratic(A, np.array([0.1, -0.4, 0.3]))
    w = np.array([0.5, 1.5, -1.0])

    def energy(x):
        z = x - q.shift
        return 0.5 * z @ q.A @ z + autograd.numpy.sum(autograd.numpy.cos(z))

    def called(x):
        return 0.7 * autograd.numpy.sum(autograd.numpy.sin(q.A @ x) ** 2)

    loss = autograd_version(mod.loss)
    return [
        ("method", q.energy, energy, {}),
        ("callable object", functools.partial(q, scale=0.7), called, {}),
        (
            "partial",
            functools.partial(mod.loss, w=w, shift=0.2),
            lambda x: loss(x, w, shift=0.2),
            {},
        ),
        (
            "partial, keyword at the call",
            functools.partial(mod.loss, w=w),
            lambda x: loss(x, w, shift=0.9),
            {"shift": 0.9},
        ),
    ]


def test_hvp_hessian_jacobian_of_bound_callables(mod):
    x = np.array([0.9, 1.3, 2.0])
    v = np.array([0.3, -1.0, 0.5])
    for label, f, ref, kw in _cases(mod):
        H = autograd.hessian(ref)(x)
        g = autograd.grad(ref)(x)
        for method in ("forward", "reverse"):
            assert np.allclose(tl.hvp(f, method=method)(x, v, **kw), H @ v), label
            assert np.allclose(tl.hessian(f, method=method)(x, **kw), H), label
        for mode in ("forward", "reverse", "auto"):
            assert np.allclose(tl.jacobian(f, mode=mode)(x, **kw), g), label


def test_a_bound_objects_attributes_are_read_at_each_call(mod):
    q = mod.Quadratic(np.eye(2), np.zeros(2))
    hv, H, J = tl.hvp(q.energy), tl.hessian(q.energy), tl.jacobian(q.energy)
    x, v = np.array([0.4, -0.2]), np.array([1.0, 2.0])
    for scale in (1.0, 3.0):
        q.A = scale * np.eye(2)
        expected = scale * np.eye(2) + np.diag(-np.cos(x))
        assert np.allclose(hv(x, v), expected @ v)
        assert np.allclose(H(x), expected)
        assert np.allclose(J(x), scale * x - np.sin(x))


def test_derivatives_of_a_bound_callables_gradient(mod):
    """tl.jvp / tl.jacobian / tl.vjp / tl.grad of tl.grad(bound): refused naming
    specialize.py before (the gradient of a bound callable is a wrapper passing the bound
    values through *args); now the derivative of the plain function's gradient."""
    x = np.array([0.9, 1.3, 2.0])
    v = np.array([0.3, -1.0, 0.5])
    for label, f, ref, kw in _cases(mod):
        H = autograd.hessian(ref)(x)
        g = tl.grad(f)
        value, tangent = tl.jvp(g)(x, v, **kw)
        assert np.allclose(value, autograd.grad(ref)(x)), label
        assert np.allclose(tangent, H @ v), label
        assert np.allclose(tl.vjp(g)(x, v, **kw), H @ v), label
        for mode in ("forward", "reverse", "auto"):
            assert np.allclose(tl.jacobian(g, mode=mode)(x, **kw), H), label


def test_grad_of_grad_of_a_partial(mod):
    def cubic(a, b, c=2.0):
        return a**3 * b + c * a * b**2

    f = functools.partial(cubic, c=0.5)
    assert np.isclose(tl.grad(tl.grad(f))(1.5, 0.7), 6 * 1.5 * 0.7)
    assert np.isclose(tl.grad(tl.grad(f, wrt=1), wrt=0)(1.5, 0.7), 3 * 1.5**2 + 2 * 0.5 * 0.7)
    assert np.isclose(tl.grad(tl.grad(f, wrt=1), wrt=1)(1.5, 0.7, c=3.0), 2 * 3.0 * 1.5)
