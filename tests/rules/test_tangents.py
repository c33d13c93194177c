"""Every rule's forward form against its reverse form and against central differences.

For each case of cases.py whose expression is one rule applied to the case's
inputs (`np.sin(x)`, `x * y`, `np.sum(x, axis=1)`), the rule's tangent template
(or the one derived from an elementwise rule) is run directly, apart from any
transform, and must satisfy <u, J t> == <J^T u, t> with the reverse template,
and J t == (f(a + eps t) - f(a - eps t)) / (2 eps). A coverage guard lists the
rules that have a forward form but no such case.
"""

from __future__ import annotations

import gast
import numpy as np
import pytest
from cases import CASES, Case
from templates import cotangents_of, tangent_of
from test_table import _inputs, _namespace

from tangentlike.rules import forward_interim
from tangentlike.rules.registry import default_registry
from tangentlike.rules.template import BindError, bind_arguments


def _evaluate(node: gast.expr, env: dict) -> object:
    expr = gast.gast_to_ast(gast.Expression(body=node))
    return eval(compile(gast.fix_missing_locations(expr), "<case>", "eval"), env)


def _application(case: Case):
    """(rule, tangent rule, {param: argument node}) when the case is one rule applied."""
    registry = default_registry()
    node = gast.parse(case.expr, mode="eval").body
    if isinstance(node, gast.BinOp):
        primal, args, keywords = type(node.op), [node.left, node.right], {}
    elif isinstance(node, gast.UnaryOp):
        primal, args, keywords = type(node.op), [node.operand], {}
    elif isinstance(node, gast.Call):
        try:
            primal = _evaluate(node.func, _namespace())
        except (NameError, AttributeError):
            return None
        args, keywords = list(node.args), {k.arg: k.value for k in node.keywords}
    else:
        return None
    rule, trule = registry.lookup(primal), registry.lookup_tangent(primal)
    if rule is None or trule is None or any(isinstance(a, gast.Starred) for a in args):
        return None
    try:
        bound = bind_arguments(rule, args, keywords)
    except BindError:
        return None
    return rule, trule, bound


SINGLE = [c for c in CASES if _application(c) is not None]


@pytest.mark.parametrize("case", SINGLE, ids=lambda c: c.id)
def test_forward_form_agrees_with_reverse_form_and_differences(case: Case):
    rule, trule, bound = _application(case)
    names = [a for a in ("x", "y", "z") if a in case.shapes]
    env = {**_namespace(), **dict(zip(names, _inputs(case, np.float64), strict=True))}
    args = {p: _evaluate(node, env) for p, node in bound.items()}
    args["result"] = eval(case.expr, env)
    # tangents belong to the case's inputs: a parameter bound to input n gets n's tangent
    rng = np.random.RandomState(11)
    direction = {n: _like(rng, env[n]) for n in names}
    active = [
        p
        for p in sorted(trule.reads & rule.differentiable)
        if isinstance(bound[p], gast.Name) and bound[p].id in direction
    ]
    if any(
        {n.id for n in gast.walk(bound[p]) if isinstance(n, gast.Name)} & set(names)
        for p in rule.differentiable - set(active)
    ):
        pytest.skip("an input reaches the rule through an expression, not by name")
    tangents = {p: direction[bound[p].id] for p in active}
    jt = np.asarray(tangent_of(trule, args, tangents), dtype=float)
    assert jt.shape == np.shape(args["result"]), case.id

    u = rng.standard_normal(np.shape(args["result"]))
    cotangents = cotangents_of(rule, args, u)
    forward = float(np.sum(u * jt))
    reverse = sum(float(np.sum(cotangents[p] * tangents[p])) for p in active)
    assert np.isclose(forward, reverse, rtol=1e-9, atol=1e-9), (forward, reverse)

    eps = 1e-6
    up = {**env, **{n: env[n] + eps * direction[n] for n in names}}
    down = {**env, **{n: env[n] - eps * direction[n] for n in names}}
    fd = (np.asarray(eval(case.expr, up)) - np.asarray(eval(case.expr, down))) / (2 * eps)
    np.testing.assert_allclose(jt, fd, rtol=1e-5, atol=1e-6)


def _like(rng, value):
    return rng.standard_normal(np.shape(value)) if np.ndim(value) else float(rng.standard_normal())


def test_every_forward_form_has_a_case():
    registry = default_registry()
    covered = {_application(c)[0].primal for c in SINGLE}
    with_forward = [
        r for r in registry.rules() if r.origin == "builtin" and registry.lookup_tangent(r.primal)
    ]
    elsewhere = forward_interim.CONTAINER_RESULTS  # container results: tests/forward
    missing = sorted(
        r.name for r in with_forward if r.primal not in covered and r.primal not in elsewhere
    )
    assert not missing, f"forward forms without a single-application case: {missing}"
