"""Second order through values a generated gradient pushes and pops: arrays rebound and
written into by index, whose backward sweep restores them from the stack chain. The
differentiable form pairs each pop with the push it undoes, checked at run time
(higher/form_pairs.py), and checks the arrays it pops into names written by index
(higher/form_pops.py). Hessian-vector products (forward over reverse, reverse over
reverse) against autograd (on a twin of each function written without item writes,
which autograd does not trace) and against central differences of the gradient; the
form's rewrites themselves on small texts."""

from __future__ import annotations

import ast

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.higher.form_pairs import pops_paired
from tangentlike.higher.form_pops import pops_into_arrays_checked

SOURCE = """
import numpy as np


def f_alias_updated(x):
    y = x * 1.0
    z = y
    z -= z / 3.0
    s = (z - y)[1]
    return np.mean(np.sin(y)) * s + np.sum(z ** 2)


def twin_alias_updated(x):
    y = x * 1.0
    y = y - y / 3.0
    z = y
    s = (z - y)[1]
    return np.mean(np.sin(y)) * s + np.sum(z ** 2)


def f_rebound_then_written(x):
    v = np.array([x[0], x[1] * 2.0])
    v[0] = x[1] * x[2]
    v = 0.5 * v + np.tanh(x[:2])
    v[1] = v[0] * x[0]
    return np.sum(v * v)


def twin_rebound_then_written(x):
    v = np.array([x[1] * x[2], x[1] * 2.0])
    v = 0.5 * v + np.tanh(x[:2])
    v = np.array([v[0], v[0] * x[0]])
    return np.sum(v * v)


def f_written_in_branch(x):
    v = x * 2.0
    if x[0] > 0.0:
        v[0] = v[1] * x[2]
        v = v * v
    else:
        v = np.cos(v)
        v[1] = x[0] ** 2
    v[2] = v[0] * v[1]
    return np.sum(v ** 2)


def twin_written_in_branch(x):
    v = x * 2.0
    if x[0] > 0.0:
        v = np.array([v[1] * x[2], v[1], v[2]])
        v = v * v
    else:
        v = np.cos(v)
        v = np.array([v[0], x[0] ** 2, v[2]])
    v = np.array([v[0], v[1], v[0] * v[1]])
    return np.sum(v ** 2)
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
# A debug-mode gradient reads `_v4` (bound to `v * v`, then named v) for its shape
# (`adjoint_contribution`) after `v[2] = ...` writes into it, which the second pass counts
# as a read of an updated array and refuses at run time: these build a plain gradient.
PLAIN_INNER = {"f_written_in_branch": False}
POINTS = [np.array([0.6, -0.4, 0.9]), np.array([-0.7, 0.5, 1.2])]  # both branches


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("pairs2"), SOURCE, name="tl_second_pairs")


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_pushed_and_popped_arrays(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    v = np.array([0.3, 1.1, -0.7])
    hv = tl.hvp(f, method=method, checks=PLAIN_INNER.get(case))(x, v)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_pushed_and_popped_arrays(m, case):
    f, x = getattr(m, case), POINTS[0]
    H = tl.hessian(f, checks=PLAIN_INNER.get(case))(x)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)


def _rewritten(text: str) -> tuple[str, dict]:
    fn = ast.parse(text).body[0]
    external: dict = {}
    pops_paired(fn, external)
    pops_into_arrays_checked(fn, external)
    return ast.unparse(fn), external


PAIRED = """
def df(x):
    _stack = None
    v = x * 2.0
    _stack = (v, _stack)
    v = v * v
    v[0] = x[0]
    v = _stack[0]
    _stack = _stack[1]
    return v
"""

IN_A_LOOP = """
def df(x):
    _stack = None
    v = None
    for i in range(2):
        _stack = (v, _stack)
        v = x * 2.0
        v[0] = x[0]
    for i in range(2):
        v = _stack[0]
        _stack = _stack[1]
    return v
"""


def test_a_pop_paired_with_its_push_reads_the_saved_name_after_a_check():
    text, external = _rewritten(PAIRED)
    assert "_pushed1 = v\n    _pushkey1 = pushed(v)\n    _stack = (_pushkey1, _stack)" in text
    assert "if _stack[0] is _pushkey1:\n        v = _pushed1\n    else:\n        raise" in text
    assert external == {"pushed": runtime.pushed}


def test_pops_in_loops_are_not_paired_but_checked_as_arrays():
    text, external = _rewritten(IN_A_LOOP)
    assert "_pushed" not in text
    assert "v = popped_array(_stack[0]," in text
    assert external == {"popped_array": runtime.popped_array}


def test_a_pop_out_of_order_raises_instead_of_binding_another_value():
    text, external = _rewritten(PAIRED.replace("    v = v * v\n", "    _stack = (x, _stack)\n"))
    namespace = {"np": np, **external}
    exec(text, namespace)
    with pytest.raises(ValueError, match="pop out of order"):
        namespace["df"](np.ones(2))


def test_popped_array_refuses_a_container():
    for container in ([1.0], (1.0,), {"a": 1.0}):
        with pytest.raises(ValueError, match="tangentlike: restored"):
            runtime.popped_array(container, "restored")
    x = np.ones(2)
    assert runtime.popped_array(x, "restored") is x and runtime.popped_array(None, "") is None
    for number in (0.5, 2, np.float64(0.5), np.float32(1.5)):
        assert runtime.popped_array(number, "restored") is number


RETURN_IN_LOOP = """
import numpy as np


def f(x, y):
    x = 0.5 * x
    x /= x ** 2 + 1.0
    for _ in range(2):
        if y @ y < x:
            return x
        x += x * 2.0
    return x * np.sum(y)
"""


@pytest.mark.parametrize("scale", [0.3, 1.0])  # returns in the loop's first step; never
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_a_number_the_gradient_may_write_into_by_index(tmp_path, scale, method):
    """`return x` in a loop before `x += ...` makes the gradient write `x[...] = ...` where
    x holds an array; x holds a float, whose pops the form binds as they are."""
    f = load_module(tmp_path, RETURN_IN_LOOP).f
    x, y = 0.7, scale * np.array([0.3, -0.4, 0.9, 0.2])
    hv = tl.hvp(f, wrt=0, method=method)(x, y, 1.0)
    expected = autograd.grad(autograd.grad(autograd_version(f)), 0)(x, y)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, fd_hvp(lambda t: f(t, y), x, 1.0), rtol=1e-4, atol=1e-6)
