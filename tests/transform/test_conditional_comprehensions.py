"""Comprehensions that Python runs conditionally or repeatedly: in a branch of
`a if c else b`, after `and`/`or`, in a `while` test (also with `continue` and `break`
in the body), on floats and arrays, in reverse and forward mode: gradients against
autograd (which follows the path Python takes) and central differences, at points
taking every path."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, directional_fd, load_module

import tangentlike as tl

PROGRAMS = {
    "ternary": """
def f(x, y):
    s = np.sum(y) * x if x > 0 else sum([w * x for w in y])
    return s * x
""",
    "ternary both branches": """
def f(x, y):
    s = sum([w * x for w in y]) if x > 0 else sum([w * w * x for w in y if w > 0.5])
    return s * x + np.sum(y ** 2)
""",
    "and": """
def f(x, y):
    c = x > 0.5 and sum([w for w in y if w * x > 0]) > 0.1
    if c:
        return x * np.sum(y * y)
    return x ** 2 * np.sum(y)
""",
    "or as a value": """
def f(x, y):
    s = (x < 0 or sum([x * w for w in y])) * x
    return s + np.sum(y ** 2)
""",
    "nested in a ternary": """
def f(x, y):
    s = (x > 1 and sum([x * w for w in y])) if x > 0 else (x < -1 or np.sum(y) * x)
    return s * x + x
""",
    "while test": """
def f(x, y):
    k = 0
    while sum([x * w for w in y]) < 5.0 and k < 10:
        k += 1
        x = x * 1.5 + np.sum(y) * 0.1
    return x * np.sum(y)
""",
    "while test, continue and break": """
def f(x, y):
    k = 0
    tot = 0.0
    while sum([w * x for w in y]) < 4.0 and k < 20:
        k += 1
        x = x * 1.3
        if k % 2 == 0:
            continue
        tot = tot + x * y[0]
        if k > 6:
            break
    return tot + x
""",
}
POINTS = [0.7, -0.4, 1.6, -1.7]


@pytest.mark.parametrize("name", PROGRAMS)
def test_reverse_mode_against_autograd_and_central_differences(tmp_path, name):
    f = load_module(tmp_path, "import numpy as np\n" + PROGRAMS[name]).f
    y = np.array([0.3, 0.7, 1.1])
    for x in POINTS:
        gx, gy = tl.grad(f, wrt=(0, 1))(x, y)
        np.testing.assert_allclose(gx, autograd_grad(f, [x, y], 0), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(gy, autograd_grad(f, [x, y], 1), rtol=1e-10, atol=1e-12)
        fd = (f(x + 1e-6, y) - f(x - 1e-6, y)) / 2e-6
        np.testing.assert_allclose(gx, fd, rtol=1e-5, atol=1e-6)
        u = np.array([0.5, -1.0, 0.25])
        np.testing.assert_allclose(
            np.dot(gy, u), directional_fd(f, [x, y], 1, u), rtol=1e-5, atol=1e-6
        )


@pytest.mark.parametrize("name", PROGRAMS)
def test_forward_mode_matches_reverse_mode(tmp_path, name):
    f = load_module(tmp_path, "import numpy as np\n" + PROGRAMS[name]).f
    y = np.array([0.3, 0.7, 1.1])
    for x in POINTS:
        value, tangent = tl.jvp(f, wrt=0)(x, y, 1.0)
        assert value == f(x, y)
        np.testing.assert_allclose(tangent, tl.grad(f)(x, y), rtol=1e-12, atol=1e-12)
