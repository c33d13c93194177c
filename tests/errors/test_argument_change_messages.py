"""A function changing in place an argument that is not an array: the run-time error
names the line and gives advice that works (tested by following it)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError

PRELUDE = "import numpy as np\n\n"

# (function source, its line changing the argument, the advice, the advised function,
#  an out-of-place twin of it for autograd)
CASES = [
    (
        "def f(*xs):\n    a = xs[0]\n    a *= 2.0\n    return np.sum(a * xs[1])\n",
        5,
        "copy what you change first (a = a.copy())",
        "def f(*xs):\n    a = xs[0]\n    a = a.copy()\n    a *= 2.0\n"
        "    return np.sum(a * xs[1])\n",
        lambda a, b: (2.0 * a * b).sum(),
    ),
    (
        "def f(*xs):\n    xs[0][1] = 5.0\n    return np.sum(xs[0] * xs[1])\n",
        4,
        "copy the item you change first (item = xs[i].copy())",
        "def f(*xs):\n    item = xs[0].copy()\n    item[1] = 5.0\n"
        "    return np.sum(item * xs[1])\n",
        lambda a, b: (a * b).sum() - a[1] * b[1] + 5.0 * b[1],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["alias of an item", "an item written"])
def test_varargs_changed_in_place_are_refused_with_advice_that_works(tmp_path, case):
    source, line, advice, advised, twin = case
    module = load_module(tmp_path, PRELUDE + source, "changes")
    x, y = np.arange(3.0), np.full(3, 2.0)
    with pytest.raises(CheckError) as err:
        tl.grad(module.f, wrt=(0, 1))(x.copy(), y.copy())
    message = str(err.value)
    assert f"changes.py:{line}:" in message, message
    assert "`*xs` is a tuple of the caller's values" in message, message
    assert advice in message, message
    assert "xs = xs.copy()" not in message  # a tuple has no .copy()

    fixed = load_module(tmp_path, PRELUDE + advised, "advised")
    gx, gy = tl.grad(fixed.f, wrt=(0, 1))(x, y)
    assert x.tolist() == [0.0, 1.0, 2.0]  # the caller's arrays unchanged

    for i, g in enumerate((gx, gy)):
        np.testing.assert_allclose(g, autograd_grad(twin, (x, y), i), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(fixed.f, (x, y), i), rtol=1e-6, atol=1e-8)


def test_an_item_of_a_list_changed_in_place_is_copied_not_the_list(tmp_path):
    source = "def f(xs):\n    a = xs[0]\n    a *= 2.0\n    return np.sum(a * xs[1])\n"
    module = load_module(tmp_path, PRELUDE + source, "listed")
    with pytest.raises(CheckError) as err:
        tl.grad(module.f)([np.arange(3.0), np.ones(3)])
    assert "listed.py:5:" in str(err.value)
    assert "(a = a.copy())" in str(err.value)  # copying the list would keep the array
