"""Forward-mode (tangent) templates: a rule's forward form, stated beside its reverse form.

A tangent template is a tiny Python function with the parameters of the rule
(`result` first). Its body assigns `d[result]`, the tangent of the result,
linearly from `d[p]`, the tangents of the parameters:

    @registry.adjoint(np.matmul)
    def matmul(result, x, y):
        d[x] = runtime.matmul_vjp_a(d[result], x, y)
        d[y] = runtime.matmul_vjp_b(d[result], x, y)

    @registry.tangent(np.matmul)
    def matmul_tangent(result, x, y):
        d[result] = d[x] @ y + x @ d[y]

An elementwise expression rule (`registry.expressions`) needs no template: each
of its expressions is `g` times a partial derivative, elementwise, hence its own
transpose, so its forward form is `d[result] = e_x[g := d[x]] + e_y[g := d[y]]`.
Deriving both forms from one statement means the two cannot drift. The rule kinds
(rules/kinds.py: reduction, linear, bilinear) derive both forms the same way.

How a transform asks for a forward form: `registry.lookup(primal)` (None: no rule;
then `registry.is_nondifferentiable(primal)` says the tangent is zero, anything else
is unknown), then `registry.lookup_tangent(primal)`, which returns the TangentRule
or raises NoForwardFormError (a RuleError: give it the call's location) for a rule
without a forward form; bind the call with `instantiate.bind_arguments(rule, args,
keywords)` (the tangent rule has the reverse rule's parameters and defaults) and
fill the template in with `instantiate_tangent`.

Assumes: a template is linear in the `d[p]` it reads (every term of the tangent
carries exactly one input tangent), which is what lets a forward transform drop
the terms of inputs whose tangent is zero. Guarantees: `tangent_from_function`
checks the template's signature against the reverse rule's and, for user
templates at registration (built-in ones on first use), that the body reads
`d[p]` only for parameters, assigns `d[result]` and no parameter.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import gast
import numpy as np

from ..errors import RuleError
from ..syntax import nodes, quote
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from . import signatures
from .instantiate import instantiate
from .template import Rule


@dataclass(frozen=True)
class TangentRule:
    """The forward form of one rule: a body assigning `d[result]` from `d[param]`s."""

    primal: object
    name: str
    params: tuple[str, ...]
    defaults: dict[str, object]
    source: tuple[gast.stmt, ...] | Callable[[], tuple[gast.stmt, ...]] = field(repr=False)
    globals: dict[str, object] = field(repr=False)
    origin: str = "builtin"
    where: str = ""
    derived: bool = False  # from an elementwise rule's expressions or a rule kind
    # how the form was stated: "template" (registry.tangent), "elementwise" (derived from
    # the rule's expressions), or the rule kind that derived it: "reduction", "linear",
    # "bilinear" (rules/kinds.py)
    kind: str = "template"

    @functools.cached_property
    def body(self) -> tuple[gast.stmt, ...]:
        return self.source() if callable(self.source) else self.source

    @functools.cached_property
    def reads(self) -> frozenset[str]:
        """Parameters whose tangent the template reads."""
        return frozenset(
            node.slice.id
            for stmt in self.body
            for node in walk(stmt)
            if _is_d(node) and isinstance(node.ctx, gast.Load) and node.slice.id != "result"
        )


class NoForwardFormError(RuleError):
    """A rule has a reverse form but no forward form (forward mode must refuse the call)."""

    def __init__(self, rule: Rule, why: str = "") -> None:
        self.rule = rule
        self.why = why
        name = getattr(rule.primal, "__qualname__", None) or rule.name
        reason = f": {why}" if why else ""
        super().__init__(
            f"{name} has a reverse-mode rule but no forward-mode (tangent) rule{reason}",
            hint="differentiate it in reverse mode (tl.grad, tl.vjp), or give its rule a "
            "forward form (registry.tangent beside registry.adjoint)",
        )


def derived_tangent(rule: Rule) -> TangentRule | None:
    """The forward form of an elementwise expression rule, or None for other rules."""
    if not rule.expressions:
        return None

    def parse() -> tuple[gast.stmt, ...]:
        terms = [
            quote.substitute(quote.parse_expr(source), {"g": _d_of(param)})
            for param, source in rule.expressions
        ]
        total = terms[0]
        for term in terms[1:]:
            total = nodes.binop(total, gast.Add(), term)
        target = _d_of("result")
        target.ctx = gast.Store()
        return (nodes.assign(target, total),)

    return TangentRule(
        primal=rule.primal,
        name=rule.name,
        params=rule.params,
        defaults=dict(rule.defaults),
        source=parse,
        globals=rule.globals,
        origin=rule.origin,
        where=rule.where,
        derived=True,
        kind="elementwise",
    )


def tangent_from_function(rule: Rule | None, template: Callable, *, origin: str) -> TangentRule:
    """A tangent rule from a template function; `rule` is the reverse rule it sits beside."""
    signature = signatures.parameters(template)
    names = list(signature)
    primal_name = getattr(rule.primal, "__name__", rule.primal) if rule else "?"
    where = f"tangent {template.__qualname__} for {primal_name!r}"
    if rule is None:
        raise RuleError(f"{where}: register the reverse rule (adjoint) before its tangent")
    if names[:1] != ["result"] or tuple(names[1:]) != rule.params:
        raise RuleError(
            f"{where}: the parameters must be those of its reverse rule: "
            f"result, {', '.join(rule.params)}"
        )
    defaults = {
        n: default
        for n, (_, default) in list(signature.items())[1:]
        if default is not inspect.Parameter.empty
    }
    if defaults != rule.defaults:
        raise RuleError(f"{where}: the defaults must be those of its reverse rule")

    def parse() -> tuple[gast.stmt, ...]:
        return _parse(template, rule.params, where)

    code = template.__code__
    return TangentRule(
        primal=rule.primal,
        name=rule.name,
        params=rule.params,
        defaults=defaults,
        source=parse() if origin == "user" else parse,
        globals={"np": np, **template.__globals__},  # zero tangents: np.zeros_like
        origin=origin,
        where=f"{template.__qualname__} ({code.co_filename.rsplit('/', 1)[-1]}:"
        f"{code.co_firstlineno})",
    )


def _parse(template: Callable, params: tuple[str, ...], where: str) -> tuple[gast.stmt, ...]:
    fn = quote.parse_function(template)
    body = [
        s for s in fn.body if not (isinstance(s, gast.Expr) and isinstance(s.value, gast.Constant))
    ]
    assigned = False
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, gast.Subscript) and not _is_d(node) and _is_d_base(node):
                raise RuleError(f"{where}: write d[name] with a parameter's name inside")
            if _is_d(node) and isinstance(node.ctx, gast.Store):
                if node.slice.id != "result":
                    raise RuleError(f"{where}: a tangent template assigns d[result] only")
                assigned = True
            elif _is_d(node) and node.slice.id not in params:
                raise RuleError(
                    f"{where}: d[{node.slice.id}] is not a parameter; "
                    f"the parameters are {', '.join(params)}"
                )
            if isinstance(node, gast.Name) and node.id in params and not _loads(node):
                raise RuleError(f"{where}: the template must not assign parameter {node.id!r}")
    if not assigned:
        raise RuleError(f"{where}: the template must assign d[result]")
    return tuple(body)


def _loads(node: gast.Name) -> bool:
    return isinstance(node.ctx, gast.Load)


def _is_d_base(node: gast.Subscript) -> bool:
    return isinstance(node.value, gast.Name) and node.value.id == "d"


def _is_d(node: gast.AST) -> bool:
    return (
        isinstance(node, gast.Subscript) and _is_d_base(node) and isinstance(node.slice, gast.Name)
    )


def _d_of(param: str) -> gast.expr:
    return nodes.subscript(nodes.name("d"), nodes.name(param))


def without_zero_tangents(body: tuple[gast.stmt, ...], zero: frozenset[str]) -> list[gast.stmt]:
    """`body` with the tangents of the parameters in `zero` known to be zero: every term
    that reads only zero tangents is dropped (by linearity it is zero), so a template
    never computes `0 * log(x)` for an input that does not vary. A template temporary
    computed from zero tangents only is zero too. `d[result]` is assigned None when the
    whole tangent is zero (the caller's symbolic zero)."""
    zeros = {f"d[{p}]" for p in zero}
    out: list[gast.stmt] = []
    for stmt in body:
        stmt = nodes.deepcopy(stmt)
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1:
            value = _drop_zeros(stmt.value, zeros)
            target = stmt.targets[0]
            if value is None:
                if _is_d(target):
                    stmt.value = nodes.const(None)
                elif isinstance(target, gast.Name):
                    zeros.add(target.id)
                    continue
            else:
                stmt.value = value
        elif isinstance(stmt, gast.If):
            stmt.body = without_zero_tangents(tuple(stmt.body), zero) or [gast.Pass()]
            stmt.orelse = without_zero_tangents(tuple(stmt.orelse), zero)
        out.append(stmt)
    return out


def _tangent_reads(node: gast.AST, temporaries: set[str]) -> set[str]:
    """The tangents (`d[p]`) and tangent-valued temporaries an expression reads."""
    found = set()
    for n in walk(node):
        if _is_d(n) and isinstance(n.ctx, gast.Load):
            found.add(f"d[{n.slice.id}]")
        elif isinstance(n, gast.Name) and n.id in temporaries:
            found.add(n.id)
    return found


def _drop_zeros(node: gast.expr, zeros: set[str]) -> gast.expr | None:
    """`node` without its zero terms; None if it is zero as a whole."""
    temporaries = {z for z in zeros if not z.startswith("d[")}
    reads = _tangent_reads(node, temporaries)
    if not reads:
        return node  # no tangent at all: a factor, kept as is
    if reads <= zeros:
        return None
    if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Add, gast.Sub)):
        left, right = _drop_zeros(node.left, zeros), _drop_zeros(node.right, zeros)
        if left is None:
            if isinstance(node.op, gast.Add):
                return right
            return gast.UnaryOp(op=gast.USub(), operand=right)
        if right is None:
            return left
        return nodes.binop(left, node.op, right)
    if _is_terms_sum(node):  # add_terms(a, b), add(d[a], d[b]): container-valued terms
        left, right = _drop_zeros(node.args[0], zeros), _drop_zeros(node.args[1], zeros)
        if left is None or right is None:
            return right if left is None else left
        node.args = [left, right]
        return node
    # a term mixing zero and non-zero tangents outside a sum (np.where(c, d[x], d[y])):
    # the zero ones are materialized in their parameter's shape
    return _ZeroFill(zeros).visit(node)


