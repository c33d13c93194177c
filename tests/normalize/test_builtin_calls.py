"""normalize/builtin_calls.py: builtins of several arguments in the one form their rule
takes; the operator module's arithmetic functions as the operators they are."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module
from stages import body, prepare

import tangentlike as tl
from tangentlike.normalize import builtin_calls

IMPORTS = "import math\nimport operator\nfrom operator import mul\n\n"


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("max(x, y, 1.0)", "max((x, y, 1.0))"),
        ("min(x, y)", "min((x, y))"),
        ("math.hypot(x, y, 2.0)", "math.hypot(math.hypot(x, y), 2.0)"),
        ("operator.add(x, y)", "x + y"),
        ("mul(x, operator.sub(y, 1.0))", "x * (y - 1.0)"),
        ("operator.truediv(x, operator.pow(y, 2))", "x / y ** 2"),
        ("operator.mod(operator.floordiv(x, 2.0), y)", "x // 2.0 % y"),
        ("operator.neg(operator.pos(x))", "-+x"),
        ("operator.matmul(x, y)", "x @ y"),
        ("operator.add(x)", "operator.add(x)"),  # wrong arity: left for Python to refuse
        ("operator.eq(x, y)", "operator.eq(x, y)"),  # not arithmetic: its own rules or refusal
        ("max(x, y, key=abs)", "max(x, y, key=abs)"),
    ],
)
def test_one_form(tmp_path, expression, expected):
    stage = prepare(tmp_path, f"{IMPORTS}def f(x, y):\n    return {expression}\n")
    builtin_calls.run(stage.fn, stage.scope)
    assert body(stage.fn) == f"return {expected}"


SOURCE = (
    IMPORTS
    + """
import numpy as np

def f(x, y):
    a = operator.add(x, y)
    b = mul(a, operator.neg(y))
    c = operator.truediv(b, operator.pow(x, 2.0))
    d = operator.matmul(np.outer(x, y), y)
    return np.sum(operator.sub(c, operator.mod(x, 1.5)) + d) - operator.neg(x[0])
"""
)


def test_operator_functions_are_differentiated_as_operators(tmp_path):
    m = load_module(tmp_path, SOURCE)
    x, y = np.array([0.3, 0.9, 1.2]), np.array([1.1, -0.4, 0.7])
    gx, gy = tl.grad(m.f, wrt=(0, 1))(x, y)
    check_against_fd(m.f, gx, (x, y), 0)
    check_against_fd(m.f, gy, (x, y), 1)
    np.testing.assert_allclose(gx, autograd_grad(m.f, (x, y), 0), rtol=1e-10)
    np.testing.assert_allclose(gy, autograd_grad(m.f, (x, y), 1), rtol=1e-10)
    generated = tl.grad(m.f, wrt=(0, 1)).source.split("def df")[1]
    assert not [line for line in generated.splitlines() if "operator" in line.split("#")[0]]
    jvp = tl.jvp(m.f)(x, y, np.ones(3))
    np.testing.assert_allclose(jvp[1], np.sum(gx), rtol=1e-10)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("np.einsum(x, [0, 1], y, [1, 2], [0, 2])", "np.einsum('ab,bc->ac', x, y)"),
        ("np.einsum(x, [0, 1], y, [1, 2])", "np.einsum('ab,bc', x, y)"),
        ("np.einsum(x, [..., 0], [...])", "np.einsum('...a->...', x)"),
        ("np.einsum(x, (27, 1), [1])", "np.einsum('Bb->b', x)"),
        ("np.einsum('ij->i', x)", "np.einsum('ij->i', x)"),
        ("np.einsum(x, [0, n], [0])", "np.einsum(x, [0, n], [0])"),  # not literal: as written
    ],
)
def test_einsum_sublists_become_subscripts(tmp_path, expression, expected):
    stage = prepare(tmp_path, f"def f(x, y, n):\n    return {expression}\n")
    builtin_calls.run(stage.fn, stage.scope)
    assert body(stage.fn) == f"return {expected}"


def test_einsum_in_sublist_form_is_differentiated(tmp_path):
    source = "import numpy as np\n\ndef f(x, y):\n"
    source += "    return np.sum(np.einsum(x, [0, 1], y, [1, 2], [0, 2]) ** 2)\n"
    m = load_module(tmp_path, source)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    gx, gy = tl.grad(m.f, wrt=(0, 1))(x, y)
    np.testing.assert_allclose(gx, autograd_grad(m.f, (x, y), 0), rtol=1e-10)
    np.testing.assert_allclose(gy, autograd_grad(m.f, (x, y), 1), rtol=1e-10)
    check_against_fd(m.f, gx, (x, y), 0)
