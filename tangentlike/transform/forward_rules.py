"""A rule's forward form filled in at one call site (one direction, or k at once).

Assumes: a tangent template (rules/tangent.py) is linear in the `d[p]` it reads, so
the terms of inputs with a zero tangent are dropped (`without_zero_tangents`).
Guarantees: the statements assign the target's tangent name, read the tangents
given for the parameters, and name template temporaries with fresh names.

Vector mode (a leading axis of k directions on every tangent): a form derived from
an elementwise rule reads each tangent lifted (`runtime.forward.lift`: axes inserted
after the leading one so it broadcasts against the result like its value does), so
one statement serves every direction. Any other form runs once per direction (a loop
over k, the directions stacked): right for every rule, whatever its axes mean.
"""

from __future__ import annotations

from collections.abc import Callable

import gast
import numpy as np

from ..rules.instantiate import LiteralPowerSlope, fold_static_ifs, global_name, runtime_helper
from ..rules.tangent import TangentRule, tangent_from_function, without_zero_tangents
from ..runtime import forward as fw
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk


def instantiate(
    rule: TangentRule,
    bindings: dict[str, gast.expr],
    tangents: dict[str, gast.expr],
    result: str,
    target: str,
    namer: Namer,
    namespace: Namespace,
    width: str | None = None,
) -> list[gast.stmt] | None:
    """The statements assigning `target`, the tangent of `result = rule(bindings)`;
    `tangents` holds the tangent expression of each parameter whose tangent is not
    zero. None when the tangent is zero as a whole. `width`: the name holding k in
    vector mode."""
    zero = frozenset(p for p in rule.params if p not in tangents)
    body = without_zero_tangents(rule.body, zero)
    if _zero_result(body):
        return None
    bindings = {
        p: _literal_or_global(e, f"{rule.name}_{p}", namer, namespace) for p, e in bindings.items()
    }
    if width is None:
        if zero:
            body = _shaped_like_result(body, namespace, namer)
        return _fill(
            rule, body, bindings, tangents, result, nodes.name(target, store=True), namer, namespace
        )
    vector = vector_form(rule)
    if vector is not None:
        body = without_zero_tangents(vector.body, zero)
        return _fill(
            vector,
            body,
            bindings,
            tangents,
            result,
            nodes.name(target, store=True),
            namer,
            namespace,
        )
    if zero:
        shaped = fw.tangent_as_k if rule.kind == "elementwise" else fw.tangent_as
        body = _shaped_like_result(body, namespace, namer, shaped)
    if rule.kind == "elementwise":  # one statement per element: broadcasting serves k
        lift = nodes.name(namespace.bind("lift", fw.lift, namer))
        lifted = {p: nodes.call(lift, [t, nodes.name(result)]) for p, t in tangents.items()}
        filled = _fill(
            rule, body, bindings, lifted, result, nodes.name(target, store=True), namer, namespace
        )
        if not zero:
            return filled
        shaped = namespace.bind("tangent_as_k", fw.tangent_as_k, namer)
        return [_unlifted(stmt, shaped, lift.id) for stmt in filled]
    return _per_direction(rule, body, bindings, tangents, result, target, namer, namespace, width)


def vector_form(rule: TangentRule) -> TangentRule | None:
    """The k-wide form of a reduction or a matrix product (its axes moved one along,
    the directions first), or None: the rule then runs once per direction."""
    from ..rules.registry import default_registry  # only these primals, by identity

    template = _VECTOR_FORMS.get(rule.primal)
    if template is None or rule.origin != "builtin":  # a user's rule keeps its own form
        return None
    reverse = default_registry().lookup(rule.primal)
    if template is None or reverse is None or reverse.params != rule.params:
        return None
    return tangent_from_function(reverse, template, origin="builtin")


def _vector_sum(
    result, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True
):
    if where is True:  # `initial` is a constant: no tangent
        d[result] = np.sum(d[a], axis=shifted_axis(axis, a), dtype=dtype, keepdims=keepdims)
    else:  # the mask broadcasts against a's axes, the directions first
        d[result] = np.sum(
            d[a], axis=shifted_axis(axis, a), dtype=dtype, keepdims=keepdims, where=where
        )


