"""Rule kinds: what repeats across rules, written once, and both forms from one statement.

A kind is a decorator beside `registry.adjoint`. It registers the reverse rule
and derives the forward form (rules/tangent.py) from the same declaration, so
the two cannot drift:

- `reduction`: the body states the rule's weight. `W = expr` (an elementwise
  weight shaped like the input: d result = sum(W * d a) over the reduced axes)
  gives the reverse form `d[a] = G * W` and the forward form
  `d[result] = np.sum(W * d[a], axis=axis, keepdims=keepdims)`; `S = expr` (a
  scalar weight, `S = 1` for sum) gives `d[a] = runtime.spread(G * S, a)` (G
  broadcast to a's shape) and
  `d[result] = np.sum(d[a], axis=axis, keepdims=keepdims) * S`. In the body
  `G` is the result's adjoint and `R` the result, each with the reduced axes kept:
  the `axis is None or keepdims` branch that puts them back is written here once.
- `keepdims_adjoint` / `keepdims_tangent`: a bespoke template using `G` and `R`,
  wrapped in that same branch (np.average).
- `linear`: the function is linear in the listed parameters (jointly): the
  forward form is the function applied to their tangents; the reverse form is the
  template.
- `bilinear`: the function is linear in each listed parameter separately (matmul,
  dot, outer, einsum...): the forward form is the sum, over those parameters, of
  the function with that one parameter replaced by its tangent.

Assumes: the primal is reachable under the name `spell` finds (`np.name`,
`np.linalg.name`, a builtin, `runtime.name`, or a gast operator class), and a
linear or bilinear call passes the rule's parameters positionally in the rule's
order (keyword-only ones by keyword). Guarantees: every rule a kind registers has
a forward form.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import inspect
from collections.abc import Callable

import gast
import numpy as np

from .. import runtime
from ..errors import RuleError
from ..syntax import nodes, quote
from ..syntax.nodes import walk
from .registry import Registry
from .tangent import TangentRule
from .template import Rule, rule_from_function

KEEP = "axis is None or keepdims"  # the reduced axes are still there (or all are gone)


def _forward(rule: Rule, parse: Callable[[], tuple[gast.stmt, ...]], kind: str) -> TangentRule:
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
        kind=kind,
    )


def _register(
    registry: Registry, rule: Rule, forward: Callable[[], tuple[gast.stmt, ...]], kind: str
) -> None:
    registry.add(rule)
    registry.add_tangent(_forward(rule, forward, kind))


# -- the keepdims branch -------------------------------------------------------------
def _uses(stmts: list[gast.stmt], names: set[str]) -> bool:
    return any(isinstance(n, gast.Name) and n.id in names for s in stmts for n in walk(s))


def _kept(stmts: list[gast.stmt], result: str) -> list[gast.stmt]:
    """`stmts` (reading G and R) inside `if axis is None or keepdims:`, G and R being the
    result's adjoint and the result with the reduced axes kept."""

    def fill(g: str, r: str) -> list[gast.stmt]:
        exprs = {"G": quote.parse_expr(g), "R": quote.parse_expr(r)}
        return [quote.substitute(nodes.deepcopy(s), exprs) for s in stmts]

    if not _uses(stmts, {"G", "R"}):
        return stmts
    same = fill(f"d[{result}]", result)
    expanded = fill(f"np.expand_dims(d[{result}], axis)", f"np.expand_dims({result}, axis)")
    return [nodes.if_(quote.parse_expr(KEEP), same, expanded)]


def _body(template: Callable) -> list[gast.stmt]:
    fn = quote.parse_function(template)
    return [
        s for s in fn.body if not (isinstance(s, gast.Expr) and isinstance(s.value, gast.Constant))
    ]


def _stmt(source: str) -> gast.stmt:
    return gast.parse(source).body[0]


