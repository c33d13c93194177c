"""Second order through writes by index or key into a list or dict the function rebinds
(`L = [...]` in a loop, or twice in a row): the gradient saves the old object on its
stack before the rebinding and pops it back where its backward sweep undoes the writes.
The differentiable form checks the pop (`popped_list`, `popped_dict`: higher/form_items.py)
and spells out saved_item / restore_item for it; differentiating the form again counts
the pop as the list the function made, parked on its chain (transform/stack_chains.py).
Hessian-vector products (forward over reverse, reverse over reverse) and Hessians
against autograd and central differences of the gradient; the first-order gradient
against autograd; grad of grad for a scalar. Containers the form cannot show are the
function's own stay refused, located at the user's line and naming the user's list."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def f_list_loop(x):
    s = 0.0
    for i in range(3):
        L = [x, np.sin(x)]
        L[0] = L[1] * x + i
        s = s + np.sum(L[0] * L[1])
    return s


def f_dict_loop(x):
    s = 0.0
    for i in range(3):
        D = {"a": np.exp(-x ** 2)}
        D["c"] = D["a"] * x
        D["a"] = np.cos(D["c"])
        s = s + np.sum(D["a"] * D["c"])
    return s


def f_while(x):
    k = 0
    s = 0.0
    while k < 3:
        k += 1
        L = [x * k, x]
        L[0] = L[0] * 1.5 + np.tanh(L[1])
        s = s + np.sum(L[0] ** 2)
    return s


def f_kept(x):
    L = [x, x]
    for i in range(4):
        L = [L[1], np.sin(L[0]) * x]
        L[i % 2] = L[0] * L[1]
    return np.sum(L[0] * L[1])


def f_straight(x):
    L = [x, 2.0 * x]
    L[0] = np.sin(L[1])
    s = np.sum(L[0] * L[1])
    L = [s * x, x]
    L[1] = L[0] ** 2
    return np.sum(L[1]) + s


def helper(a, b):
    L = [a, b]
    L[1] = L[0] * b
    return np.sum(L[1] * L[0])


def f_helper(x):
    s = 0.0
    for i in range(2):
        s = s + helper(x, np.cos(x) + i)
    return s


def f_nested(x):
    s = 0.0
    for i in range(2):
        for j in range(2):
            D = {"u": x * (i + 1)}
            D["v"] = np.sin(D["u"]) * x
            D["u"] = D["v"] + j
            s = s + np.sum(D["u"] * D["v"])
    return s


def f_indices(x):
    s = 0.0
    for i in range(3):
        idx = [0, 1]
        idx[i % 2] = 2
        s = s + np.sum(x[idx] * x[0])
    return s


def f_list_from_copy(x):
    s = 0.0
    M = [x, np.cos(x)]
    for i in range(2):
        if i == 0:
            L = [x, 2.0 * x]
        else:
            L = list(M)
        L[0] = L[1] * x
        s = s + np.sum(L[0] * L[1])
    return s


def f_updated_in_place(y, x):
    k = 0
    while k < 3:
        k += 1
        L = [y, x]
        L[0] *= 1.5
    return np.sum(y ** 2) * np.sum(np.sin(x))


def f_scalar(x):
    s = 0.0
    for i in range(3):
        L = [x, x * x]
        L[1] = np.sin(L[1]) * L[0]
        s = s + L[0] * L[1] ** 2
    return s


def f_repeated(x):
    s = 0.0
    for i in range(2):
        L = [x] * 2
        L[0] = L[1] * x
        s = s + np.sum(L[0] * L[1])
    return s


def f_aliased(x):
    for i in range(2):
        L = [x, np.sin(x)]
        L[0] = L[1] * x
    M = L
    return np.sum(M[0] * L[1])


def f_argument(x, P):
    s = 0.0
    for i in range(2):
        P[i] = P[i] * x
        s = s + np.sum(P[0] * P[1])
    return s
"""

CASES = [
    "f_list_loop",
    "f_dict_loop",
    "f_while",
    "f_kept",
    "f_straight",
    "f_helper",
    "f_nested",
    "f_indices",
    "f_list_from_copy",
]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("parked"), SOURCE, name="tl_second_parked")


def _point():
    return np.random.RandomState(5).randn(3) * 0.7


