"""Second order where the second pass binds a pushed name again: a pop paired with its
push (higher/form_pairs.py) checks the object on top of the stack chain against the
push's key `_pushkeyN`, not against the name `_pushedN` it binds. The second pass binds
`_pushedN` again to an object of the same value (a view made again after a write into
its base, a copy kept apart from such a write), on which an identity test failed: a
"pop out of order" refused at run time (seed 12 programs 119, 202, 224, 266 of the
random programs). Hessian-vector products (forward over reverse, reverse over reverse)
and Hessians against autograd, on twins written without writes in place (which autograd
does not trace), and against central differences of the gradient."""

from __future__ import annotations

import ast

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.higher.form_pairs import pops_paired

SOURCE = """
import numpy as np


def f_view_made_again(y):
    z = y[0:3]
    z += np.sin(y[1:4])
    v = z[::-1]
    np.multiply(y, y, out=y)
    z *= 2.0
    return np.sum(y ** 2) + np.sum(v * z)


def twin_view_made_again(y):
    y = np.concatenate([y[0:3] + np.sin(y[1:4]), y[3:]])
    y = y * y
    y = np.concatenate([y[0:3] * 2.0, y[3:]])
    return np.sum(y ** 2) + np.sum(y[0:3][::-1] * y[0:3])


def f_alias_kept_apart(A):
    M = A
    M += np.sin(A)
    A /= A ** 2 + 1.0
    N = M
    return np.sum(N * A) + np.sum(np.cos(M))


def twin_alias_kept_apart(A):
    A = A + np.sin(A)
    A = A / (A ** 2 + 1.0)
    return np.sum(A * A) + np.sum(np.cos(A))

"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINTS = [np.array([0.6, -0.4, 0.9, 0.3]), np.array([-1.1, 0.5, 0.2, -0.8])]
V = np.array([0.3, 1.1, -0.7, 0.2])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("keys2"), SOURCE, name="tl_second_pop_keys")


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_where_the_second_pass_binds_a_pushed_name_again(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    hv = tl.hvp(f, method=method)(x.copy(), V)
    assert np.allclose(hv, fd_hvp(lambda a: f(a.copy()), x, V), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", NAMES)
def test_hessian_where_the_second_pass_binds_a_pushed_name_again(m, case):
    f, x = getattr(m, case), POINTS[0]
    H = tl.hessian(f)(x.copy())
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)


PAIRED = """
def df(x):
    _stack = None
    v = x * 2.0
    _stack = (v, _stack)
    v = v * v
    v = _stack[0]
    _stack = _stack[1]
    return v
"""


def _paired(text: str) -> str:
    fn = ast.parse(text).body[0]
    pops_paired(fn, {})
    return ast.unparse(fn)


def test_a_pop_checks_the_push_key_and_binds_the_saved_name():
    text = _paired(PAIRED)
    assert "_pushed1 = v\n    _pushkey1 = pushed(v)\n    _stack = (_pushkey1, _stack)" in text
    assert "if _stack[0] is _pushkey1:\n        v = _pushed1\n    else:\n        raise" in text
    assert "_pushed1 = None" in text and "_pushkey1 = None" in text


def test_the_check_holds_where_the_saved_name_is_bound_again_to_an_equal_copy():
    """What the second pass does to `_pushed1` (a copy kept apart from a write) leaves
    the key, and so the check, as they were: the pop binds the copy."""
    text = _paired(PAIRED).replace(
        "    v = v * v\n", "    v = v * v\n    _pushed1 = _pushed1.copy()\n"
    )
    namespace = {"pushed": runtime.pushed}
    exec(text, namespace)
    x = np.array([1.0, -2.0])
    assert np.array_equal(namespace["df"](x), x * 2.0)


def test_a_pop_of_another_object_still_raises():
    text = _paired(PAIRED).replace("    v = v * v\n", "    v = v * v\n    _stack = (v, _stack)\n")
    namespace = {"pushed": runtime.pushed}
    exec(text, namespace)
    with pytest.raises(ValueError, match="pop out of order"):
        namespace["df"](np.ones(2))
