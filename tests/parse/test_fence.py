"""parse/fence.py: constructs the pipeline does not handle are refused before any
transformation, at their line and column, saying what to write instead."""

from __future__ import annotations

import pytest
from stages import prepare

from tangentlike.errors import UnsupportedSyntaxError

REFUSED = [
    ("y = yield x", "`yield`", "return a value"),
    ("try:\n        y = x\n    except ValueError:\n        y = 0.0", "`try`", "try/except"),
    ("global G\n    y = x", "`global`", "as an argument"),
    ("del x\n    y = 1.0", "`del`", "remove"),
    ("y = {x}", "a set literal", "list or an array"),
    ("y = {v for v in x}", "a set comprehension", "as a loop"),
    ("y = (z := x)", "walrus", "its own statement"),
    ("import math\n    y = x", "`import`", "module level"),
    ("match x:\n        case 1:\n            y = x", "`match`", "if/elif"),
    ("class C:\n        pass\n    y = x", "a class definition", "outside the function"),
    ("y = [*x]", "star-unpacking", "one by one"),
]


@pytest.mark.parametrize(("statement", "what", "hint"), REFUSED, ids=[r[1] for r in REFUSED])
def test_refused_constructs_are_located(tmp_path, statement, what, hint):
    with pytest.raises(UnsupportedSyntaxError) as err:
        prepare(tmp_path, f"def f(x):\n    {statement}\n    return y\n")
    assert what in err.value.message and "is not supported yet (in f)" in err.value.message
    assert hint in err.value.hint and err.value.location.line == 7


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("def f(x):\n    y = x\n", "a function without `return`"),
        ("def f(x):\n    if x > 0:\n        return\n    return x\n", "a `return` without"),
    ],
)
def test_a_function_must_return_a_value(tmp_path, source, what):
    with pytest.raises(UnsupportedSyntaxError, match=what):
        prepare(tmp_path, source)


def test_allowed_constructs_pass(tmp_path):
    source = """
def f(x, n):
    s = 0.0
    for i in range(n):
        if i > 2 and x > 0:
            continue
        s += x * i if i else -x
    while s > 10.0:
        s = s / 2.0
    g = lambda z: z * 2.0
    assert n >= 0
    return g(s) + sum([v for v in (x, s)]) + len(f"{n}")
"""
    prepare(tmp_path, source)  # no error