def reduction(
    registry: Registry,
    primal: object,
    *,
    restriction: str = "",
    masked: Callable | None = None,
) -> Callable[[Callable], Callable]:
    """A reduction of its first parameter over `axis` (module docstring). `masked`: a
    second template, with the same parameters (`where` among them), stating the weight
    when `where` is not True; both forms branch on `where is True`, folded at a call
    that leaves `where` out."""

    def register(template: Callable) -> Callable:
        rule = rule_from_function(primal, template, restriction=restriction)
        x = rule.params[0]
        where = f"reduction {template.__qualname__}"

        def both(one: Callable[[Callable], tuple[gast.stmt, ...]]) -> Callable:
            if masked is None:
                return lambda: one(template)
            test = quote.parse_expr("where is True")
            return lambda: (nodes.if_(test, list(one(template)), list(one(masked))),)

        def split(template: Callable) -> tuple[list[gast.stmt], str, str]:
            body = _body(template)
            last = body[-1] if body else None
            if not (
                isinstance(last, gast.Assign)
                and isinstance(last.targets[0], gast.Name)
                and last.targets[0].id in ("W", "S")
            ):
                raise RuleError(f"{where}: the body must end with `W = ...` or `S = ...`")
            weight = _unparse(last.value)
            return body[:-1], last.targets[0].id, weight

        def reverse(template: Callable) -> tuple[gast.stmt, ...]:
            prelude, kind, weight = split(template)
            if kind == "W":
                last = f"d[{x}] = {_times_g(weight)}"
            elif weight == "1":
                last = f"d[{x}] = runtime.spread(G, {x})"
            else:
                last = f"d[{x}] = runtime.spread(G * ({weight}), {x})"
            return tuple(_kept([*prelude, _stmt(last)], "result"))

        def forward(template: Callable) -> tuple[gast.stmt, ...]:
            prelude, kind, weight = split(template)
            total = "np.sum({}, axis=axis, keepdims=keepdims)"
            if kind == "W":
                last = "d[result] = " + total.format(f"({weight}) * d[{x}]")
            elif weight == "1":
                last = "d[result] = " + total.format(f"d[{x}]")
            else:
                last = "d[result] = " + total.format(f"d[{x}]") + f" * ({weight})"
            return tuple(_kept([*prelude, _stmt(last)], "result"))

        reverse_body = both(reverse)
        _register(
            registry, dataclasses.replace(rule, source=reverse_body), both(forward), "reduction"
        )
        return template

    return register


def _times_g(weight: str) -> str:
    """`G * weight`, written `G * a / b` for a weight `a / b` (a product or quotient
    chain takes G at its left end: the form a hand-written template has)."""
    tree = ast.parse(weight, mode="eval")
    node, parent = tree.body, tree
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        node, parent = node.left, node
    times = ast.BinOp(left=ast.Name(id="G", ctx=ast.Load()), op=ast.Mult(), right=node)
    if parent is tree:
        tree.body = times
    else:
        parent.left = times
    return ast.unparse(tree)


def _unparse(node: gast.expr) -> str:
    return ast.unparse(gast.gast_to_ast(node))


def keepdims_adjoint(
    registry: Registry, primal: object, *, restriction: str = ""
) -> Callable[[Callable], Callable]:
    """`registry.adjoint` for a reduction template reading G and R (module docstring)."""

    def register(template: Callable) -> Callable:
        rule = rule_from_function(primal, template, restriction=restriction)
        registry.add(
            dataclasses.replace(rule, source=lambda: tuple(_kept(_body(template), "result")))
        )
        return template

    return register


def keepdims_tangent(registry: Registry, primal: object) -> Callable[[Callable], Callable]:
    """`registry.tangent` for a reduction template reading R (module docstring)."""

    def register(template: Callable) -> Callable:
        registry.tangent(primal)(template)  # checks the signature and the body
        trule = registry.lookup_tangent(primal)
        wrapped = dataclasses.replace(
            trule, source=lambda: tuple(_kept(list(trule.body), "result")), kind="reduction"
        )
        registry.add_tangent(wrapped)
        return template

    return register


# -- linear and bilinear -----------------------------------------------------------------
def spell(primal: object) -> str:
    """How generated code names `primal`."""
    if isinstance(primal, type) and issubclass(primal, gast.AST):
        raise RuleError(f"an operator has no spelling as a call: {primal.__name__}")
    name = getattr(primal, "__name__", "")
    spaces = (("np.linalg.", np.linalg), ("np.fft.", np.fft), ("np.", np), ("", builtins))
    for prefix, namespace in spaces:
        if getattr(namespace, name, None) is primal:
            return prefix + name
    if runtime.owns(primal) and getattr(runtime, name, None) is primal:
        return "runtime." + name
    raise RuleError(f"no spelling for {primal!r}: name it in rules/kinds.py")


