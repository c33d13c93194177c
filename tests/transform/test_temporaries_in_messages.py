"""Refusals of calls that change an argument in place name the argument as the user wrote
it (`h(z[1:3])`, `` `z[1:3]` ``), never the compiler's temporary for it (`_t3`), in the
message and in the hint (holdout12 / fuzz seed 0 program 943: "h1(_tuple15) changes its
parameter 'q' ... the gradient reads '_tuple15'")."""

from __future__ import annotations

import re

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError
from tangentlike.normalize.helper_calls import MAX_INLINED

# helpers that change a parameter are inlined up to MAX_INLINED calls per function: the
# calls on `w` use that budget, so the last call stays a call
_SPENT = "".join(f"    t{k} = {{helper}}(w)\n" for k in range(MAX_INLINED))

SOURCE = f"""
import numpy as np


def halve(q):
    for i in range(2):
        q /= 0.5
    return 1.0


def bump(v):
    v += 1.0
    return np.sum(v)


def read_before(x):
    z = x * 1.0
    r = np.sum(z * z)
    w = np.zeros(2)
{_SPENT.format(helper="halve")}    t = halve(z[1:3])
    return r


def read_after(x):
    w = np.zeros(2)
{_SPENT.format(helper="bump")}    y = x * 2.0
    s = bump(y[1:])
    return s * np.sum(y)


def read_after_either(x):
    w = np.zeros(2)
{_SPENT.format(helper="bump")}    y = x * 2.0
    s = bump(y[1:] * 1.0 if x[0] > 5.0 else y[1:])
    return s * np.sum(y)
"""

TEMPORARY = re.compile(r"\b_[A-Za-z]+\d+\b")


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("temporaries"), SOURCE, "tl_temporaries")


def test_a_call_that_changes_an_expression_the_gradient_read_before(m):
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(m.read_before)(np.array([0.1, 0.2, 0.3]))
    message = str(err.value)
    assert TEMPORARY.search(message) is None, message
    assert "halve(z[1:3]) changes its parameter 'q' in place" in message, message
    assert "the gradient reads `z[1:3]` as it was before this call" in message, message
    assert "pass a copy (z[1:3].copy())" in message, message
    assert err.value.location.text.strip() == "t = halve(z[1:3])"


@pytest.mark.parametrize(
    "name, call", [("read_after", "bump(y[1:])"), ("read_after_either", "bump(...)")]
)
def test_a_call_that_changes_an_expression_read_afterwards(m, name, call):
    """Checked at run time (the argument may be a new array); an expression bound on two
    paths (a conditional expression) is not spelled out, and never named by its temporary."""
    with pytest.raises(CheckError) as err:
        tl.grad(getattr(m, name))(np.array([0.1, 0.2, 0.3]))
    message = str(err.value)
    assert TEMPORARY.search(message) is None, message
    assert f"{call} changes its parameter 'v' in place" in message, message
    assert "'y', sharing its memory, is read afterwards" in message, message
