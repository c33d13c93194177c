"""Second order (and first) through writes into arrays and lists that used to be refused
although their gradient is followed exactly:

- an array restored from the gradient's stack (`popped_array`, higher/form_pops.py) is
  an array for analyze/memory.py, so the differentiable form may write into it by index;
- a name bound to a copy of an array (`v1 = _v11`, `_v11 = updated(v1, _v10)`: what
  `v1 *= 3` leaves) is an array where it is written into (transform/container_checks.py);
- a list the function made, prebound to None (`L = None`, the user's or a gradient's)
  is still a list the function made (transform/container_writes.py,
  transform/argument_copies.py, higher/form_items.py);
- a list grown between two loops over it, not inside one (transform/container_checks.py),
  and, at second order, a loop over a list that the backward sweep shortens again
  visits a copy in the differentiable form (higher/form_loops.py);
- an argument halved in place in a loop over it, then read into an array written by
  index (tests/higher/test_second_order_stack.py refused it);
- a function returning an item of a loop over an argument it later writes into
  (`for e in y: return e`, `return max([s, e])`) copies the argument and checks the
  result at run time (transform/argument_copies.py).

Each is checked against autograd (of the same function written out of place where it
writes into an array) and central differences of the gradient."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_on_copies, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_popped_array(x, y):
    for k in range(2):
        v = np.array([np.sin(x), np.mean(y) * x])
        v[1] *= x
    return np.sum(v * v) * x


def g_popped_array(x, y):
    v = np.array([np.sin(x), np.mean(y) * x * x])
    return np.sum(v * v) * x


def f_copy_of_array(x, y):
    for i in range(2):
        v = np.array([x, np.sum(y), 1.0])
        v[-1] += x
        k = 0
        while k < 2:
            k += 1
            v *= 3
            z = v
            z += z * x
    return np.sum(v ** 2) * x


def g_copy_of_array(x, y):
    v = np.array([x, np.sum(y), 1.0 + x])
    for k in range(2):
        v = 3 * v
        v = v + v * x
    return np.sum(v ** 2) * x


def f_prebound_list(x, y):
    c = np.sum(y) > 0.0
    s = x * x
    if c:
        L = [y * x, y]
        L[0] = np.sin(L[1]) * L[0]
    if c:
        s = np.sum(L[0] * L[1]) * x
    return s


def f_user_none(x, y):
    L = None
    if np.sum(y) > 0.0:
        L = [y * x, y]
    L[0] = np.sin(L[1]) * L[0]
    return np.sum(L[0] * L[1]) * x


def f_between_loops(x, y):
    L = [x, np.sum(y)]
    for i in range(3):
        s = 0.0
        for t in L:
            s = s + t * x
            if s > 5.0:
                break
        L.append(np.sin(s) * y[i])
    return sum(L) * x


def f_after_loop(x, y):
    L = [x, np.sum(y)]
    s = 0.0
    for t in L:
        s = s + t * x
    L.append(np.sin(s) * y[0])
    return sum(L) * x


def f_between_loops_scalar(x):
    L = [x, x * x]
    for i in range(2):
        s = 0.0
        for t in L:
            s = s + np.sin(t) * x
        L.append(s)
    return sum(L)


def f_halved_in_a_loop(x, y):
    for e in y:
        if e > 0.0:
            y *= 0.5
    v = np.array([np.sum(y), x])
    v[1] = x * y[0]
    return np.sum(np.sin(v)) + np.sum(y ** 2)


def g_halved_in_a_loop(x, y):
    for k in range(4):
        if y[k] > 0.0:
            y = y * 0.5
    v = np.array([np.sum(y), x * y[0]])
    return np.sum(np.sin(v)) + np.sum(y ** 2)


def f_item_returned(x, y):
    for e in y:
        if e > 2.0:
            return max([np.sum(y), e])
    np.subtract(y, np.tanh(x * y), out=y)
    return np.mean(np.sin(y)) * x


def g_item_returned(x, y):
    for e in y:
        if e > 2.0:
            return max([np.sum(y), e])
    y = y - np.tanh(x * y)
    return np.mean(np.sin(y)) * x
"""

# f: the function; the oracle autograd differentiates (g_ where f writes into an array)
CASES = [
    "popped_array",
    "copy_of_array",
    "prebound_list",
    "between_loops",
    "after_loop",
    "item_returned",
    "halved_in_a_loop",
]
TWINS = {"popped_array", "copy_of_array", "item_returned", "halved_in_a_loop"}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("lifted_writes"), SOURCE, name="tl_lifted_writes")


