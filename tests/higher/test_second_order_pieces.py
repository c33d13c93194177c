"""Second order through the adjoint helpers of products, cuts and list updates (rules of
rules/runtime_products.py and rules/runtime_pieces.py, and the differentiable form's
copying list updates, higher/form_lists.py): Hessian-vector products, forward over
reverse and reverse over reverse, against autograd (where autograd has the second
derivative) and central differences of the gradient."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_tensordot(a):
    return np.sum(np.tensordot(a, a * a, axes=1) ** 2)


def f_tensordot_axes(a):
    return np.sum(np.tensordot(a, np.sin(a), axes=([0], [1])) ** 2)


def f_kron(a):
    return np.sum(np.kron(a, a * a) ** 2)


def f_kron_vector(a):
    return np.sum(np.kron(a[0], np.sin(a)) ** 2)


def f_cross(a):
    return np.sum(np.cross(a, a * a) ** 2)


def f_cross_planar(a):
    return np.sum(np.cross(a[:, :2], np.cos(a[:, 1:])) ** 2)


def f_cross_broadcast(a):
    return np.sum(np.cross(a[0], np.cos(a)) ** 2)


def f_einsum(a):
    return np.sum(np.einsum("ij,jk->ik", a, a) ** 2)


def f_einsum_three(a):
    return np.sum(np.einsum("ij,jk,k->i", a, a * a, a[0]) ** 2)


def f_einsum_diagonal(a):
    return np.sum(np.einsum("ii,ij->j", a, np.sin(a)) ** 2)


def f_repeat(a):
    return np.sum(np.repeat(a, 2) ** 3)


def f_repeat_counts(a):
    return np.sum(np.repeat(a, [1, 2, 3], axis=0) ** 3)


def f_diff(a):
    return np.sum(np.diff(a, 2, axis=0) ** 3) + np.sum(np.diff(a, axis=1) ** 3)


def f_concatenate(a):
    return np.sum(np.concatenate([a, a * a], axis=1) ** 3)


def f_r(x):
    return np.sum(np.r_[x, x * x, 2.0] ** 3)


def f_max(x):
    return max(x[0], x[1] * 2.0, np.sin(x[2])) ** 3


def f_min_list(x):
    return min([np.sum(x**2), np.sum(np.sin(x)), 1.0]) ** 2


def f_append(x):
    xs = []
    for i in range(3):
        xs.append(np.sin(x) * i)
    s = 0.0
    for v in xs:
        s = s + np.sum(v**2)
    return s


def f_append_read(x):
    xs = [x]
    for i in range(3):
        xs.append(xs[-1] * np.cos(xs[i]))
    return np.sum(xs[-1] ** 2) + len(xs)


def f_extend(x):
    xs = [x]
    xs.extend([x * x, np.sin(x)])
    s = 0.0
    for v in xs:
        s = s + np.sum(v**3)
    return s
"""

R = np.random.RandomState(3)
MATRIX = {
    "f_tensordot",
    "f_tensordot_axes",
    "f_kron",
    "f_kron_vector",
    "f_cross",
    "f_cross_planar",
    "f_cross_broadcast",
    "f_einsum",
    "f_einsum_three",
    "f_einsum_diagonal",
    "f_repeat",
    "f_repeat_counts",
    "f_diff",
    "f_concatenate",
}
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
CASES = {name: R.randn(3, 3) if name in MATRIX else R.randn(3) for name in NAMES}
# autograd has no np.r_; its second order fails for a broadcast np.cross (np.add.at), two
# planar vectors' np.cross (shapes), an einsum reading a diagonal, repeat counts as a list
NO_AUTOGRAD = {
    "f_r",
    "f_cross_broadcast",
    "f_cross_planar",
    "f_einsum_diagonal",
    "f_repeat_counts",
}
# forward mode (hence forward over reverse) does not differentiate np.r_ yet
NO_FORWARD = {"f_r"}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("pieces2"), SOURCE, name="tl_second_pieces")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    if method == "forward" and case in NO_FORWARD:
        pytest.skip("forward mode does not differentiate np.r_ yet")
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        af = autograd_version(f)
        expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
        assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)
