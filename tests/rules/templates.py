"""Run derivative templates directly on values, apart from any transform.

`tangent_of(trule, args, tangents)` evaluates a forward (tangent) template and
`cotangents_of(rule, args, result, g)` a reverse one, each as a plain Python
function made from the template's body with `d[p]` replaced by variables. Tests
use them to check a rule's two forms against each other (the dot-product test
<u, J t> == <J^T u, t>) and against central differences, before any transform
is involved.
"""

from __future__ import annotations

import gast
import numpy as np

from tangentlike import runtime
from tangentlike.rules.tangent import TangentRule, without_zero_tangents
from tangentlike.rules.template import Rule
from tangentlike.syntax import nodes


class _DToNames(gast.NodeTransformer):
    """`d[p]` -> `_d_p` (loads and stores)."""

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if (
            isinstance(node.value, gast.Name)
            and node.value.id == "d"
            and isinstance(node.slice, gast.Name)
        ):
            return gast.Name(
                id=f"_d_{node.slice.id}", ctx=node.ctx, annotation=None, type_comment=None
            )
        self.generic_visit(node)
        return node


def _function(body, params, reads, returns, globals_):
    """A Python function of (result, *params, *[_d_ names read]) returning `returns`."""
    inputs = ["result", *params, *(f"_d_{p}" for p in reads)]
    stmts = [_DToNames().visit(nodes.deepcopy(s)) for s in body]
    init = [nodes.assign(f"_d_{p}", nodes.const(None)) for p in returns]
    out = nodes.tuple_([nodes.name(f"_d_{p}") for p in returns])
    fn = nodes.function_def(
        "template", nodes.arguments(inputs), [*init, *stmts, nodes.return_(out)]
    )
    module = gast.Module(body=[fn], type_ignores=[])
    code = compile(gast.gast_to_ast(gast.fix_missing_locations(module)), "<template>", "exec")
    namespace = {**globals_, "runtime": runtime, "np": np}
    exec(code, namespace)
    return namespace["template"]


def tangent_of(trule: TangentRule, args: dict, tangents: dict) -> object:
    """d[result] from the forward template, with `args` holding the parameters' values and
    `result`; the tangents of parameters not in `tangents` are zeros."""
    reads = sorted(trule.reads & set(tangents))
    body = without_zero_tangents(trule.body, frozenset(trule.reads - set(tangents)))
    fn = _function(body, trule.params, reads, ["result"], trule.globals)
    (out,) = fn(args["result"], *(args[p] for p in trule.params), *(tangents[p] for p in reads))
    return np.zeros_like(args["result"], dtype=float) if out is None else out


def cotangents_of(rule: Rule, args: dict, g: object, only: set[str] | None = None) -> dict:
    """{param: d[param]} from the reverse template (unbroadcast applied as the kind says),
    for the parameters in `only` (all by default): a contribution to another parameter is
    not computed, as at a call site where that parameter is not differentiated."""
    params = sorted(rule.differentiable if only is None else rule.differentiable & only)
    body = [s for s in rule.body if not _assigns_other(s, params)]
    fn = _function(body, rule.params, ["result"], params, rule.globals)
    outs = fn(args["result"], *(args[p] for p in rule.params), g)
    found = dict(zip(params, outs, strict=True))
    if rule.unbroadcast:
        found = {p: runtime.unbroadcast(v, args[p]) for p, v in found.items()}
    return found


def _assigns_other(stmt: gast.stmt, params: list[str]) -> bool:
    """A top-level `d[p] = ...` for a parameter p not in `params`."""
    return (
        isinstance(stmt, gast.Assign)
        and isinstance(stmt.targets[0], gast.Subscript)
        and isinstance(stmt.targets[0].value, gast.Name)
        and stmt.targets[0].value.id == "d"
        and isinstance(stmt.targets[0].slice, gast.Name)
        and stmt.targets[0].slice.id not in params
    )
