"""Reverse over forward: tl.grad of a generated jvp, x -> <J(x) v, 1> = grad f(x) . v for
scalar f, is the Hessian-vector product H v. The generated jvp calls forward mode's
boundary helpers (tangent_like, output_tangent), whose rules make it differentiable
(Google Tangent's test_hessian_vector_products checks this configuration). Checked
against autograd's Hessian-vector product and central differences of the jvp."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def cube(a):
    b = a * a * a
    return b


def calltree(x):
    a = cube(x)
    b = a * x**2.0
    return np.sum(b)


def straightline(x):
    a = x * x * x
    b = a * x**2.0
    return np.sum(b)


def scalar(a):
    return np.sin(a) * a**3


def power_loop(a):
    out = 1
    for i in range(3):
        out = out * a
    return out


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rof"), SOURCE, name="tl_reverse_over_forward")


@pytest.mark.parametrize("name", ["calltree", "straightline"])
def test_grad_of_jvp_is_hvp(m, name):
    f = getattr(m, name)
    rng = np.random.default_rng(3)
    x, v = rng.standard_normal(6), rng.standard_normal(6)
    phi = m.phi_of(tl.jvp(f))
    hv = tl.grad(phi)(x, v)
    expected = autograd.hessian_vector_product(autograd_version(f))(x, v)
    np.testing.assert_allclose(hv, expected, rtol=1e-10)
    check_against_fd(phi, hv, [x, v], 0)


@pytest.mark.parametrize("name", ["scalar", "power_loop"])
def test_grad_of_jvp_of_scalar_function(m, name):
    """power_loop's jvp starts `out`'s tangent with zero_tangent (a constant)."""
    f = getattr(m, name)
    phi = m.phi_of(tl.jvp(f))
    a = 0.8
    d2 = tl.grad(phi)(a, 1.0)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(a)
    assert isinstance(d2, float)
    np.testing.assert_allclose(d2, expected, rtol=1e-10)
