"""Registering forward forms: validation at registration, derivation, zero tangents."""

from __future__ import annotations

import gast
import numpy as np
import pytest

from tangentlike.errors import RuleError
from tangentlike.rules.registry import Registry
from tangentlike.rules.tangent import NoForwardFormError, without_zero_tangents
from tangentlike.rules.template import d
from tangentlike.syntax import quote


def my_op(x, y):
    return x * np.exp(y)


def _registry() -> Registry:
    registry = Registry()

    @registry.adjoint(my_op, origin="user")
    def my_op_adjoint(result, x, y):
        d[x] = d[result] * np.exp(y)
        d[y] = d[result] * result

    return registry


def test_a_tangent_template_is_registered_beside_its_reverse_rule():
    registry = _registry()

    @registry.tangent(my_op, origin="user")
    def my_op_tangent(result, x, y):
        d[result] = d[x] * np.exp(y) + d[y] * result

    found = registry.lookup_tangent(my_op)
    assert found.reads == {"x", "y"} and not found.derived


def test_a_tangent_before_its_reverse_rule_is_refused():
    with pytest.raises(RuleError, match="register the reverse rule"):

        @Registry().tangent(my_op, origin="user")
        def early(result, x, y):
            d[result] = d[x]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("d[x] = d[result]", "assigns d\\[result\\] only"),
        ("d[result] = d[z]", "d\\[z\\] is not a parameter"),
        ("x = 2.0\n    d[result] = d[x]", "must not assign parameter 'x'"),
        ("t = d[x]", "must assign d\\[result\\]"),
    ],
)
def test_malformed_tangent_templates_are_refused_at_registration(tmp_path, body, message):
    from reference import load_module

    module = load_module(
        tmp_path,
        f"from tangentlike import d\n\n\ndef bad(result, x, y):\n    {body}\n",
    )
    registry = _registry()
    with pytest.raises(RuleError, match=message):
        registry.tangent(my_op, origin="user")(module.bad)


def test_a_template_with_other_parameters_is_refused():
    registry = _registry()
    with pytest.raises(RuleError, match="parameters must be those of its reverse rule"):

        @registry.tangent(my_op, origin="user")
        def wrong(result, x):
            d[result] = d[x]


def test_a_new_reverse_rule_drops_the_old_forward_form():
    registry = _registry()

    @registry.tangent(my_op, origin="user")
    def my_op_tangent(result, x, y):
        d[result] = d[x] * np.exp(y) + d[y] * result

    _registry_add_again = registry.adjoint(my_op, origin="user")

    @_registry_add_again
    def again(result, x, y):
        d[x] = d[result]
        d[y] = d[result]

    with pytest.raises(NoForwardFormError):  # no drift: the old template is gone
        registry.lookup_tangent(my_op)


def test_an_elementwise_rule_derives_its_forward_form():
    registry = Registry()
    registry.expressions(
        my_op,
        ("x", "y"),
        {"x": "g * np.exp(y)", "y": "g * result"},
        unbroadcast=True,
        globals_={"np": np},
    )
    found = registry.lookup_tangent(my_op)
    import ast

    assert found.derived
    text = ast.unparse(gast.gast_to_ast(gast.fix_missing_locations(found.body[0])))
    assert text == "d[result] = d[x] * np.exp(y) + d[y] * result"


def _body(source: str):
    return tuple(quote.gast.parse(source).body)


@pytest.mark.parametrize(
    ("source", "zero", "expected"),
    [
        ("d[result] = d[x] * a + d[y] * np.log(b)", {"y"}, "d[result] = d[x] * a"),
        ("d[result] = d[x] * a - d[y] * b", {"x"}, "d[result] = -(d[y] * b)"),
        ("d[result] = d[x] * a + d[y] * b", {"x", "y"}, "d[result] = None"),
        ("t = d[y] * b\nd[result] = d[x] + t", {"y"}, "d[result] = d[x]"),
        (
            "d[result] = np.where(c, d[x], d[y])",
            {"y"},
            "d[result] = np.where(c, d[x], np.zeros_like(y))",
        ),
        ("d[result] = np.sum(d[x], axis=0)", set(), "d[result] = np.sum(d[x], axis=0)"),
    ],
)
def test_terms_of_zero_tangents_are_dropped(source, zero, expected):
    import ast

    out = without_zero_tangents(_body(source), frozenset(zero))
    text = "\n".join(ast.unparse(gast.gast_to_ast(s)) for s in out)
    assert text == expected
