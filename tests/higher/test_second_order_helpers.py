"""Second order through the bespoke adjoint helpers of NumPy functions (rules of
rules/runtime_numpy_helpers.py, pinv_vjp and slogdet_vjp differentiated through their
source, and power_slope's rule for a scalar base broadcast against its exponents):
Hessian-vector products, forward over reverse and reverse over reverse, against autograd
(where autograd has the second derivative) and central differences of the gradient."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

W = np.arange(24.0).reshape(3, 4, 2) / 10 - 1
EXPONENTS = np.array([[0.5, 1.5, 2.0, 0.7], [1.0, 2.5, 3.0, 0.2]])


def f_power_broadcast(x):
    return np.sum(np.sin(x**EXPONENTS))


def f_pinv(a):
    return np.sum(np.linalg.pinv(a) ** 2)


def f_slogdet(a):
    return np.linalg.slogdet(a)[1] * np.sum(a)


def f_linspace(s):
    return np.sum(np.linspace(s, 2 * s + 1, 5) ** 3)


def f_linspace_axis_retstep(s):
    samples, step = np.linspace(s * s, 1.0, 4, retstep=True, axis=1)
    return np.sum(samples**3) + np.sum(step**2)


def f_linspace_no_endpoint(s):
    return np.sum(np.sin(np.linspace(0.5, s, 6, endpoint=False)))


def f_array(x):
    return np.sum(np.array([x, 2 * x, x * x]) ** 3)


def f_diagonal(a):
    return np.sum(np.diagonal(a, 1) ** 3) + np.sum(np.diagonal(a) * np.diagonal(a))


def f_rollaxis(a):
    return np.sum(np.rollaxis(a, 2, 1) ** 3 * W)


def f_hstack(x):
    return np.sum(np.hstack([x, 2 * x, x * x]) ** 3)


def f_vstack(x):
    return np.sum(np.vstack([x, x * x]) ** 3 * np.arange(6.0).reshape(2, 3))


def f_column_stack(x):
    return np.sum(np.column_stack([x, np.sin(x)]) ** 3)


def f_dstack(x):
    return np.sum(np.dstack([x, x * x]) ** 3)


def f_sum_rows(a):
    return np.sum(sum(a) ** 3)


def f_sum_list(x):
    return np.sum(sum([x, 2 * x, x * x]) ** 3)
"""

R = np.random.RandomState(5)
CASES = {
    "f_pinv": R.randn(3, 2),
    "f_power_broadcast": 1.3,
    "f_slogdet": R.randn(3, 3) + 3 * np.eye(3),
    "f_linspace": R.randn(2),
    "f_linspace_axis_retstep": R.randn(3),
    "f_linspace_no_endpoint": 1.3,
    "f_array": R.randn(3),
    "f_diagonal": R.randn(3, 4),
    "f_rollaxis": R.randn(3, 2, 4),
    "f_hstack": R.randn(3),
    "f_vstack": R.randn(3),
    "f_column_stack": R.randn(3),
    "f_dstack": R.randn(2, 3),
    "f_sum_rows": R.randn(3, 2),
    "f_sum_list": R.randn(2),
}
# autograd has no second order of np.diagonal, nor linspace with endpoint or retstep
NO_AUTOGRAD = {"f_diagonal", "f_linspace_axis_retstep", "f_linspace_no_endpoint"}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("helpers2"), SOURCE, name="tl_second_helpers")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    v = float(v) if np.ndim(x) == 0 else v
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        af = autograd_version(f)
        expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
        assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)
