"""break, continue and return in loop `else` blocks, in all combinations: for-else and
while-else, inside another loop or not, with jumps in the loop body too. Gradients are
compared with autograd (the path Python takes) and central differences, at points on
both sides of every condition."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

OUTER = {
    "for": ["for i in range(n):"],
    "while": ["m = 0", "while m < n:", "    m = m + 1"],
    "none": [],
}
INNER = {
    "for": ["for j in range(2):"],
    "while": ["k = 0", "while k < 2:", "    k = k + 1"],
}
BODY = {
    "plain": ["s = s * 0.75 + x"],
    "break": ["s = s * 0.75 + x", "if s > 2.5:", "    break"],
    "continue": ["if s > 2.5:", "    continue", "s = s * 0.75 + x"],
    "return": ["s = s * 0.75 + x", "if s > 3.5:", "    return s * y"],
}
ELSE = {
    "return": ["return s * x"],
    "return-if": ["if x > 1.0:", "    return s * x", "s = s + y"],
    "break": ["s = s * y", "break"],
    "continue": ["if x > 1.0:", "    continue", "s = s * y"],
    "assign": ["s = s * y"],
    "loop-return": ["for q in range(2):", "    if s * q > 1.0:", "        return s * x * q"],
    "nested-else": ["for q in range(2):", "    s = s + y", "else:", "    return s * x"],
}


def _indent(lines: list[str], pad: str) -> list[str]:
    return [pad + line for line in lines]


def _source(outer: str, inner: str, body: str, orelse: str) -> str:
    lines = ["s = x * 1.0"]
    pad = ""
    head = OUTER[outer]
    if head:
        lines += head
        pad = "    "
    lines += _indent(INNER[inner], pad)
    lines += _indent(BODY[body], pad + "    ")
    lines += _indent(["else:"], pad)
    lines += _indent(ELSE[orelse], pad + "    ")
    if head:
        lines += _indent(["s = s + x * y"], pad)  # after the inner loop, in the outer one
    lines.append("return s")  # for over a list is a for over positions: the same lowering
    text = "\n".join("    " + line for line in lines)
    return f"import numpy as np\n\n\ndef f(x, y, n):\n{text}\n"


CASES = [
    case
    for case in itertools.product(OUTER, INNER, BODY, ELSE)
    if case[0] != "none" or case[3] not in ("break", "continue")  # jumps need a loop
]


@pytest.mark.parametrize("case", CASES, ids="-".join)
def test_jumps_in_loop_else(tmp_path, case):
    module = load_module(tmp_path, _source(*case))
    f = module.f
    df = tl.grad(f, wrt=(0, 1))
    for x, y in [(0.4, 0.7), (1.3, -0.6), (2.2, 0.9)]:
        gx, gy = df(x, y, 3)
        np.testing.assert_allclose(gx, autograd_grad(f, [x, y, 3], 0), rtol=1e-10)
        np.testing.assert_allclose(gy, autograd_grad(f, [x, y, 3], 1), rtol=1e-10)
        check_against_fd(f, gx, [x, y, 3], 0)


def test_return_in_for_else_runs_instead_of_the_rest():
    """The case that gave df = ds/dx: a return in a loop's else skipped nothing after it."""

    def f(x):
        s = 0.0
        for _ in range(2):
            s = s + x * 0.5
        else:
            if x > 1.0:
                return s * x
        return s

    df = tl.grad(f)
    assert df(2.0) == pytest.approx(4.0)
    assert df(0.5) == pytest.approx(1.0)


# a return inside a loop that sits in one or more `if`s of an outer loop: the outer loop
# must stop too (once lowered as a loop without jumps, with flags that had no names)
NESTED_RETURN = {
    "if": ["if x > 0.5:", "    {loop}"],
    "if-else": ["if x > 5.0:", "    s = s + y", "else:", "    {loop}"],
    "two-ifs": ["if x > 0.5:", "    if y > -5.0:", "        {loop}"],
}
INNER_RETURN = {
    "for": ["for j in range(n):", "    s = s * 0.75 + x * y", "    if s > 1.5:",
            "        return s * x"],
    "while": ["k = 0", "while k < n:", "    k = k + 1", "    s = s * 0.75 + x", "    if s > 1.5:",
              "        return s * y"],
}  # fmt: skip


def _nested_return_source(shape: str, inner: str) -> str:
    lines = ["s = x * 1.0", "for i in range(n):"]
    for line in NESTED_RETURN[shape]:
        if "{loop}" in line:
            pad = line[: line.index("{loop}")]
            lines += ["    " + pad + inner_line for inner_line in INNER_RETURN[inner]]
        else:
            lines.append("    " + line)
    lines += ["    s = s + x * y", "return s"]
    body = "\n".join("    " + line for line in lines)
    return f"import numpy as np\n\n\ndef f(x, y, n):\n{body}\n"


@pytest.mark.parametrize("inner", INNER_RETURN)
@pytest.mark.parametrize("shape", NESTED_RETURN)
def test_return_in_a_loop_inside_ifs_of_an_outer_loop(tmp_path, shape, inner):
    f = load_module(tmp_path, _nested_return_source(shape, inner)).f
    df = tl.grad(f, wrt=(0, 1))
    for x, y in [(0.4, 0.7), (1.3, -0.6), (2.2, 0.9), (0.9, 0.2)]:
        gx, gy = df(x, y, 3)
        np.testing.assert_allclose(gx, autograd_grad(f, [x, y, 3], 0), rtol=1e-10)
        np.testing.assert_allclose(gy, autograd_grad(f, [x, y, 3], 1), rtol=1e-10)
        check_against_fd(f, gx, [x, y, 3], 0)
