"""Filling a derivative template in at one call site.

`instantiate` fills a template (rules/template.py) in at one call site: parameters
become the call's arguments, `d[result]` the result's adjoint, template temporaries
fresh names, and `if` tests on literal arguments (`keepdims`, `axis is None`) are
decided at compile time so generated code shows one branch only. `bind_arguments`
matches a call's arguments to the rule's parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gast

from ..syntax import nodes, quote
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from .template import Rule, _is_d


@dataclass
class Instance:
    """A template filled in at one call site.

    `stmts` is the filled-in body; each contribution still reads `d[p] = value`,
    and `bindings[p]` is the call-site expression bound to parameter p.
    """

    stmts: list[gast.stmt]
    bindings: dict[str, gast.expr]
    rule: Rule


class BindError(Exception):
    pass


def bind_arguments(
    rule: Rule, args: list[gast.expr], keywords: dict[str, gast.expr]
) -> dict[str, gast.expr]:
    """Match call-site arguments to the rule's parameters, filling in defaults."""
    if len(args) > len(rule.params):
        raise BindError(f"{rule.name} takes at most {len(rule.params)} positional arguments here")
    bound = dict(zip(rule.params, args, strict=False))
    for key, value in keywords.items():
        if key not in rule.params:
            raise BindError(f"the rule for {rule.name} has no parameter {key!r}")
        if key in bound:
            raise BindError(f"{key!r} given twice")
        bound[key] = value
    for p in rule.params:
        if p not in bound:
            if p not in rule.defaults:
                raise BindError(f"missing argument {p!r} for {rule.name}")
            bound[p] = nodes.const(rule.defaults[p])
    return bound


def instantiate(
    rule: Rule,
    bindings: dict[str, gast.expr],
    result: gast.expr,
    result_adjoint: str,
    namer: Namer,
    namespace: Namespace,
    same_shape: Callable[[str], bool] | None = None,
    summed: Callable[[str], tuple[int, tuple[int, ...]] | None] | None = None,
) -> Instance:
    """Fill the template in. Free template names become module globals.

    `same_shape(name)`: whether the local `name` surely has the result's shape; a
    contribution of an unbroadcast rule that reads d[result] needs no unbroadcast
    for such an operand. `summed(name)`: where known, how the result's shape sums down to
    the local `name`'s (analyze/shapes.Shapes.summed): such a contribution is that sum,
    a NumPy expression, instead of an unbroadcast call."""
    locals_ = rule.temporaries
    renames = {name: namer.temp(name) for name in locals_}
    bindings = {
        p: _literal_or_global(e, f"{rule.name}_{p}", namer, namespace) for p, e in bindings.items()
    }
    exprs: dict[str, gast.expr] = dict(bindings)
    exprs["result"] = result
    stmts = []
    exprs[_D_RESULT] = nodes.name(result_adjoint)
    # no line positions in what is filled in: the template's are cleared once per rule
    # (Rule.unplaced), the call site's in the one copy made here of each expression
    exprs = {key: nodes.unplaced(nodes.deepcopy(e)) for key, e in exprs.items()}
    own = set(rule.params) | {"result", "d"} | set(locals_)
    fill = _FillIn(own, rule, namer, namespace, exprs, renames)
    for stmt in rule.unplaced:
        if rule.slopes:
            stmt = LiteralPowerSlope(bindings).visit(nodes.deepcopy(stmt))
        # Template globals first, so the call site's own names are never taken for them.
        stmts.extend(fold_static_ifs([fill.filled(stmt)]))
    if rule.unbroadcast:
        stmts = [
            _wrap_unbroadcast(s, bindings, namer, namespace, result_adjoint, same_shape, summed)
            for s in stmts
        ]
    return Instance(stmts, bindings, rule)


class LiteralPowerSlope(gast.NodeTransformer):
    """`runtime.power_slope(x, y)` with a literal exponent y >= 1 is the plain formula
    `y * x ** (y - 1)` (`2 * x` for a square): no division by zero to guard against, and no
    helper call in the generated code."""

    def __init__(self, bindings: dict[str, gast.expr]) -> None:
        self.bindings = bindings

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        func, args = node.func, node.args
        if not (
            isinstance(func, gast.Attribute)
            and func.attr == "power_slope"
            and isinstance(func.value, gast.Name)
            and func.value.id == "runtime"
            and len(args) == 2
            and all(isinstance(a, gast.Name) for a in args)
        ):
            return node
        exponent = static_value(self.bindings.get(args[1].id, nodes.name(args[1].id)))
        if type(exponent) not in (int, float) or not exponent >= 1:
            return node
        base = nodes.name(args[0].id)
        if exponent == 2:
            return nodes.binop(nodes.const(exponent), gast.Mult(), base)
        power = nodes.binop(base, gast.Pow(), nodes.const(exponent - 1))
        return nodes.binop(nodes.const(exponent), gast.Mult(), power)


