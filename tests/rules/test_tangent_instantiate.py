"""instantiate_tangent: a rule's forward form filled in at one call site (what a forward
transform emits), as compact source."""

from __future__ import annotations

import ast

import gast
import numpy as np
import pytest

from tangentlike.rules.instantiate import bind_arguments
from tangentlike.rules.registry import default_registry
from tangentlike.rules.tangent import instantiate_tangent
from tangentlike.syntax import nodes
from tangentlike.syntax.names import Namer
from tangentlike.syntax.namespace import Namespace


def _source(stmts: list[gast.stmt]) -> str:
    module = gast.Module(body=[nodes.deepcopy(s) for s in stmts], type_ignores=[])
    for node in gast.walk(module):
        for attr in ("lineno", "end_lineno", "col_offset", "end_col_offset"):
            if getattr(node, attr, 0) is None:
                delattr(node, attr)
    return ast.unparse(ast.fix_missing_locations(gast.gast_to_ast(module)))


def _instantiate(primal: object, expr: str, tangents: dict[str, str]) -> str:
    registry = default_registry()
    call = gast.parse(expr, mode="eval").body
    if isinstance(call, gast.BinOp):
        args, keywords = [call.left, call.right], {}
    else:
        args, keywords = list(call.args), {k.arg: k.value for k in call.keywords}
    rule, trule = registry.lookup(primal), registry.lookup_tangent(primal)
    bound = bind_arguments(rule, args, keywords)
    stmts = instantiate_tangent(trule, bound, nodes.name("r"), "dr", tangents, Namer(), Namespace())
    return _source(stmts)


@pytest.mark.parametrize(
    "primal, expr, tangents, expected",
    [
        (np.sum, "np.sum(x, axis=1)", {"a": "dx"}, "dr = np.sum(dx, axis=1, keepdims=False)"),
        (
            np.max,
            "np.max(x, axis=1)",
            {"a": "dx"},
            "_hit1 = x == np.expand_dims(r, 1)\n"
            "dr = np.sum(_hit1 / np.sum(_hit1, axis=1, keepdims=True) * dx, axis=1, "
            "keepdims=False)",
        ),
        (gast.Mult, "x * y", {"x": "dx"}, "dr = dx * y"),
        (gast.Mult, "x * y", {"x": "dx", "y": "dy"}, "dr = dx * y + dy * x"),
        (np.matmul, "np.matmul(a, b)", {"x2": "db"}, "dr = np.matmul(a, db)"),
        (np.where, "np.where(c, x, y)", {"x": "dx"}, "dr = np.where(c, dx, np.zeros_like(y))"),
        (np.reshape, "np.reshape(x, (3, 2))", {"a": "dx"}, "dr = np.reshape(dx, (3, 2), 'C')"),
        (np.sin, "np.sin(x)", {}, "dr = None"),
    ],
)
def test_a_forward_form_at_a_call_site(primal, expr, tangents, expected):
    assert _instantiate(primal, expr, tangents) == expected


def test_tangent_names_never_meet_parameter_names():
    # np.trapezoid has a parameter named dx: a tangent named dx must not be taken for it
    out = _instantiate(np.trapezoid, "np.trapezoid(y, x, dx=0.5)", {"y": "dx"})
    assert out == "dr = np.trapezoid(dx, x, 0.5, -1)"