def _vector_mean(result, a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    if where is True:
        d[result] = np.mean(d[a], axis=shifted_axis(axis, a), dtype=dtype, keepdims=keepdims)
    else:
        d[result] = np.mean(
            d[a], axis=shifted_axis(axis, a), dtype=dtype, keepdims=keepdims, where=where
        )


def _vector_matmul_op(result, x, y):
    d[result] = matmul_left(d[x], y, result) + matmul_right(x, d[y], result)


def _vector_matmul(result, x1, x2):
    d[result] = matmul_left(d[x1], x2, result) + matmul_right(x1, d[x2], result)


class _NoD:
    """`d` in the templates above: they are read as source, never run."""

    def __getitem__(self, key: object) -> object:
        raise RuntimeError("a template is read as source, never called")

    def __setitem__(self, key: object, value: object) -> None:
        raise RuntimeError("a template is read as source, never called")


d = _NoD()
shifted_axis, matmul_left, matmul_right = fw.shifted_axis, fw.matmul_left, fw.matmul_right
_VECTOR_FORMS = {
    np.sum: _vector_sum,
    np.mean: _vector_mean,
    gast.MatMult: _vector_matmul_op,
    np.matmul: _vector_matmul,
}


def _per_direction(rule, body, bindings, tangents, result, target, namer, namespace, width):
    """for _j in range(k): <the form on direction _j>; the directions stacked."""
    parts, j, one = (
        namer.temp("d" + result.lstrip("_")),
        namer.temp("j"),
        namer.temp("d" + result.lstrip("_")),
    )
    direction = nodes.name(namespace.bind("direction", fw.direction, namer))
    picked = {
        p: nodes.call(nodes.deepcopy(direction), [t, nodes.name(j)]) for p, t in tangents.items()
    }
    inner = _fill(
        rule, body, bindings, picked, result, nodes.name(one, store=True), namer, namespace
    )
    append = nodes.attribute(nodes.name(parts), "append")
    inner.append(nodes.expr_stmt(nodes.call(append, [nodes.name(one)])))
    range_ = nodes.name(namespace.bind("range", range, namer))
    stacked = nodes.name(namespace.bind("stacked", fw.stacked, namer))
    return [
        nodes.assign(parts, gast.List(elts=[], ctx=gast.Load())),
        nodes.for_(j, nodes.call(range_, [nodes.name(width)]), inner),
        nodes.assign(target, nodes.call(stacked, [nodes.name(parts)])),
    ]


def _shaped_like_result(
    body: list[gast.stmt], namespace: Namespace, namer: Namer, shaped: Callable = fw.tangent_as
) -> list[gast.stmt]:
    """`d[result] = d[p]` (or `-d[p]`) left after zero terms were dropped: a sum with a
    constant operand, whose result may be larger than p (broadcasting). The tangent is
    shaped like the result (runtime.forward.tangent_as; in vector mode tangent_as_k, the
    k directions first), so that reading part of it (`M[1]`) reads the result's part,
    not p's. Other statements are unchanged."""
    out = []
    for stmt in body:
        value = stmt.value if isinstance(stmt, gast.Assign) else None
        bare = value.operand if isinstance(value, gast.UnaryOp) else value
        if (
            isinstance(stmt, gast.Assign)
            and len(stmt.targets) == 1
            and _reads_d(stmt.targets[0], "result")
            and _reads_d(bare, None)
        ):
            helper = nodes.name(namespace.bind(shaped.__name__, shaped, namer))
            call = nodes.call(helper, [value, nodes.name("result")])
            stmt = nodes.assign(stmt.targets[0], call)
        out.append(stmt)
    return out


def _unlifted(stmt: gast.stmt, shaped: str, lift: str) -> gast.stmt:
    """`tangent_as_k(lift(t, r), r)` written `tangent_as_k(t, r)`: it lifts t itself
    (`shaped` and `lift`: the module's names of the two helpers)."""
    for node in walk(stmt):
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Name)
            and node.func.id == shaped
            and node.args
            and isinstance(node.args[0], gast.Call)
            and isinstance(node.args[0].func, gast.Name)
            and node.args[0].func.id == lift
        ):
            node.args[0] = node.args[0].args[0]
    return stmt


def _reads_d(node: gast.AST | None, name: str | None) -> bool:
    """`d[name]` (any name for None)."""
    return (
        isinstance(node, gast.Subscript)
        and isinstance(node.value, gast.Name)
        and node.value.id == "d"
        and isinstance(node.slice, gast.Name)
        and (name is None or node.slice.id == name)
    )


