"""Conditions with and/or/not in if, elif, while, ternaries and comprehension filters,
before, inside and after loops, on floats and arrays: gradients against autograd (which
follows the path Python takes) and central differences, at points taking every
short-circuit path. Also `a and b` / `a or b` as values, and random nested programs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from control_programs import program
from reference import autograd_grad, directional_fd, load_module

import tangentlike as tl

# S(e) is e for floats and np.sum(e) for arrays
CONDITIONS = [
    "n > 0 and S(x) > 0.5",
    "S(x) > 0.5 and n > 0",
    "S(x) > 0.5 or S(y) < 0.0",
    "S(y) < 0.0 or S(x) > 0.5 or S(s) > 2.0",
    "not S(x) > 0.5",
    "S(x) > 0.5 and (S(y) < 1.0 or not S(s) > 2.0)",
    "(S(x) > 0.5 or S(y) > 0.5) and not S(s) < 0.0",
    "0.0 < S(x) < 2.0",
    "S(x * y) > 0.25 and S(s - y) < 3.0 or S(x) < -1.0",
    "S(s) > 1.0 and S(np.sin(s)) > 0.0",
    "not (S(x) < 0.0 or S(y) < 0.0) and S(s) > 0.0",
]

# Each template uses C (the condition) on s, x, y and n; returns a scalar.
PLACEMENTS = {
    "if-after-loop": """
    for i in range(n):
        s = s * 0.75 + x * y
    if C:
        s = s * x
    """,
    "if-before-loop": """
    if C:
        s = s * x + y
    for i in range(n):
        s = s * 0.5 + y
    """,
    "if-in-loop": """
    for i in range(n + 1):
        if C:
            s = s * x + y
        else:
            s = s + y * y
    """,
    "elif-in-loop": """
    for i in range(n + 1):
        if S(s) > 10.0:
            s = s * 0.1
        elif C:
            s = s * x
        else:
            s = s - y
    """,
    "nested-loops": """
    for i in range(n):
        for j in range(2):
            if C:
                s = s * 0.5 + x
            s = s + y * 0.25
    if C:
        s = s * y
    """,
    "while": """
    k = 0
    while k < n + 1 and (C):
        k = k + 1
        s = s * 0.5 + x * y
    """,
    "while-body": """
    k = 0
    while k < 3:
        k = k + 1
        if C:
            s = s * x
        s = s + y
    """,
    "ternary": """
    for i in range(n + 1):
        s = s * x if C else s + y
    s = (s + x) if C else s * y
    """,
    "value-of-condition": """
    for i in range(n + 1):
        flag = C
        if flag:
            s = s + x * y
    """,
    "break": """
    for i in range(4):
        s = s * 0.5 + x
        if C:
            break
        s = s + y
    """,
    "continue": """
    for i in range(n + 1):
        s = s + y * 0.5
        if C:
            continue
        s = s * x
    """,
    "filter": """
    vals = [v * x for v in [0.5, -1.5, 2.0] if v > 0.0 and (C)]
    s = s + sum(vals)
    vals = [v * s for v in [1.5, -0.5] if C or v < 0.0]
    s = s + sum(vals)
    """,
}

POINTS = [(x, y, n) for x, y, n in itertools.product([-1.3, 0.3, 0.9, 1.7], [-0.7, 0.6], [0, 2])]


def _source(template: str, condition: str, arrays: bool) -> str:
    body = template.replace("C", condition).replace("S(", "np.sum(" if arrays else "(")
    lines = "\n".join(line[4:] if line.startswith("    ") else line for line in body.split("\n"))
    body = "\n".join("    " + line for line in lines.strip("\n").split("\n"))
    result = "np.sum(s * x + y)" if arrays else "s * x + y"
    return (
        f"import numpy as np\n\n\ndef f(x, y, n):\n    s = x + 0.5\n{body}\n    return {result}\n"
    )


def _check(f, points, arrays: bool) -> None:
    df = tl.grad(f, wrt=(0, 1))
    for x, y, n in points:
        if arrays:
            x = np.array([x, 0.5 * x, -0.25])
            y = np.array([y, 0.2, y * 0.5])
        value = f(x, y, n)
        gx, gy = df(x, y, n)
        for i, g in ((0, gx), (1, gy)):
            expected = autograd_grad(f, [x, y, n], i)
            np.testing.assert_allclose(g, expected, rtol=1e-9, atol=1e-12, err_msg=str((x, y, n)))
        # central differences where no branch decision is within reach of the step
        u = np.ones(np.shape(x))
        if np.isfinite(value) and all(
            np.isclose(f(x + d * u, y, n), value + d * np.sum(gx * u), rtol=1e-3, atol=1e-6)
            for d in (1e-5, -1e-5)
        ):
            fd = directional_fd(f, [x, y, n], 0, u)
            assert np.isclose(np.sum(gx * u), fd, rtol=1e-5, atol=1e-6), (x, y, n)


@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_condition_on_floats(tmp_path, placement, condition):
    module = load_module(tmp_path, _source(PLACEMENTS[placement], condition, arrays=False))
    _check(module.f, POINTS, arrays=False)


@pytest.mark.parametrize("condition", CONDITIONS[::2])
@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_condition_on_arrays(tmp_path, placement, condition):
    module = load_module(tmp_path, _source(PLACEMENTS[placement], condition, arrays=True))
    _check(module.f, POINTS[::3], arrays=True)


# -- and / or as values ------------------------------------------------------------------
VALUES = [
    "v = x or 1.0",
    "v = x and y",
    "v = x or y or 2.0",
    "v = x and y and x * y",
    "v = (x > 0) and x",
    "v = (x > 0) or y",
    "v = not x and y",
    "v = (x and y) or (y * 2.0)",
    "v = x * (x > 1.0 or y)",
    "v = x if x and y else y * 3.0",
    "v = (x or y) + (y and x)",
    "v = np.sin(x) or np.cos(y)",
]


@pytest.mark.parametrize("statement", VALUES)
def test_and_or_as_values_follow_python(tmp_path, statement):
    module = load_module(
        tmp_path,
        f"import numpy as np\n\n\ndef f(x, y):\n    {statement}\n    return v * 1.0 + x * 0.0\n",
    )
    f = module.f
    vg = tl.value_and_grad(f, wrt=(0, 1))
    for x, y in [(0.0, 0.7), (0.6, 0.0), (0.0, 0.0), (-1.2, 0.9), (1.5, 2.0)]:
        value, (gx, gy) = vg(x, y)
        assert value == f(x, y)
        for i, g in ((0, gx), (1, gy)):
            np.testing.assert_allclose(g, autograd_grad(f, [x, y], i), rtol=1e-12, atol=0)


# -- random nested programs ------------------------------------------------------------
@pytest.mark.parametrize("seed", range(50))
def test_random_control_flow_on_floats(tmp_path, seed):
    _random_case(tmp_path, seed, arrays=False)


@pytest.mark.parametrize("seed", range(1000, 1020))
def test_random_control_flow_on_arrays(tmp_path, seed):
    _random_case(tmp_path, seed, arrays=True)


def _random_case(tmp_path, seed: int, arrays: bool) -> None:
    module = load_module(tmp_path, program(seed, arrays), name=f"control_{seed}_{int(arrays)}")
    rng = np.random.RandomState(seed)
    for _ in range(3):
        if arrays:
            x, y = rng.uniform(-2, 2, 3), rng.uniform(-2, 2, 3)
        else:
            x, y = float(rng.uniform(-2, 2)), float(rng.uniform(-2, 2))
        gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y, 3)
        for i, g in ((0, gx), (1, gy)):
            expected = autograd_grad(module.f, [x, y, 3], i)
            np.testing.assert_allclose(g, expected, rtol=1e-9, atol=1e-12)


# -- a tested value changed in place by its own branch ----------------------------------
# (the program, the same without writes in place for autograd); x has one element
IN_PLACE = {
    "item-write": (
        "m = x * 2.0\nif m:\n    m[0] = 0.0\nreturn np.sum(m * x) + np.sum(x * x)",
        "m = x * 2.0\nif m:\n    m = m * 0.0\nreturn np.sum(m * x) + np.sum(x * x)",
    ),
    "item-write-else": (
        "m = x * 3.0\nif m:\n    m[0] = m[0] * 3.0\nelse:\n    m[0] = x[0] * 5.0\n"
        "return np.sum(m * x)",
        "m = x * 3.0\nif m:\n    m = m * 3.0\nelse:\n    m = x * 5.0\nreturn np.sum(m * x)",
    ),
    "list-append": (
        "xs = []\nif xs:\n    xs.append(x)\nelse:\n    xs.append(x * 2.0)\nif xs:\n"
        "    xs.append(x * 3.0)\nreturn np.sum(xs[0] * xs[-1])",
        "return np.sum(x * 2.0 * x * 3.0)",
    ),
    "while-item-write": (
        "m = x * 1.0\nk = 0\nwhile m:\n    k = k + 1\n    m[0] = m[0] * 0.5 if k < 3 else 0.0\n"
        "return np.sum(m * x) + k * np.sum(x)",
        "m = x * 1.0\nk = 0\nwhile m:\n    k = k + 1\n    m = m * 0.5 if k < 3 else m * 0.0\n"
        "return np.sum(m * x) + k * np.sum(x)",
    ),
}


@pytest.mark.parametrize("case", sorted(IN_PLACE))
@pytest.mark.parametrize("x0", [0.0, 1.0, -2.5])
def test_a_test_changed_in_place_keeps_its_forward_value(tmp_path, case, x0):
    def function(body: str):
        text = "\n".join("    " + line for line in body.split("\n"))
        return load_module(tmp_path, f"import numpy as np\n\n\ndef f(x):\n{text}\n").f

    program, functional = (function(body) for body in IN_PLACE[case])
    x = np.array([x0])
    expected = autograd_grad(functional, [x], 0)
    np.testing.assert_allclose(tl.grad(program)(x), expected, rtol=1e-12)


SELF_COPIES = """
import numpy as np

def or_itself(x):
    x = x or x
    return x * 3.0

def and_itself(x, y):
    y = y and y
    x = x
    return np.sum(x * y)
"""


@pytest.mark.parametrize(("name", "args"), [("or_itself", [-1.1]), ("and_itself", [0.7, 1.3])])
def test_a_value_assigned_to_itself_keeps_its_adjoint(tmp_path, name, args):
    # `x = x or x` is `if x: x = x` in A-normal form: the copy's adjoint is the identity
    # (the fuzzer found a zero gradient there: the contribution was added, then reset)
    f = getattr(load_module(tmp_path, SELF_COPIES), name)
    for i in range(len(args)):
        g = tl.grad(f, wrt=i)(*args)
        expected = directional_fd(f, args, i, 1.0)
        assert np.isclose(g, expected), (g, expected)
        assert np.isclose(g, autograd_grad(f, args, i))