def _literal_or_global(
    expr: gast.expr, preferred: str, namer: Namer, namespace: Namespace
) -> gast.expr:
    """A default filled in by `bind_arguments` that is no literal (`k=np.float64(1.5)`,
    `dtype=np.float32`) becomes a module global: a Constant must print as what it holds."""
    if isinstance(expr, gast.Constant) and not nodes.is_literal(expr.value):
        return nodes.name(namespace.bind(preferred, expr.value, namer))
    return expr


_D_RESULT = "__d_result__"  # d[result] until the call site's names are filled in


class _FillIn:
    """In a template statement, in one pass: template globals -> module names, then
    parameters -> the call site's expressions, `d[result]` -> the result's adjoint and
    temporaries -> fresh names, except in the `p` of a `d[p] = ...` target.

    The same tree as resolving the globals over the whole statement first and then
    substituting (the call site's names are never taken for template globals): a name
    a global was bound under is substituted like the template's own names; a `d[...]`
    target other than `d[p] = ...` is substituted only (_SubstituteKeepingD).

    `filled(stmt)` is what a NodeTransformer with the `visit_` methods below makes of
    `nodes.deepcopy(stmt)`, in the same order (names are bound in the module as they
    are met), copying as it goes: the template is never changed, and a rule's body is
    copied once per call site, not twice."""

    def __init__(
        self,
        own: set[str],
        rule: Rule,
        namer: Namer,
        namespace: Namespace,
        exprs: dict[str, gast.expr],
        renames: dict[str, str],
    ) -> None:
        self.own = own
        self.rule = rule
        self.namer = namer
        self.namespace = namespace
        self.exprs = exprs
        self.renames = renames

    def filled(self, node: gast.AST) -> gast.AST:
        """A filled-in copy of the template node `node`."""
        kind = node.__class__.__name__
        if kind == "Subscript":
            return self.visit_Subscript(node)
        if kind == "Name":
            return self.visit_Name(nodes.deepcopy(node))
        if kind == "Attribute":
            return self.visit_Attribute(node)
        return nodes.copy_mapped(node, self.filled)

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if isinstance(node.value, gast.Name) and node.value.id == "d":
            if isinstance(node.ctx, gast.Load):
                return nodes.deepcopy(self.exprs[_D_RESULT])
            if _is_d(node) and isinstance(node.ctx, gast.Store):
                return nodes.deepcopy(node)
            return _SubstituteKeepingD(self.exprs, self.renames).visit(nodes.deepcopy(node))
        return nodes.copy_mapped(node, self.filled)

    def visit_Name(self, node: gast.Name) -> gast.expr:
        """`node`: a copy of the template's Name."""
        if (
            isinstance(node.ctx, gast.Load)
            and node.id not in self.own
            and node.id in self.rule.globals
        ):
            obj = self.rule.globals[node.id]
            node.id = global_name(node.id, obj, self.namer, self.namespace)
        return self._substituted(node)

    def visit_Attribute(self, node: gast.Attribute) -> gast.expr:
        helper = runtime_helper(node, self.rule.globals, self.namer, self.namespace)
        if helper is not None:
            return self._substituted(helper)
        return nodes.copy_mapped(node, self.filled)

    def _substituted(self, node: gast.Name) -> gast.expr:
        """quote.Substitute's rule for a Name."""
        if isinstance(node.ctx, gast.Load) and node.id in self.exprs:
            return nodes.deepcopy(self.exprs[node.id])
        if node.id in self.renames:
            node.id = self.renames[node.id]
        return node


def runtime_helper(
    node: gast.Attribute, template_globals: dict, namer: Namer, namespace: Namespace
) -> gast.Name | None:
    """`runtime.helper` in a template (adjoint or tangent): the helper itself, bound in
    the generated module (which carries a copy); None for any other attribute."""
    from .. import runtime

    base = node.value
    if (
        isinstance(base, gast.Name)
        and template_globals.get(base.id) is runtime
        and isinstance(node.ctx, gast.Load)
    ):
        return nodes.name(namespace.bind(node.attr, getattr(runtime, node.attr), namer))
    return None


class _SubstituteKeepingD(quote.Substitute):
    """Substitute parameters everywhere except in the `p` of a `d[p] = ...` target."""

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if _is_d(node) and isinstance(node.ctx, gast.Store):
            return node
        self.generic_visit(node)
        return node


def global_name(preferred: str, obj: object, namer: Namer, namespace: Namespace) -> str:
    """Bind `obj` in the module namespace, preferring a module's usual alias."""
    import types

    from ..syntax.namespace import PREFERRED_ALIASES

    if isinstance(obj, types.ModuleType):
        preferred = PREFERRED_ALIASES.get(obj.__name__, preferred)
        existing = namespace.name_of(obj)
        if existing is not None and not namer.is_local(existing):
            return existing
    return namespace.bind(preferred, obj, namer)