def _is_terms_sum(node: gast.expr) -> bool:
    """`runtime.add_terms(a, b)`: the sum of two terms with the tangent's structure; or
    `runtime.add(no_object_zero(d[a]), no_object_zero(d[b]))`, the sum of two whole
    tangents (the tangent of `add`), whose zero one is dropped, never spelled as
    np.zeros_like of a list or dict. (Other sums by runtime.add, of terms that fill parts
    of the structure only, keep their zero terms materialized.)"""
    if not (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and isinstance(node.func.value, gast.Name)
        and node.func.value.id == "runtime"
        and len(node.args) == 2
        and not node.keywords
    ):
        return False
    if node.func.attr == "add_terms":
        return True
    return node.func.attr == "add" and all(_whole_tangent(a) for a in node.args)


def _whole_tangent(node: gast.expr) -> bool:
    """`runtime.no_object_zero(d[p])`: an input's tangent as it is."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr == "no_object_zero"
        and len(node.args) == 1
        and _is_d(node.args[0])
    )


class _ZeroFill(gast.NodeTransformer):
    """`d[p]` with a zero tangent -> `np.zeros_like(p)`, inside a mixed term."""

    def __init__(self, zeros: set[str]) -> None:
        self.zeros = zeros

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if _is_d(node) and f"d[{node.slice.id}]" in self.zeros:
            zeros_like = nodes.attribute(nodes.name("np"), "zeros_like")
            return nodes.call(zeros_like, [nodes.name(node.slice.id)])
        self.generic_visit(node)
        return node

    def visit_Name(self, node: gast.Name) -> gast.expr:
        if isinstance(node.ctx, gast.Load) and node.id in self.zeros:
            raise RuleError(
                f"a tangent template's temporary {node.id!r} is zero here and used inside a "
                "larger term: write the template as a sum of terms, one per input tangent"
            )
        return node


def instantiate_tangent(
    trule: TangentRule,
    bindings: dict[str, gast.expr],
    result: gast.expr,
    result_tangent: str,
    tangents: dict[str, str],
    namer: Namer,
    namespace: Namespace,
) -> list[gast.stmt]:
    """Fill a tangent template in at one call site, as `instantiate.instantiate` fills a
    reverse one: parameters become the call's arguments (`bindings`, from
    `instantiate.bind_arguments`), `result` the primal result, `d[p]` the name of p's
    tangent (`tangents[p]`; a parameter not in `tangents` has a zero tangent, and the
    terms reading it are dropped), template temporaries fresh names, static `if`s
    decided. The statements assign `result_tangent`; it is assigned None when the
    whole tangent is zero."""
    zero = frozenset(trule.reads - set(tangents))
    placeholders = {p: f"__tangent_{p}__" for p in trule.reads}
    body = tuple(
        nodes.unplaced(_TangentNames(placeholders).visit(s))
        for s in without_zero_tangents(trule.body, zero)
    )
    as_rule = Rule(
        primal=trule.primal,
        name=trule.name,
        params=trule.params,
        defaults=trule.defaults,
        source=body,
        globals=trule.globals,
        origin=trule.origin,
        where=trule.where,
        placed=False,  # a copy made here: its positions are cleared above
    )
    instance = instantiate(as_rule, bindings, result, result_tangent, namer, namespace)
    names = {placeholders[p]: tangents[p] for p in placeholders if p in tangents}
    return [_Rename(names, result_tangent).visit(s) for s in instance.stmts]


class _TangentNames(gast.NodeTransformer):
    """`d[p]` loads -> placeholder names (stores of `d[result]` stay for `instantiate`)."""

    def __init__(self, placeholders: dict[str, str]) -> None:
        self.placeholders = placeholders

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if _is_d(node) and isinstance(node.ctx, gast.Load):
            return nodes.name(self.placeholders[node.slice.id])
        self.generic_visit(node)
        return node


class _Rename(gast.NodeTransformer):
    """Placeholders -> the call site's tangent names; `d[result] = ` -> `result_tangent = `."""

    def __init__(self, names: dict[str, str], result_tangent: str) -> None:
        self.names = names
        self.result_tangent = result_tangent

    def visit_Name(self, node: gast.Name) -> gast.expr:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        if _is_d(node) and isinstance(node.ctx, gast.Store):
            return nodes.name(self.result_tangent, store=True)
        self.generic_visit(node)
        return node