def _args(seed=0, case=""):
    r = np.random.RandomState(seed)
    if case == "halved_in_a_loop":  # items of both signs: some rounds halve, some not
        return [0.4 + 0.2 * r.rand(), np.array([0.3, -0.4, 0.8, -0.2]) + 0.05 * r.randn(4)]
    return [0.4 + 0.2 * r.rand(), np.abs(r.randn(4)) * 0.5 + 0.1]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _oracle(m, case):
    return autograd_version(getattr(m, ("g_" if case in TWINS else "f_") + case))


def _autograd_hvp(g, args, v):
    """(H v) for both arguments, by autograd: grad of <grad g, v>."""

    def inner(x, y):
        gx, gy = autograd.grad(g, (0, 1))(x, y)
        return gx * v[0] + autograd.numpy.sum(gy * v[1])

    return autograd.grad(inner, (0, 1))(*args)


def _fd_hvp(f, args, v, eps=1e-6):
    """Central differences of tangentlike's gradient along v (fresh copies each call)."""
    g = tl.grad(f, wrt=(0, 1))
    up = g(*_copies([a + eps * d for a, d in zip(args, v, strict=True)]))
    down = g(*_copies([a - eps * d for a, d in zip(args, v, strict=True)]))
    return [(np.asarray(a) - np.asarray(b)) / (2 * eps) for a, b in zip(up, down, strict=True)]


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", CASES)
def test_hvp_where_writes_were_refused(m, case, method):
    f, g, args = getattr(m, "f_" + case), _oracle(m, case), _args(case=case)
    assert np.isclose(f(*_copies(args)), g(*_copies(args)))  # the same function
    v = (0.7, np.random.RandomState(1).randn(4))
    hv = tl.hvp(f, wrt=(0, 1), method=method)(*_copies(args), v)
    expected = _autograd_hvp(g, args, v)
    for got, want, fd in zip(hv, expected, _fd_hvp(f, args, v), strict=True):
        assert np.allclose(got, want, rtol=1e-7, atol=1e-9)
        assert np.allclose(got, fd, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", ["user_none", "between_loops", "item_returned"])
def test_gradient_where_writes_were_refused(m, case):
    """First order: these were refused in the user's function itself."""
    f, g = getattr(m, "f_" + case), _oracle(m, case)
    for seed in (0, 3):
        args = _args(seed)
        got = tl.grad(f, wrt=(0, 1))(*_copies(args))
        want = autograd.grad(g, (0, 1))(*args)
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            assert np.allclose(a, b, rtol=1e-7, atol=1e-9)
            assert np.allclose(a, fd_on_copies(f, args, i), rtol=1e-5, atol=1e-7)


def test_item_returned_from_the_loop(m):
    """The path returning an item of y, y not written: value and gradient as autograd's."""
    f, g = m.f_item_returned, _oracle(m, "item_returned")
    args = [0.5, np.array([0.3, 2.5, 0.1, 0.2])]
    assert f(*_copies(args)) == g(*_copies(args))
    got = tl.grad(f, wrt=(0, 1))(*_copies(args))
    want = autograd.grad(g, (0, 1))(*args)
    for a, b in zip(got, want, strict=True):
        assert np.allclose(a, b)


def test_grad_of_grad_between_loops(m):
    f, x = m.f_between_loops_scalar, 0.6
    second = tl.grad(tl.grad(f))(x)
    expected = autograd.grad(autograd.grad(autograd_version(f)))(x)
    assert np.isclose(second, expected, rtol=1e-7, atol=1e-9)
    g = tl.grad(f)
    assert np.isclose(second, (g(x + 1e-6) - g(x - 1e-6)) / 2e-6, rtol=1e-5)


def test_growing_inside_the_loop_over_the_list_is_still_refused(tmp_path):
    source = (
        "def f(x):\n"
        "    L = [x]\n"
        "    for i in range(2):\n"
        "        for t in L:\n"
        "            L.append(t * x)\n"
        "    return sum(L)\n"
    )
    f = load_module(tmp_path, "import numpy as np\n" + source, name="tl_grown_inside").f
    with pytest.raises(tl.UnsupportedSyntaxError, match="inside a loop over it"):
        tl.grad(f)(0.5)