def _wrap_unbroadcast(
    stmt: gast.stmt,
    bindings: dict[str, gast.expr],
    namer: Namer,
    namespace: Namespace,
    result_adjoint: str,
    same_shape: Callable[[str], bool] | None,
    summed: Callable[[str], tuple[int, tuple[int, ...]] | None] | None = None,
) -> gast.stmt:
    """Wrap `d[p] = v` as `d[p] = unbroadcast(v, p)` where p's shape may differ from v's."""
    from .. import runtime

    if not (isinstance(stmt, gast.Assign) and _is_d(stmt.targets[0])):
        return stmt
    param = stmt.targets[0].slice.id
    mine = bindings[param]
    others = [v for k, v in bindings.items() if k != param]
    if all(_same_shape(v, mine) for v in others):
        return stmt  # the other operands are literals or p itself: v already has p's shape
    if (
        same_shape is not None
        and isinstance(mine, gast.Name)
        and result_adjoint in nodes.names_read(stmt.value)
        and same_shape(mine.id)
    ):
        return stmt  # p has the result's shape: so has v
    if (
        summed is not None
        and isinstance(mine, gast.Name)
        and result_adjoint in nodes.names_read(stmt.value)
    ):
        total = _static_sum(stmt.value, summed(mine.id), namespace, namer)
        if total is not None:  # v has the result's shape: summed down to p's
            stmt.value = total
            return stmt
    helper = namespace.bind("unbroadcast", runtime.unbroadcast, namer)
    stmt.value = nodes.call(nodes.name(helper), [stmt.value, nodes.deepcopy(bindings[param])])
    return stmt


def _static_sum(
    value: gast.expr,
    axes: tuple[int, tuple[int, ...]] | None,
    namespace: Namespace,
    namer: Namer,
) -> gast.expr | None:
    """`unbroadcast(value, p)` as a NumPy sum, for the shapes `axes` states (leading axes,
    kept axes; Shapes.summed): `value.sum()` down to a number, `value.sum(axis=0)`
    over one leading axis, `np.sum(value, axis=k, keepdims=True)` over one stretched
    axis; None for other cases (unbroadcast's helper then)."""
    import numpy as np

    if axes is None:
        return None
    extra, kept = axes
    if extra and not kept:
        method = nodes.attribute(value, "sum")
        if extra == 1:
            return nodes.call(method, [], {"axis": nodes.const(0)})
        return None
    if kept and not extra and len(kept) == 1:
        np_name = namespace.bind("np", np, namer)
        keywords = {"axis": nodes.const(kept[0]), "keepdims": nodes.const(True)}
        return nodes.call(nodes.attribute(nodes.name(np_name), "sum"), [value], keywords)
    return None


def _same_shape(other: gast.expr, mine: gast.expr) -> bool:
    if isinstance(other, gast.Constant):
        return True
    return isinstance(other, gast.Name) and isinstance(mine, gast.Name) and other.id == mine.id


# ---------------------------------------------------------------------------
# Compile-time decisions on literal arguments

_UNKNOWN = object()


def static_value(node: gast.expr) -> object:
    """The value of an expression built from literals only, else _UNKNOWN."""
    if isinstance(node, gast.Constant):
        return node.value
    if isinstance(node, gast.Tuple):
        vals = [static_value(e) for e in node.elts]
        return _UNKNOWN if any(v is _UNKNOWN for v in vals) else tuple(vals)
    if isinstance(node, gast.UnaryOp):
        v = static_value(node.operand)
        if v is _UNKNOWN:
            return _UNKNOWN
        if isinstance(node.op, gast.Not):
            return not v
        if isinstance(node.op, gast.USub) and isinstance(v, (int, float)):
            return -v
        return _UNKNOWN
    if isinstance(node, gast.BoolOp):
        vals = [static_value(v) for v in node.values]
        if any(v is _UNKNOWN for v in vals):
            return _UNKNOWN
        return all(vals) if isinstance(node.op, gast.And) else any(vals)
    if isinstance(node, gast.Compare) and len(node.ops) == 1:
        left, right = static_value(node.left), static_value(node.comparators[0])
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        op = node.ops[0]
        if isinstance(op, gast.Is):
            return left is right
        if isinstance(op, gast.IsNot):
            return left is not right
        if isinstance(op, gast.Eq):
            return left == right
        if isinstance(op, gast.NotEq):
            return left != right
    return _UNKNOWN


def fold_static_ifs(stmts: list[gast.stmt]) -> list[gast.stmt]:
    """Replace `if <literal test>:` by the branch it takes, recursively."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, gast.If):
            value = static_value(stmt.test)
            if value is not _UNKNOWN:
                out.extend(fold_static_ifs(stmt.body if value else stmt.orelse))
                continue
            stmt.body = fold_static_ifs(stmt.body) or [gast.Pass()]
            stmt.orelse = fold_static_ifs(stmt.orelse)
        out.append(stmt)
    return out
