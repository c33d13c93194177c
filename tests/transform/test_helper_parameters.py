"""Helpers whose differentiated parameters do not all reach their result.

A helper called with a differentiated argument gets split forward/backward
variants; the backward half returns a gradient for every such parameter, zeros
for one its result does not depend on (unused, used only for a shape or a test,
rebound before use). That zero gradient reads the parameter, so the backward
half must receive it from the forward half like any other saved value. Each
helper shape below is called once, in a loop, from another helper, twice with
swapped roles and inside a branch, with scalar and array arguments, and
checked against central differences and autograd.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

# def h(a, b): ... returning one value
HELPERS = {
    "unused": "def h(a, b):\n    return a * 2.0\n",
    "first_unused": "def h(a, b):\n    return np.sin(b)\n",
    "both_unused": "def h(a, b):\n    return 1.5\n",
    "dead_use": "def h(a, b):\n    t = np.sin(b)\n    return a * 2.0\n",
    "size_only": "def h(a, b):\n    n = np.size(b)\n    return a * n\n",
    "test_only": (
        "def h(a, b):\n    if np.sum(b) > 0.0:\n        return a * 2.0\n    return a * 3.0\n"
    ),
    "rebound_in_branch": (
        "def h(a, b):\n    if np.sum(a) > 0.0:\n        b = 3.0\n    return a * b\n"
    ),
    # the zero gradient of the old b, set after the branch, must read the old b (an
    # array), not the number it was rebound to
    "rebound_on_its_own_test": (
        "def h(a, b):\n    if np.sum(b) < 0.0:\n        b = 3.0\n    return a * b\n"
    ),
    "rebound_in_both_branches": (
        "def h(a, b):\n    if np.sum(a) > 0.0:\n        b = 3.0\n    else:\n        b = 2.0\n"
        "    return a * b\n"
    ),
    "rebound_first": "def h(a, b):\n    b = a * 0.5\n    return a * b\n",
    "rebound_in_loop": (
        "def h(a, b):\n    for i in range(2):\n        b = a * (i + 1.0)\n    return a * b\n"
    ),
    "accumulated_in_loop": (
        "def h(a, b):\n    for i in range(2):\n        b = b * a\n    return b\n"
    ),
    "rebound_in_while": (
        "def h(a, b):\n    k = 0\n    while k < 2:\n        b = a + k\n        k = k + 1\n"
        "    return a * b\n"
    ),
    "both_rebound": "def h(a, b):\n    b = 1.0\n    a = a * 2.0\n    return a\n",
    "unused_with_default": "def h(a, b=2.0):\n    return a * 2.0\n",
}

CALLERS = {
    "once": "def f(x, y):\n    return np.sum(h(x, y * x))\n",
    "in_loop": (
        "def f(x, y):\n    t = x * 1.0\n    for i in range(3):\n        t = h(t, y * t) * 0.5 + t\n"
        "    return np.sum(t)\n"
    ),
    "nested": (
        "def g(a, b):\n    return h(a * 1.0, b * a) + a\n\n\n"
        "def f(x, y):\n    return np.sum(g(x, y))\n"
    ),
    "nested_in_loop": (
        "def g(a, b):\n    s = a * 0.0\n    for i in range(2):\n        s = s + h(a, b)\n"
        "    return s\n\n\ndef f(x, y):\n    return np.sum(g(x, y * 1.0))\n"
    ),
    "twice_swapped": ("def f(x, y):\n    u = h(x, y)\n    v = h(y, x)\n    return np.sum(u * v)\n"),
    "swapped": "def f(x, y):\n    return np.sum(h(y, x))\n",
    "in_branch": (
        "def f(x, y):\n    if np.sum(x) > 0.0:\n        t = h(x, y)\n    else:\n        t = x * y\n"
        "    return np.sum(t)\n"
    ),
}

# def h(a, b): ... returning a pair
PAIR_HELPERS = {
    "pair_unused": "def h(a, b):\n    return a * 2.0, a * 3.0\n",
    "pair_constant": "def h(a, b):\n    return a * 2.0, 1.5\n",
    "pair_swapped": "def h(a, b):\n    return b, a\n",
    "pair_rebound_in_branch": (
        "def h(a, b):\n    if np.sum(a) > 0.0:\n        b = a * 1.0\n    return b, a\n"
    ),
    "pair_rotated_in_loop": (
        "def h(a, b):\n    for i in range(2):\n        a, b = b, a * 0.5\n    return a, b\n"
    ),
    "pair_copied_unused": "def h(a, b):\n    c = b\n    return a, a * a\n",
}

PAIR_CALLERS = {
    "unpacked": "def f(x, y):\n    u, v = h(x, y * x)\n    return np.sum(u * v)\n",
    "first_only": "def f(x, y):\n    u, v = h(x, y)\n    return np.sum(u)\n",
    "indexed": "def f(x, y):\n    r = h(x, y)\n    return np.sum(r[1])\n",
    "in_loop": (
        "def f(x, y):\n    t = x * 1.0\n    s = y * 1.0\n    for i in range(3):\n"
        "        t, s = h(t, s)\n        t = t * 0.5\n    return np.sum(t + s)\n"
    ),
    "nested": (
        "def g(a, b):\n    p, q = h(a, b)\n    return p * q + a\n\n\n"
        "def f(x, y):\n    return np.sum(g(x, y))\n"
    ),
}

# parameters holding containers, or passed by keyword
OTHERS = {
    "unused_list": (
        "def h(a, xs):\n    return a * 2.0\n\n\ndef f(x, y):\n    return np.sum(h(x, [y, x]))\n"
    ),
    "dict_rebound_in_branch": (
        "def h(a, table):\n    if np.sum(a) > 0.0:\n        table = {'k': 1.0}\n"
        "    return a * table['k']\n\n\ndef f(x, y):\n    return np.sum(h(x, {'k': y}))\n"
    ),
    # the adjoint updated in place (`b *= 1.5`) dies with the rebound parameter
    "rebound_before_use_in_loop": (
        "def h(p0, p1, p2):\n    p0 = 1.5\n    p0 = np.sin(p2) * np.sin(1.5)\n"
        "    u = np.tanh(1.5 * p0)\n    return u\n\n\n"
        "def f(x, y):\n    s = x * 1.0\n    for _k in range(2):\n        s = s + h(s, y, 1.0)\n"
        "    return np.sum(s)\n"
    ),
    "unused_keyword_only": (
        "def h(a, *, b):\n    return a * 1.0\n\n\ndef f(x, y):\n    return np.sum(h(x, b=y))\n"
    ),
}

PROGRAMS = (
    [(f"{h}-{c}", HELPERS[h] + "\n\n" + CALLERS[c]) for h, c in itertools.product(HELPERS, CALLERS)]
    + [
        (f"{h}-{c}", PAIR_HELPERS[h] + "\n\n" + PAIR_CALLERS[c])
        for h, c in itertools.product(PAIR_HELPERS, PAIR_CALLERS)
    ]
    + list(OTHERS.items())
)


def _inputs(shape):
    """A positive scalar x, and a vector x of negative sum: both sides of the helpers' tests."""
    if shape == ():
        return 0.7, -0.4
    return np.array([-0.8, 0.3, -0.5]), np.array([0.6, -0.9, 0.25])


