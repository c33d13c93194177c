"""Second order through the adjoint helpers of np.select, np.take, np.take_along_axis,
astype, np.full and np.split and its kin (rules/runtime_picks.py): each was refused
("has no second-order rule yet") when a gradient calling it was differentiated again.
Hessian-vector products forward over reverse and reverse over reverse, against central
differences of tangentlike's own gradient and, where autograd differentiates the
function twice, autograd's."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

C = np.array([0.3, -1.2, 0.8, 2.0, -0.4])


def f_select(x):
    return np.sum(np.select([x > 0, x < -1], [x ** 2, x ** 3], default=x))


def f_select_squared(x):
    return np.sum(np.select([x > 0, x < -1], [x ** 2, x ** 3], default=x) ** 2)


def f_select_constant_default(x):
    return np.sum(np.sin(np.select([x > 0.5, x < 0], [np.sin(x) * x, x ** 3], default=C)))


def f_select_broadcast(x):
    return np.sum(np.select([x > 0, x < -1], [x[0] ** 3, x * x], default=np.cos(x)) ** 2)


def f_select_unused(x):
    return np.sum(np.select([x > 0, x < -1], [C, x ** 3], default=x * x) * x)


def f_take(x):
    return np.sum(np.take(x ** 3, [0, 2, 2, 4]) ** 2 * np.arange(1.0, 5.0))


def f_take_axis(x):
    return np.sum(np.sin(np.take(x * x, np.array([[1, 0], [1, 2]]), axis=1)))


def f_take_wrap(x):
    return np.sum(np.take(np.exp(x), [-1, 6, 2], mode="wrap") ** 2)


def f_take_clip(x):
    return np.sum(np.take(x ** 3, [7, -3, 1], mode="clip") * x[:3])


def f_take_argsort(x):
    return np.sum(np.exp(np.take(x ** 3, np.argsort(x)[:3])) * np.arange(3.0))


def f_take_along(x):
    return np.sum(np.take_along_axis(x ** 3, np.argsort(x, axis=1), axis=1) ** 2 * np.arange(4.0))


def f_take_along_flat(x):
    return np.sum(np.sin(np.take_along_axis(x * x, np.array([4, 0, 0, 2]), axis=None)))


def f_astype(x):
    return np.sum(np.sin((x ** 3).astype(np.float64)) * x)


def f_astype_complex(x):
    z = (x * x).astype(complex) * (1.0 + 2.0j)
    return np.sum(np.real(z * z))


def f_full_like(x):
    return np.sum(np.sin(np.full_like(x, x[2] ** 2)) * x)


def f_astype_int(x):
    return np.sum((x * 3).astype(int) * x ** 2)


def f_full(x):
    return np.sum(np.full(3, x[0] * x[1]) ** 2 * np.arange(3.0))


def f_split(x):
    a, b = np.split(x ** 2, [2])
    return np.sum(a * a) + np.sum(np.sin(b))


def f_split_unused(x):
    parts = np.array_split(x ** 3, 3)
    return np.sum(parts[0] * parts[2])


def f_hsplit(x):
    a, b = np.hsplit(np.sin(x), 2)
    return np.sum(a * b ** 2)


def f_scalar_select(t):
    x = C * t
    return np.sum(np.select([x > 0, x < -1], [x ** 3, np.sin(x)], default=x * t) ** 2)


def f_scalar_take(t):
    return np.sum(np.take(C * t ** 2, [4, 1, 1]) ** 2)


def f_scalar_split(t):
    a, b = np.split(np.sin(C[:4] * t), 2)
    return np.sum(a * b)


def f_vsplit(x):
    top, bottom = np.vsplit(x * x, [1])
    return np.sum(top ** 3) + np.sum(bottom * top)
"""

R = np.random.RandomState(11)
REFUSED = {"f_astype_complex"}  # test_cast_to_complex_stays_refused
MATRIX = {"f_take_axis", "f_take_along", "f_hsplit", "f_vsplit"}
NAMES = [
    line[4:].split("(")[0]
    for line in SOURCE.splitlines()
    if line.startswith("def f_") and "scalar" not in line
]
CASES = {
    name: R.randn(3, 4) if name in MATRIX else R.randn(5) for name in NAMES if name not in REFUSED
}
CASES["f_select"] = np.array([1.5, -2.5, -0.5, 0.7, -1.3])
# autograd has no second derivative through np.take or np.take_along_axis; its astype
# to int keeps a derivative (it does not floor); its np.split of a matrix into halves
NO_AUTOGRAD = {"f_take", "f_take_axis", "f_take_wrap", "f_take_clip", "f_take_argsort"}
NO_AUTOGRAD |= {"f_take_along", "f_take_along_flat", "f_astype_int", "f_hsplit"}
NO_AUTOGRAD |= {"f_full_like"}  # autograd's full_like ignores the fill value's derivative


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("picks2"), SOURCE, name="tl_second_picks")


def autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        assert np.allclose(hv, autograd_hvp(f, x, v), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", ["f_select", "f_take_wrap", "f_split_unused"])
def test_hessian_through_helper(m, case):
    f, x = getattr(m, case), CASES[case]
    H = tl.hessian(f)(x)
    columns = [fd_hvp(f, x, e) for e in np.eye(x.size)]
    assert np.allclose(H, np.array(columns).T, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", ["f_scalar_select", "f_scalar_take", "f_scalar_split"])
def test_grad_of_grad_through_helper(m, case):
    f = getattr(m, case)
    second = tl.grad(tl.grad(f))(0.7)
    eps = 1e-6
    first = tl.grad(f)
    assert np.isclose(second, (first(0.7 + eps) - first(0.7 - eps)) / (2 * eps), rtol=1e-5)
    if case != "f_scalar_take":
        assert np.isclose(second, autograd.grad(autograd.grad(autograd_version(f)))(0.7))


def test_astype_to_int_has_no_second_derivative_through_the_cast(m):
    """A cast to int floors: the product's second derivative is that of 2 * int(3x) * x
    in x alone; the int factor contributes nothing (the first order's rule)."""
    x = CASES["f_astype_int"]
    v = np.ones_like(x)
    assert np.allclose(tl.hvp(m.f_astype_int)(x, v), 2 * (x * 3).astype(int))


def test_third_order_through_select(m):
    """The third derivative of a scalar function through np.select (its seed's select_vjp
    is constant there; select_vjp_vjp's own rule: test_runtime_rules_picks.py)."""
    f = m.f_scalar_select
    eps = 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))(0.7)
    assert np.isclose(third, (second(0.7 + eps) - second(0.7 - eps)) / (2 * eps), rtol=1e-5)
    expected = autograd.grad(autograd.grad(autograd.grad(autograd_version(f))))(0.7)
    assert np.isclose(third, expected)


def test_cast_to_complex_stays_refused(m):
    """uncast where a real value is cast to complex takes the real part of a complex
    adjoint: it has no complex role, so a second derivative through it is refused at
    the user's line (never a wrong value)."""
    x = np.random.RandomState(3).randn(5)
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.hvp(m.f_astype_complex, checks=False)(x, np.ones(5))  # (debug mode: its checks)
    assert "uncast" in str(err.value) and "complex" in str(err.value)
    assert err.value.location.line == m.f_astype_complex.__code__.co_firstlineno + 1
