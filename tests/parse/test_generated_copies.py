"""parse/generated.py: a generated module's copy of a runtime helper is that helper, also
when the module renamed it (`unappend_2`: its own name was taken there, as in a third
derivative's module); a function of another body is never matched."""

from __future__ import annotations

import types

import tangentlike as tl
from tangentlike import runtime
from tangentlike.parse.generated import runtime_helper


def appends(t):
    xs = []
    for i in range(3):
        xs.append(t ** (i + 1))
    return sum(xs) * t


def _copied_unappend() -> types.FunctionType:
    """The copy of runtime.unappend a generated gradient carries."""
    gradient = tl.grad(appends)
    return gradient.__tangentlike_live__.generated.__globals__["unappend"]


def _renamed(f: types.FunctionType, name: str) -> types.FunctionType:
    code = f.__code__.replace(co_name=name, co_qualname=name)
    renamed = types.FunctionType(code, f.__globals__, name, f.__defaults__, f.__closure__)
    renamed.__qualname__ = name
    return renamed


def test_a_copy_is_the_helper():
    copy = _copied_unappend()
    assert copy is not runtime.unappend
    assert runtime_helper(copy) is runtime.unappend


def test_a_renamed_copy_is_the_helper():
    assert runtime_helper(_renamed(_copied_unappend(), "unappend_2")) is runtime.unappend


def test_another_name_or_body_is_not():
    assert runtime_helper(_renamed(_copied_unappend(), "unappend_x")) is None
    assert runtime_helper(_renamed(_copied_unappend(), "unappend_2_b")) is None
    assert runtime_helper(_renamed(appends, "unappend_2")) is None
