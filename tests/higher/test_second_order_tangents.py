"""Second order through the helpers of rules/runtime_tangents.py: np.average's weights
helpers (weights_like, unweights) and the checks x.copy() and `ys[k] += v` leave in a
gradient (copies_array, numeric_item) under tl.hvp, and the forward forms of np.sort,
np.partition, np.gradient and divmod differentiated in reverse (tl.grad of a generated
jvp: reverse over forward). Each was refused ("has no second-order rule yet"). Against
central differences of tangentlike's own gradient (or jvp) and, where autograd
differentiates the function twice, autograd's Hessian-vector product."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, check_against_fd, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_average(x):
    return np.average(x[:3] ** 2, weights=np.exp(x[3:6])) ** 2


def f_average_axis(x):
    m = np.reshape(x[:6], (2, 3))
    return np.sum(np.average(np.sin(m), axis=1, weights=x[5:8] ** 2 + 0.5) ** 2)


def f_average_rows(x):
    m = np.reshape(x[:6], (2, 3))
    return np.sum(np.average(m ** 2, axis=0, weights=np.exp(m)) ** 2)


def f_copy(x):
    y = x.copy()
    y[0] = y[0] * y[1]
    return np.sum(np.sin(y) * y)


def f_numeric_item(x):
    ys = [x[0] * x[1], x[2]]
    ys[0] += x[3] ** 2
    return ys[0] * ys[1] ** 2


def f_sort(x):
    return np.sum(np.sort(x ** 3) ** 2 * np.arange(x.size))


def f_partition(x):
    return np.sum(np.partition(np.sin(x) * x, 3) ** 2 * np.arange(x.size))


def f_gradient(x):
    return np.sum(np.gradient(x ** 3, 0.5) ** 2)


def f_divmod(x):
    q, r = np.divmod(x ** 2, 0.7)
    return np.sum(r ** 3)


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

R = np.random.RandomState(15)
HVP = ["f_average", "f_average_axis", "f_average_rows", "f_copy", "f_numeric_item"]
OVER_FORWARD = ["f_sort", "f_partition", "f_gradient", "f_divmod"]
NO_AUTOGRAD = {
    "f_average",
    "f_average_axis",
    "f_average_rows",
    "f_copy",
    "f_numeric_item",
    "f_partition",
    "f_gradient",
    "f_divmod",
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("tangents2"), SOURCE, name="tl_second_tangents")


def autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", HVP)
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), R.randn(8)
    v = np.random.RandomState(1).standard_normal(8)
    hv = tl.hvp(f, method=method)(x, v)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        assert np.allclose(hv, autograd_hvp(f, x, v), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", OVER_FORWARD)
def test_grad_of_jvp_through_forward_form(m, case):
    f = getattr(m, case)
    x = np.array([0.3, -1.1, 0.8, 1.9, -0.6, 1.2])
    v = np.random.RandomState(2).standard_normal(6)
    phi = m.phi_of(tl.jvp(f))
    hv = tl.grad(phi)(x, v)
    check_against_fd(phi, hv, [x, v], 0, rtol=1e-5)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        assert np.allclose(hv, autograd_hvp(f, x, v), rtol=1e-7, atol=1e-9)
