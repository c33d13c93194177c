"""Second order through np.gradient's adjoint helper (rules/runtime_statistics.py): the
rule table's reverse and forward forms of gradient_vjp, gradient_vjp_of and
gradient_vjp_vjp against central differences (one axis and two, a spacing, second-order
edges), and Hessian-vector products (forward over reverse, reverse over reverse) and a
Hessian against autograd (where it differentiates np.gradient twice: one axis, no
spacing nor edge_order) and central differences of the gradient."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import check_against_fd, directional_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np
from tangentlike import runtime

F = np.zeros((3, 4))
W34 = np.arange(12.0).reshape(3, 4) / 9.0 - 0.5
W6 = np.array([0.2, -0.5, 1.3, 0.9, -0.7, 0.4])
NONE = (None, None, None)


def gradient_vjp_flat(g):
    return np.sum(runtime.gradient_vjp(g, W6, (0.5, None, None), None, 2) * W6)


def gradient_vjp_axes(g0, g1):
    return np.sum(runtime.gradient_vjp([g0, g1], F, NONE, None, 1) * W34)


def gradient_vjp_of_axis(t):
    return np.sum(runtime.gradient_vjp_of(t, F, NONE, 1, 1) * W34)


def gradient_vjp_vjp_flat(h):
    return np.sum(runtime.gradient_vjp_vjp(h, W6, W6, (0.5, None, None), None, 2) * W6)


def gradient_vjp_vjp_axes(h):
    parts = runtime.gradient_vjp_vjp(h, [F, F], F, NONE, None, 1)
    return np.sum(parts[0] * W34) + np.sum(np.sin(parts[1]))


def f_gradient(x):
    return np.sum(np.gradient(x * x) ** 2)


def f_gradient_spacing(x):
    return np.sum(np.sin(np.gradient(x**3, 0.5, edge_order=2)))


def f_gradient_2d(a):
    gy, gx = np.gradient(a * a)
    return np.sum(gy**2 * gx)


def f_gradient_axis(a):
    return np.sum(np.gradient(np.sin(a), axis=1) ** 3)
"""

R = np.random.RandomState(11)
RULE_CASES = [
    ("gradient_vjp_flat", (R.randn(6),), 0),
    ("gradient_vjp_axes", (R.randn(3, 4), R.randn(3, 4)), 0),
    ("gradient_vjp_axes", (R.randn(3, 4), R.randn(3, 4)), 1),
    ("gradient_vjp_of_axis", (R.randn(3, 4),), 0),
    ("gradient_vjp_vjp_flat", (R.randn(6),), 0),
    ("gradient_vjp_vjp_axes", (R.randn(3, 4),), 0),
]
IDS = [f"{n}-{i}" for n, _, i in RULE_CASES]


def a_gradient(x):
    return anp.sum(anp.gradient(x * x) ** 2)


def a_gradient_axis(a):
    return anp.sum(anp.gradient(anp.sin(a), axis=1) ** 3)


HVP_CASES = {
    "f_gradient": (a_gradient, R.randn(5)),
    "f_gradient_spacing": (None, R.randn(6)),  # autograd: no spacing nor edge_order
    "f_gradient_2d": (None, R.randn(3, 4)),  # autograd's second order: a shape error
    "f_gradient_axis": (a_gradient_axis, R.randn(3, 4)),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("gradient2"), SOURCE, name="tl_second_gradient")


@pytest.mark.parametrize("name,args,i", RULE_CASES, ids=IDS)
def test_reverse_form_against_differences(m, name, args, i):
    f = getattr(m, name)
    check_against_fd(f, tl.grad(f, wrt=i)(*args), list(args), i)


@pytest.mark.parametrize("name,args,i", RULE_CASES, ids=IDS)
def test_forward_form_against_differences(m, name, args, i):
    f = getattr(m, name)
    t = R.standard_normal(np.shape(args[i]))
    _, tangent = tl.jvp(f, wrt=i)(*args, t)
    expected = directional_fd(f, list(args), i, t)
    assert np.isclose(float(tangent), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(HVP_CASES))
def test_hvp(m, case, method):
    a, x = HVP_CASES[case]
    f = getattr(m, case)
    v = np.random.RandomState(1).standard_normal(x.shape)
    hv = tl.hvp(f, method=method)(x, v)
    g, eps = tl.grad(f), 1e-6
    assert np.allclose(hv, (g(x + eps * v) - g(x - eps * v)) / (2 * eps), rtol=1e-5, atol=1e-6)
    if a is not None:
        expected = autograd.grad(lambda y: anp.sum(autograd.grad(a)(y) * v))(x)
        assert np.allclose(hv, expected, rtol=1e-9, atol=1e-10)


def test_hessian(m):
    a, x = HVP_CASES["f_gradient_axis"]
    h = tl.hessian(m.f_gradient_axis)(x)
    assert h.shape == (3, 4, 3, 4)
    assert np.allclose(h, autograd.hessian(a)(x), rtol=1e-9, atol=1e-10)
