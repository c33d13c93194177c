"""emit/codegen.py: Python source of generated functions and values, parsing back to
what it came from."""

from __future__ import annotations

import math

import gast
import numpy as np
import pytest
from stages import code

from tangentlike.emit import codegen
from tangentlike.syntax import nodes


def _source(text: str) -> str:
    return codegen.function_source(gast.parse(code(text)).body[0], None)


def test_a_function_prints_as_written():
    text = """
    def f(x, *, k=2.0):
        y = x * k
        for i in range(3):
            y = y + i
        while y > 10.0:
            y = y / 2.0
        return y
    """
    assert _source(text) == code(text) + "\n"


def test_an_if_made_from_one_line_prints_as_elif():
    """The compiler's nested if of one source line (a lowered elif chain) is an elif; a
    user's if inside an else stays nested."""
    text = """
    def f(x):
        if x > 1.0:
            y = 1.0
        else:
            if x > 0.0:
                y = 2.0
            else:
                y = 3.0
        return y
    """
    fn = gast.parse(code(text)).body[0]
    assert codegen.function_source(fn, None) == code(text) + "\n"
    fn.body[0].orelse[0].lineno = fn.body[0].lineno
    assert (
        codegen.function_source(fn, None)
        == code(
            """
        def f(x):
            if x > 1.0:
                y = 1.0
            elif x > 0.0:
                y = 2.0
            else:
                y = 3.0
            return y
        """
        )
        + "\n"
    )


def test_a_string_with_a_newline_stays_on_one_line():
    fn = nodes.function_def("f", nodes.arguments([]), [nodes.return_(nodes.const("two\nlines"))])
    assert codegen.function_source(fn, None) == "def f():\n    return 'two\\nlines'\n"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (-1.5, "-1.5"),
        (3, "3"),
        (True, "True"),
        (None, "None"),
        ((1.0, -2.0), "1.0, -2.0"),  # a module constant: `C = 1.0, -2.0`
        ("a'b", '"""a\'b"""'),  # astor's choice of quotes
    ],
)
def test_values(value, text):
    assert codegen.value_source(value) == text


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e300, -0.0, 2 + 3j])
def test_special_numbers_parse_back_to_the_same_value(value):
    text = codegen.value_source(value)
    back = eval(text, {"inf": math.inf, "nan": math.nan, "float": float, "np": np})
    assert type(back) is type(value)
    assert (math.isnan(back.real) and math.isnan(value.real)) or (
        back == value and math.copysign(1, back.real) == math.copysign(1, value.real)
    )


def test_expressions():
    expr = gast.parse("np.sum(x[1:, 0] ** 2) - -1.0", mode="eval").body
    assert codegen.expr_source(expr) == "np.sum(x[1:, 0] ** 2) - -1.0"
