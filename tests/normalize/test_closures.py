"""normalize/closures.py: nested functions and named lambdas checked, then collected
out of the body (normalize/closure_calls.py inlines them at their calls)."""

from __future__ import annotations

import pytest
from stages import prepare

from tangentlike.emit import codegen
from tangentlike.errors import UnsupportedSyntaxError
from tangentlike.normalize import closures
from tangentlike.syntax import nodes

SOURCE = """
def f(x, a):
    def g(z, k=2.0):
        return z * a * k

    h = lambda w: w + 1.0
    return g(x) + h(x)
"""


def test_nested_functions_and_named_lambdas_are_collected(tmp_path):
    stage = prepare(tmp_path, SOURCE)
    closures.check(stage.parsed, stage.fn)
    found = closures.collect(stage.parsed, stage.fn, stage.namer)
    assert stage.body() == "return g(x) + h(x)"
    assert found.names == {"g", "h"}
    assert nodes.param_names(found.by_name["h"].node) == ["w"]
    g = found.by_name["g"]
    assert list(g.signature.parameters) == ["z", "k"]
    assert codegen.expr_source(g.defaults["k"]) == "2.0"  # a literal default stays a literal


def test_free_and_bound_names(tmp_path):
    stage = prepare(tmp_path, SOURCE)
    g = next(s for s in stage.fn.body if getattr(s, "name", "") == "g")
    assert closures.free_names(g) == {"a"}
    assert closures.function_locals(stage.fn) >= {"x", "a", "g", "h"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("def g(z):\n        return z\n    return g", "as a value"),
        ("y = g(x)\n    def g(z):\n        return z\n    return y", "before"),
        ("k = lambda z: z\n    k = 2.0\n    return x", "assigned"),
    ],
)
def test_closures_used_otherwise_than_called_are_refused(tmp_path, body, words):
    stage = prepare(tmp_path, f"def f(x):\n    {body}\n")
    with pytest.raises(UnsupportedSyntaxError, match=words) as err:
        closures.check(stage.parsed, stage.fn)
    assert err.value.location is not None