@pytest.mark.parametrize("case", CASES)
def test_gradient_still_right(m, case):
    f, x = getattr(m, case), _point()
    expected = autograd.grad(autograd_version(f))(x)
    assert np.allclose(tl.grad(f)(x), expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", CASES)
def test_hvp_through_parked_containers(m, case, method):
    f, x = getattr(m, case), _point()
    v = np.random.RandomState(1).standard_normal(3)
    hv = tl.hvp(f, method=method)(x, v)
    assert np.shape(hv) == np.shape(x)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    af = autograd_version(f)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", ["f_dict_loop", "f_kept", "f_helper"])
def test_hessian_through_parked_containers(m, case, method):
    f, x = getattr(m, case), _point()
    H = tl.hessian(f, method=method)(x)
    assert np.allclose(H, autograd.hessian(autograd_version(f))(x), rtol=1e-7, atol=1e-9)
    columns = np.stack([fd_hvp(f, x, e) for e in np.eye(x.size)], axis=-1)
    assert np.allclose(H, columns, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_item_updated_in_place_in_a_loop(m, method):
    """`L[0] *= 1.5` changes the array L[0] is (y) in place, which autograd does not
    model: central differences of the gradient, on fresh copies, are the reference."""
    f = m.f_updated_in_place
    R = np.random.RandomState(2)
    y, x, v = R.randn(3), R.randn(3), R.randn(3)
    g = tl.grad(f, wrt=0)

    def gradient(y0):
        return g(y0.copy(), x.copy())

    hv = tl.hvp(f, wrt=0, method=method)(y.copy(), x.copy(), v)
    fd = (gradient(y + 1e-6 * v) - gradient(y - 1e-6 * v)) / 2e-6
    assert np.allclose(hv, fd, rtol=1e-5, atol=1e-6)


def test_grad_of_grad_through_parked_list(m):
    f, x = m.f_scalar, 0.8
    second = tl.grad(tl.grad(f))(x)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(x)
    assert np.isclose(second, expected, rtol=1e-7, atol=1e-9)
    g = tl.grad(f)
    assert np.isclose(second, (g(x + 1e-6) - g(x - 1e-6)) / 2e-6, rtol=1e-5)


def _line(function, text):
    """The line of `text` in `function` of SOURCE (the module's file is SOURCE)."""
    lines = SOURCE.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"def {function}("))
    return lines.index(text, start) + 1


def test_repeated_list_stays_refused_located(m):
    """`[x] * 2` is no display the form can see a list in: the write keeps saved_item and
    is refused at the user's line, naming the user's list (right at first order)."""
    x = _point()
    assert np.allclose(tl.grad(m.f_repeated)(x), autograd.grad(autograd_version(m.f_repeated))(x))
    with pytest.raises(TangentlikeError) as err:
        tl.hvp(m.f_repeated)(x, np.ones(3))
    message = str(err.value)
    assert "saved_item" in message and "'L'" in message and "a repetition" in message
    assert err.value.location.line == _line("f_repeated", "        L[0] = L[1] * x")


def test_list_aliased_after_its_loop_stays_refused_located(m):
    """`M = L` after the loop: M holds the list whose writes the gradient undoes in its
    backward sweep; refused at the user's `M = L`, naming L and the user's write."""
    x = _point()
    assert np.allclose(tl.grad(m.f_aliased)(x), autograd.grad(autograd_version(m.f_aliased))(x))
    for method in ("forward", "reverse"):
        with pytest.raises(TangentlikeError) as err:
            tl.hvp(m.f_aliased, method=method)(x, np.ones(3))
        message = str(err.value)
        assert "'L'" in message and "another name" in message
        assert f"at line {_line('f_aliased', '        L[0] = L[1] * x')})" in message
        assert err.value.location.line == _line("f_aliased", "    M = L")
        assert "_stack" not in message


def test_list_argument_written_stays_refused_located(m):
    """A list the caller passes, written by index in a loop: right at first order, refused
    at second order at the user's write, naming the argument."""
    R = np.random.RandomState(4)
    x, P = R.randn(3), [R.randn(3), R.randn(3)]
    g = tl.grad(m.f_argument)(x, [p.copy() for p in P])
    expected = autograd.grad(autograd_version(m.f_argument))(x, [p.copy() for p in P])
    assert np.allclose(g, expected)
    with pytest.raises(TangentlikeError) as err:
        tl.hvp(m.f_argument)(x, [p.copy() for p in P], np.ones(3))
    assert "'P'" in str(err.value)
    assert err.value.location.line == _line("f_argument", "        P[i] = P[i] * x")
