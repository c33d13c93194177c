"""Second order through the adjoint helpers of np.sort, np.partition, np.pad, np.inner
and the real part taken where a real value entered complex arithmetic (rules of
rules/runtime_arrangements.py): autograd's own tests (test_sort, test_partition,
test_pad, test_inner, test_complex_mutating_outgrad_from_indexing: unbroadcast and
unsubscript of complex adjoints, now of complex role "safe"), re-run at second
order by scripts/autograd_suite.py, were refused there. Also np.imag's adjoint
`-1j * g`: a negative imaginary literal made the normaliser recurse without end (first
order too). Hessian-vector products forward over reverse and reverse over reverse, and
the gradient of the generated vjp along a direction (what the suite differentiates),
against autograd's second derivative and central differences of the gradient."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_sort(x):
    return np.sum(np.sort(x) ** 3 * np.arange(1.0, 1.0 + x.size).reshape(x.shape))


def f_sort_rows(x):
    return np.sum(np.sin(np.sort(x * x, axis=1)) * np.arange(x.size).reshape(x.shape))


def f_sort_flat(x):
    return np.sum(np.sort(x, axis=None) ** 3 * np.arange(x.size))


def f_partition(x):
    return np.sum(np.partition(x ** 3, 2) * np.arange(1.0, 1.0 + x.size))


def f_partition_rows(x):
    return np.sum(np.partition(np.sin(x), 1, axis=0) ** 2 * np.arange(x.size).reshape(x.shape))


def f_pad_constant(x):
    return np.sum(np.pad(x * x, 2) ** 2 * np.arange(1.0, x.size + 5.0))


def f_pad_edge(x):
    return np.sum(np.pad(np.sin(x), ((1, 2), (0, 1)), "edge") ** 3)


def f_pad_reflect(x):
    return np.sum(np.pad(x ** 2, 2, "reflect") ** 2 * np.arange(x.size + 4.0))


def f_pad_wrap(x):
    return np.sum(np.pad(x * x, (1, 2), "wrap") * np.arange(x.size + 3.0) ** 2)


def f_inner(x):
    return np.sum(np.inner(x, x * x) ** 2)


def f_inner_matrix(x):
    return np.sum(np.inner(x, np.sin(x)) ** 2)


def f_inner_scalar(x):
    return np.sum(np.inner(x[0, 0], np.cos(x)) ** 2)


def f_inner_vector(x):
    return np.sum(np.inner(np.cos(x), x[0]) ** 2)


def f_complex(x):
    z = x * (1.0 + 2.0j)
    return np.sum(np.real(z * z * np.conj(z)))


def f_complex_abs(x):
    z = x * (1.0 + 2.0j) + np.sin(x) * 1j
    return np.sum(np.abs(z * z))


def f_complex_imag(x):
    z = np.exp(x * 1j) * x
    return np.sum(np.imag(z) ** 2)


def f_complex_item(x):
    b = x + 1.0j
    c = b[0] + 1.5
    e = x + b + c
    return np.sum(np.sin(np.real(e)) * np.real(b * b))


def f_negative_imaginary(x):
    z = -1j * (x * x + 1j)
    return np.sum(np.real(z * z * x))
"""

R = np.random.RandomState(5)
VECTOR = {"f_sort", "f_sort_flat", "f_partition", "f_pad_constant", "f_pad_reflect"}
VECTOR |= {"f_pad_wrap", "f_inner", "f_complex", "f_complex_abs", "f_complex_imag"}
VECTOR |= {"f_negative_imaginary", "f_complex_item"}
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
CASES = {name: R.randn(5) if name in VECTOR else R.randn(3, 4) for name in NAMES}
CASES["f_inner_vector"] = R.randn(3, 3)  # its rows and x[0] have the same length
# autograd has no second derivative through np.partition's and np.pad's own gradients,
# and no gradient of a sort along an axis of a matrix
NO_AUTOGRAD = {"f_partition", "f_partition_rows", "f_pad_edge", "f_pad_reflect", "f_pad_wrap"}
NO_AUTOGRAD |= {"f_pad_constant", "f_sort_rows"}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("arrangements2"), SOURCE, name="tl_second_arr")


def autograd_hvp(f, x, v):
    af = autograd_version(f)
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_helper(m, case, method):
    f, x = getattr(m, case), CASES[case]
    v = np.random.RandomState(1).standard_normal(np.shape(x))
    hv = tl.hvp(f, method=method, checks=False)(x, v)  # (see below: debug mode's checks)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    if case not in NO_AUTOGRAD:
        assert np.allclose(hv, autograd_hvp(f, x, v), rtol=1e-7, atol=1e-9)


PHI = """
import numpy as np


def phi(x, seed, u):
    return np.sum(df(x, seed) * u)
"""


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradient_of_the_generated_vjp(m, case, tmp_path):
    """scripts/autograd_suite.py's order-2 check: tl.grad of x -> <vjp(x, seed), u>."""
    f, x = getattr(m, case), CASES[case]
    mod = load_module(tmp_path, PHI, name=f"tl_arr_phi_{case}")
    # the specialised build: debug mode's checks in a gradient of complex values
    # (adjoint_contribution) have no complex role, and are refused when differentiated
    mod.df = tl.vjp(f, checks=False)
    rng = np.random.RandomState(2)
    u, w = rng.standard_normal(np.shape(x)), rng.standard_normal(np.shape(x))
    got = tl.grad(mod.phi)(x, 1.0, u)
    eps = 1e-6
    numeric = (mod.phi(x + eps * w, 1.0, u) - mod.phi(x - eps * w, 1.0, u)) / (2 * eps)
    assert np.isclose(np.sum(got * w), numeric, rtol=1e-5, atol=1e-7)
    if case not in NO_AUTOGRAD:
        assert np.allclose(got, autograd_hvp(f, x, u), rtol=1e-7, atol=1e-9)


def test_negative_imaginary_literal_first_order(m):
    """`-1j * y` is an operation on the literal 1j (never folded): it made the
    normaliser recurse without end (RecursionError) at first order too."""
    f, x = m.f_negative_imaginary, CASES["f_negative_imaginary"]
    g = tl.grad(f)(x)
    assert np.allclose(g, autograd.grad(autograd_version(f))(x), rtol=1e-10, atol=1e-12)