_OPERATORS = {gast.MatMult: "@", gast.Mult: "*", gast.Add: "+", gast.Sub: "-"}


def _call(
    rule: Rule,
    tangents: set[str],
    fixed: dict[str, str | None],
    via: object = None,
    keywords: tuple[str, ...] = (),
) -> str:
    """The primal (or `via`) applied to the rule's parameters, `d[p]` for those in
    `tangents`; `fixed[p]` replaces p (None leaves it out)."""

    def arg(p: str) -> str:
        return f"d[{p}]" if p in tangents else str(fixed.get(p, p))

    if rule.primal in _OPERATORS and via is None:
        left, right = rule.params
        return f"{arg(left)} {_OPERATORS[rule.primal]} {arg(right)}"
    func = via or rule.primal
    positional = _positional(func)
    parts, by_keyword = [], False
    for i, p in enumerate(rule.params):
        if p in fixed and fixed[p] is None:
            by_keyword = True  # a later parameter cannot take this one's place
            continue
        by_keyword = by_keyword or p in keywords
        if positional is not None and (i >= len(positional) or positional[i] != p):
            by_keyword = by_keyword or i >= len(positional) or positional[i] != "*"
        parts.append(f"{p}={arg(p)}" if by_keyword else arg(p))
    return f"{spell(func)}({', '.join(parts)})"


def _positional(func: object) -> list[str] | None:
    """Names of `func`'s positional parameters ("*" for a positional-only one, which
    takes any rule name), or None when Python cannot tell (a ufunc)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    names = []
    for p in params:
        if p.kind is p.VAR_POSITIONAL:  # np.atleast_1d(*arys): any number, by position
            return None
        if p.kind is p.POSITIONAL_ONLY:
            names.append("*")
        elif p.kind is p.POSITIONAL_OR_KEYWORD:
            names.append(p.name)
    return names


def linear(
    registry: Registry,
    primal: object,
    params: str | tuple[str, ...],
    *,
    fixed: dict[str, str | None] | None = None,
    cast: bool = False,
    keywords: tuple[str, ...] = (),
    via: object = None,
    **options: object,
) -> Callable[[Callable], Callable]:
    """A function linear in `params` jointly: forward form `d[result] = f(..d[p]..)`.

    `fixed` passes an expression for a parameter in the forward form (an offset the
    tangent does not carry: `np.pad`'s `constant_values` -> 0); `cast` gives the
    tangent the result's float type, zero for an integer or boolean result;
    `keywords` are passed by name; `via` computes f where the primal cannot take the
    rule's parameters as they are (np.meshgrid's fixed slots)."""
    linear_in = {params} if isinstance(params, str) else set(params)

    def register(template: Callable) -> Callable:
        rule = rule_from_function(primal, template, **options)

        def forward() -> tuple[gast.stmt, ...]:
            value = _call(rule, linear_in, fixed or {}, via, keywords)
            if cast:
                value = f"runtime.cast_tangent({value}, result)"
            return (_stmt(f"d[result] = {value}"),)

        _register(registry, rule, forward, "linear")
        return template

    return register


def bilinear(
    registry: Registry,
    primal: object,
    params: tuple[str, ...],
    *,
    via: object = None,
    keywords: tuple[str, ...] = (),
    **options: object,
) -> Callable[[Callable], Callable]:
    """A function linear in each of `params` separately: the forward form is one term per
    parameter, the function with that parameter replaced by its tangent. `via` is a
    runtime helper computing the function where the primal cannot be called with the
    rule's parameters as they are (einsum's unused operand slots)."""

    def register(template: Callable) -> Callable:
        rule = rule_from_function(primal, template, **options)

        def forward() -> tuple[gast.stmt, ...]:
            terms = [_call(rule, {p}, {}, via, keywords) for p in params]
            return (_stmt("d[result] = " + " + ".join(terms)),)

        _register(registry, rule, forward, "bilinear")
        return template

    return register
