"""Second order through arrays a loop makes anew and writes into by index: the gradient
pushes the array before each new one and its backward sweep pops it back, then restores
what the writes overwrote (`v[0:2] = _stack[0]`). Differentiated again (the gradient's
differentiable form, higher/forms.py), the pop was read as anything the stack chain
holds: another variable's entry, a view of the argument (`_v1 = x[2]`), made the popped
array a possible view of the argument, and the popped array was not known to be one
(a list, for all the analysis knew). Now a pop into v returns what the pushes of v saved
(analyze/stack_entries.py), `popped_array(...)` is an array (analyze/memory.py), and a
write into the popped array asks at run time that the chain share none of its memory
(runtime.untouched, through a chain of any length). Seed 12 programs 15, 27, 60, 139,
141, 190 of the random programs; `f_halved_in_a_loop` was test_second_order_stack.py's
refused program. Hessian-vector products (forward over reverse, reverse
over reverse) against autograd on twins without writes in place, and against central
differences of the gradient."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f_another_variable_pushed_a_view(x):
    s = 0.0
    for i in range(3):
        v = x.copy()
        v[0:2] = x[2] * x[i]
        s = s + np.sum(np.sin(v))
    return s


def twin_another_variable_pushed_a_view(x):
    s = 0.0
    for i in range(3):
        v = np.concatenate([x[2] * x[i] * np.ones(2), x[2:]])
        s = s + np.sum(np.sin(v))
    return s


def f_copy_written_whole(x):
    for i in range(4):
        v = x.copy()
        v[0:4] = x[2]
        w = v / 2.0
    return np.sum(np.sin(w) * x)


def twin_copy_written_whole(x):
    w = x[2] * np.ones(4) / 2.0
    return np.sum(np.sin(w) * x)


def f_made_in_a_while_loop(x):
    k = 0
    s = 0.0
    while np.max(x) < 5.0 and k < 3:
        k += 1
        v = np.array([0.0, x[1], x[2] * x[0]])
        v[1:2] *= x[0] / (x[0] ** 2 + 1.0)
        s = s + np.sum(v ** 2) * x[3]
    return s + np.sum(np.sin(x)) * x[3] ** 2


def twin_made_in_a_while_loop(x):
    s = 0.0
    for k in range(3):
        v = np.array([0.0, x[1] * (x[0] / (x[0] ** 2 + 1.0)), x[2] * x[0]])
        s = s + np.sum(v ** 2) * x[3]
    return s + np.sum(np.sin(x)) * x[3] ** 2
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINTS = [np.array([0.6, -0.4, 0.9, 0.3]), np.array([-1.1, 0.5, 0.2, -0.8])]
V = np.array([0.3, 1.1, -0.7, 0.2])

LONG = """
import numpy as np


def f_many_rounds(x):
    s = 0.0
    for i in range(150):
        v = x.copy()
        v[0:2] = x[2] * x[i % 4]
        s = s + np.sum(np.sin(v))
    return s
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("entries2"), SOURCE, name="tl_second_entries")


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_arrays_a_loop_makes_and_writes(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    hv = tl.hvp(f, method=method)(x, V)
    assert np.allclose(hv, fd_hvp(f, x, V), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_arrays_a_loop_makes_and_writes(m, case):
    f, x = getattr(m, case), POINTS[0]
    H = tl.hessian(f)(x)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_the_run_time_check_walks_a_long_chain_without_recursion(tmp_path, method):
    """Each write asks the whole chain (over a thousand nested pairs) to share none of the
    written array: a walk, not a recursion (it raised RecursionError)."""
    f = load_module(tmp_path, LONG, name=f"tl_second_entries_long_{method}").f_many_rounds
    x = POINTS[0]
    hv = tl.hvp(f, method=method)(x, V)
    assert np.allclose(hv, fd_hvp(f, x, V), rtol=1e-4, atol=1e-6)


SHARED = """
import numpy as np


def f_the_same_array_pushed_each_round(x):
    v = x * 1.0
    s = 0.0
    for i in range(3):
        w = v
        v[0:1] = w[1:2] * x[i]
        s = s + np.sum(np.sin(w))
    return s
"""


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_a_chain_holding_the_written_array_is_still_refused_at_run_time(tmp_path, method):
    """w, pushed each round, is v's array: the chain holds the array the backward sweep
    writes into, which the run-time check finds (never a derivative of other values)."""
    source = load_module(tmp_path, SHARED, name=f"tl_second_entries_shared_{method}")
    f = source.f_the_same_array_pushed_each_round
    with pytest.raises(tl.CheckError, match="what the gradient saved for its backward sweep"):
        tl.hvp(f, method=method)(POINTS[0], V)


HALVED = """
import numpy as np


def f_halved_in_a_loop(x, y):
    for e in y:
        if e > 0.0:
            y *= 0.5
    v = np.array([np.sum(y), x])
    v[1] = x * y[0]
    return np.sum(np.sin(v)) + np.sum(y ** 2)


def twin_halved_in_a_loop(z):
    x, y = z[0], z[1:]
    c = 1.0
    for i in range(3):
        if y[i] * c > 0.0:  # the item as the loop reads it, after the halvings so far
            c = c * 0.5
    y = y * c
    v = np.array([np.sum(y), x * y[0]])
    return np.sum(np.sin(v)) + np.sum(y ** 2)
"""


@pytest.mark.parametrize("y", [[0.5, -0.3, 0.8], [-0.5, -0.3, -0.8], [0.5, 0.3, 0.8]])
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_an_argument_halved_in_place_in_a_loop(tmp_path, method, y):
    """The argument's own copy, halved in place in a loop over it (0 to 3 times), pushed
    and restored by the gradient: refused until the chain's entries were known variable
    by variable (test_second_order_stack.py's refused program)."""
    m = load_module(tmp_path, HALVED, name=f"tl_second_entries_halved_{method}")
    f, x, y = m.f_halved_in_a_loop, 0.7, np.array(y)
    u = (0.4, np.array([0.3, -1.1, 0.5]))
    hv = tl.hvp(f, wrt=(0, 1), method=method)(x, y.copy(), u)
    g, eps = tl.grad(f, wrt=(0, 1)), 1e-6
    up, down = g(x + eps * u[0], y + eps * u[1]), g(x - eps * u[0], y - eps * u[1])
    for k in range(2):
        assert np.allclose(hv[k], (up[k] - down[k]) / (2 * eps), rtol=1e-4, atol=1e-6)
    twin = autograd_version(m.twin_halved_in_a_loop)
    z, w = np.concatenate([[x], y]), np.concatenate([[u[0]], u[1]])
    expected = autograd.grad(lambda q: autograd.numpy.sum(autograd.grad(twin)(q) * w))(z)
    assert np.allclose(np.concatenate([[hv[0]], hv[1]]), expected, rtol=1e-7, atol=1e-9)