def _fill(rule, body, bindings, tangents, result, target, namer, namespace) -> list[gast.stmt]:
    locals_ = sorted(
        {
            n.id
            for stmt in body
            for n in walk(stmt)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)
        }
    )
    renames = {name: namer.temp(name) for name in locals_}
    filler = _Fill(rule, bindings, tangents, result, target, renames, namer, namespace)
    out: list[gast.stmt] = []
    for stmt in body:
        stmt = LiteralPowerSlope(bindings).visit(nodes.deepcopy(stmt))  # as reverse mode
        stmt = filler.visit(stmt)
        for node in walk(stmt):  # positions in the rule file mean nothing here
            if hasattr(node, "lineno"):
                node.lineno = node.end_lineno = None
        out.extend(_Tidy().visit(s) for s in fold_static_ifs([stmt]))
    return out


def _zero_result(body: list[gast.stmt]) -> bool:
    return any(
        isinstance(s, gast.Assign)
        and _is_d(s.targets[0])
        and isinstance(s.value, gast.Constant)
        and s.value.value is None
        for s in body
    )


def _literal_or_global(expr: gast.expr, preferred: str, namer: Namer, namespace: Namespace):
    """A default that is no literal (`dtype=np.float32`) becomes a module global."""
    if isinstance(expr, gast.Constant) and not nodes.is_literal(expr.value):
        return nodes.name(namespace.bind(preferred, expr.value, namer))
    return expr


def _is_d(node: gast.AST) -> bool:
    return (
        isinstance(node, gast.Subscript)
        and isinstance(node.value, gast.Name)
        and node.value.id == "d"
        and isinstance(node.slice, gast.Name)
    )


class _Tidy(gast.NodeTransformer):
    """`a + -b` -> `a - b`; keyword arguments that pass a parameter's own default
    (`np.sum(dx, axis=None)` -> `np.sum(dx)`) are left out."""

    def visit_BinOp(self, node: gast.BinOp) -> gast.expr:
        self.generic_visit(node)
        right = node.right
        if (
            isinstance(node.op, gast.Add)
            and isinstance(right, gast.UnaryOp)
            and isinstance(right.op, gast.USub)
        ):
            return nodes.binop(node.left, gast.Sub(), right.operand)
        return node

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        node.keywords = [k for k in node.keywords if not _default_keyword(k)]
        return node


_NONE_DEFAULTS = {"axis", "dtype", "out", "axes", "order", "keepdims"}


def _default_keyword(keyword: gast.keyword) -> bool:
    """`axis=None`, `dtype=None`, `keepdims=False`, `order='C'`: NumPy's own defaults."""
    value = keyword.value
    if keyword.arg not in _NONE_DEFAULTS or not isinstance(value, gast.Constant):
        return False
    defaults = {"keepdims": False, "order": "C"}
    return (
        value.value is defaults.get(keyword.arg) if keyword.arg in defaults else value.value is None
    )


class _Fill(gast.NodeTransformer):
    """One pass over a template statement: `d[result] = ...` -> the target tangent,
    `d[p]` -> p's tangent, parameters -> their arguments, `result` -> the result,
    temporaries -> fresh names, template globals -> module names."""

    def __init__(self, rule, bindings, tangents, result, target, renames, namer, namespace):
        self.rule = rule
        self.bindings = bindings
        self.tangents = tangents
        self.result = result
        self.target = target
        self.renames = renames
        self.namer = namer
        self.namespace = namespace
        self.own = set(rule.params) | {"result", "d"} | set(renames)

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if _is_d(node):
            if isinstance(node.ctx, gast.Store):
                return nodes.deepcopy(self.target)
            return nodes.deepcopy(self.tangents[node.slice.id])
        self.generic_visit(node)
        return node

    def visit_Name(self, node: gast.Name) -> gast.expr:
        if node.id in self.renames:
            return gast.Name(
                id=self.renames[node.id], ctx=node.ctx, annotation=None, type_comment=None
            )
        if not isinstance(node.ctx, gast.Load):
            return node
        if node.id == "result":
            return nodes.name(self.result)
        if node.id in self.bindings:
            return nodes.deepcopy(self.bindings[node.id])
        if node.id not in self.own and node.id in self.rule.globals:
            obj = self.rule.globals[node.id]
            node.id = global_name(node.id, obj, self.namer, self.namespace)
        return node

    def visit_Attribute(self, node: gast.Attribute) -> gast.expr:
        helper = runtime_helper(node, self.rule.globals, self.namer, self.namespace)
        if helper is not None:
            return helper
        self.generic_visit(node)
        return node