@pytest.mark.parametrize("shape", [(), (3,)], ids=["scalar", "vector"])
@pytest.mark.parametrize(("name", "source"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_helper_parameter_gradients(tmp_path, name, source, shape):
    module = load_module(tmp_path, "import numpy as np\n\n\n" + source)
    x, y = _inputs(shape)
    gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y)
    for i, g in enumerate((gx, gy)):
        assert np.shape(g) == np.shape((x, y)[i])
        np.testing.assert_allclose(g, fd_gradient(module.f, [x, y], i), rtol=1e-5, atol=1e-6)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # autograd: "Output seems independent of input"
            expected = autograd_grad(module.f, [x, y], i)
        np.testing.assert_allclose(g, expected, rtol=1e-9, atol=1e-12)


def test_an_unused_parameter_is_saved_for_its_zero_gradient(tmp_path):
    """The backward half reads the parameter it returns zeros for: the forward half saves it."""
    module = load_module(
        tmp_path, "import numpy as np\n\n\n" + HELPERS["unused"] + "\n\n" + CALLERS["once"]
    )
    source = tl.grad(module.f, wrt=(0, 1), checks=False).source
    assert "_stack.append((b,))" in source
    assert "(b,) = _stack.pop()" in source or "b, = _stack.pop()" in source
