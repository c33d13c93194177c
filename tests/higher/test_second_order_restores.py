"""Second order through lists a loop builds again at each step (a comprehension's list
read by `sum`): the backward sweep restores the list from the stack chain, which the
differentiable form binds as a copy (higher/form_restores.py). Hessian-vector products
(forward over reverse, reverse over reverse) and Hessians against autograd and central
differences of the gradient; grad of grad for a scalar."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_comprehension_in_loop(x):
    s = x
    for i in range(3):
        s = s * sum([np.cos(s[k]) for k in range(len(x))]) * 0.5
    return np.sum(s**2)


def f_filtered_in_loop(x):
    s = x * 1.0
    t = 0.0
    for i in range(3):
        t = t + sum([v * np.sin(v) for v in s if v > -10.0]) * (i + 1)
        s = s * np.tanh(t) + x
    return np.sum(s * s) + t


def f_nested_loops(x):
    total = 0.0
    for i in range(2):
        for j in range(2):
            total = total + sum([np.exp(0.3 * v * (i + j)) * v for v in x])
    return total * total
"""

SCALAR = """
import numpy as np


def f_return_in_loop(x, y):
    for e1 in y:
        if x > 5.0:
            return sum([x * x * x for e3 in y if e3 > e1])
        x = x * 1.1
    return x * x
"""

R = np.random.RandomState(5)
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("restores2"), SOURCE, name="tl_second_restores")


@pytest.fixture(scope="module")
def s(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("restores2s"), SCALAR, name="tl_second_restores_s")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_restored_lists(m, case, method):
    f, x = getattr(m, case), R.randn(3) * 0.5
    v = np.random.RandomState(1).standard_normal(3)
    hv = tl.hvp(f, method=method)(x, v)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    af = autograd_version(f)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(af)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_restored_lists(m, case, method):
    f, x = getattr(m, case), R.randn(3) * 0.5
    H = tl.hessian(f, method=method)(x)
    assert np.allclose(H, autograd.hessian(autograd_version(f))(x), rtol=1e-7, atol=1e-9)
    columns = np.stack([fd_hvp(f, x, e) for e in np.eye(3)], axis=-1)
    assert np.allclose(H, columns, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("x", [0.7, 4.8, 6.0])
def test_grad_of_grad_with_a_return_in_the_loop(s, x):
    f, y = s.f_return_in_loop, np.array([1.0, 2.0, 3.0])
    second = tl.grad(tl.grad(f))(x, y)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(x, y)
    assert np.isclose(second, expected, rtol=1e-7, atol=1e-9)
    g = tl.grad(f)
    assert np.isclose(second, (g(x + 1e-6, y) - g(x - 1e-6, y)) / 2e-6, rtol=1e-5, atol=1e-6)
    for method in ("forward", "reverse"):
        assert np.isclose(tl.hvp(f, method=method)(x, y, 1.0), expected, rtol=1e-7, atol=1e-9)


def _rewritten(text: str) -> str:
    import ast

    from tangentlike import runtime
    from tangentlike.higher.form_restores import restores_as_copies

    fn = ast.parse(text).body[0]
    restores_as_copies(fn, {"restore_item": runtime.restore_item})
    return ast.unparse(fn)


FORM = """
def df(x):
    _stack = None
    B = None
    for i in range(2):
        _stack = (B, _stack)
        B = []
        B.append(x)
        f = sum(B)
    for i in range(2):
        g = len(B)
        B = _stack[0]
        _stack = _stack[1]
    {after}
    return f
"""


def test_a_restore_becomes_a_copy_where_the_list_never_changes_after():
    assert "B = list(_stack[0])" in _rewritten(FORM.format(after="pass"))


@pytest.mark.parametrize(
    "after",
    ["B.append(x)", "B[0] = x", "restore_item(B, 0, (True, x))", "C = B", "del B[0]", "B.sort()"],
)
def test_a_restore_stays_where_the_list_may_change_after(after):
    assert "B = _stack[0]" in _rewritten(FORM.format(after=after))
