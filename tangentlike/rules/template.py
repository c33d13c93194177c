"""Derivative templates: what a rule states, read from a Python function or expressions.

A reverse-mode rule is a tiny Python function: its first parameter is the
primal `result`, the others are the primal's parameters; its body assigns
`d[param]`, the contribution to that parameter's adjoint, from `d[result]`,
the adjoint of the result:

    @adjoint(np.exp)
    def exp(result, x):
        d[x] = d[result] * result

rules/instantiate.py fills a template in at one call site.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gast

from ..errors import RuleError
from ..syntax import nodes, quote
from ..syntax.nodes import walk
from . import signatures


class _AdjointMarker:
    """`d[x]` in a template: the adjoint of x. Only meaningful inside templates."""

    def __getitem__(self, key: object) -> Any:
        raise RuntimeError("d[...] is template notation; it only has meaning inside a rule")

    def __setitem__(self, key: object, value: object) -> None:
        raise RuntimeError("d[...] is template notation; it only has meaning inside a rule")


d = _AdjointMarker()


@dataclass(frozen=True)
class Rule:
    """A reverse-mode derivative template for one primal function or operator.

    `source` is the parsed body, or a function returning it: built-in rules are
    parsed on first use, so loading a gradient from the disk cache never pays
    for parsing every template.
    """

    primal: object
    name: str
    params: tuple[str, ...]
    defaults: dict[str, object]
    source: tuple[gast.stmt, ...] | Callable[[], tuple[gast.stmt, ...]] = field(repr=False)
    globals: dict[str, object] = field(repr=False)
    unbroadcast: bool = False
    origin: str = "builtin"
    restriction: str = ""
    elementwise: bool = False  # every d[p] has the result's shape (broadcast rules undo it)
    where: str = ""  # a rule from a function: its name and file:line, for error messages
    # parameters the result is locally constant in (a shape, a dtype, an array read only
    # for its shape): a differentiated value there needs no contribution
    constant: frozenset[str] = frozenset()
    # an elementwise rule's expressions (parameter -> contribution in terms of g): its
    # forward form is derived from them (rules/tangent.py)
    expressions: tuple[tuple[str, str], ...] = ()
    # False: the body's statements carry no line positions (a template filled in once,
    # built at its call site: rules/tangent.py)
    placed: bool = True

    @functools.cached_property
    def body(self) -> tuple[gast.stmt, ...]:
        return self.source() if callable(self.source) else self.source

    # What rules/instantiate.py reads at every call site, worked out once per rule:

    @functools.cached_property
    def unplaced(self) -> tuple[gast.stmt, ...]:
        """The body with its line positions cleared (`nodes.unplaced`): lines of the
        rules file mean nothing where the template is filled in. Never modified:
        instantiate fills in a copy."""
        if not self.placed:
            return self.body
        return tuple(nodes.unplaced(nodes.deepcopy(s)) for s in self.body)

    @functools.cached_property
    def temporaries(self) -> tuple[str, ...]:
        """The names the body stores (its temporaries), sorted."""
        return tuple(
            sorted(
                {
                    n.id
                    for stmt in self.body
                    for n in walk(stmt)
                    if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)
                }
            )
        )

    @functools.cached_property
    def slopes(self) -> bool:
        """Whether the body names `power_slope` (instantiate.LiteralPowerSlope's calls)."""
        return any(
            isinstance(n, gast.Attribute) and n.attr == "power_slope"
            for stmt in self.body
            for n in walk(stmt)
        )

    @functools.cached_property
    def differentiable(self) -> frozenset[str]:
        """Parameters the template assigns a contribution `d[p]` to."""
        return frozenset(
            t.slice.id
            for stmt in self.body
            for node in walk(stmt)
            if isinstance(node, gast.Assign)
            for t in node.targets
            if _is_d(t)
        )


def _is_d(node: gast.AST) -> bool:
    return (
        isinstance(node, gast.Subscript)
        and isinstance(node.value, gast.Name)
        and node.value.id == "d"
        and isinstance(node.slice, gast.Name)
    )


def rule_from_function(
    primal: object,
    template: Callable,
    *,
    unbroadcast: bool = False,
    origin: str = "builtin",
    restriction: str = "",
    constant: tuple[str, ...] = (),
) -> Rule:
    """A rule from a template function written with `d[...]` notation.

    The signature is checked now; the body is parsed and validated now for user
    rules (errors at registration) and on first use for built-in ones.
    """
    signature = signatures.parameters(template)
    names = list(signature)
    where = f"rule {template.__qualname__} for {getattr(primal, '__name__', primal)!r}"
    if not names or names[0] != "result":
        raise RuleError(f"{where}: the first parameter must be `result`, the primal's output")
    params = tuple(names[1:])
    for kind, _ in signature.values():
        if kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            raise RuleError(f"{where}: parameters must be plain names (no *args or **kwargs)")
    _check_primal_signature(primal, params, where)
    if set(constant) - set(params):
        raise RuleError(
            f"{where}: constant parameters {sorted(set(constant) - set(params))} "
            "are not parameters of the rule"
        )

    def parse() -> tuple[gast.stmt, ...]:
        return _parse_template(template, params, where)

    defaults = {
        n: default
        for n, (_, default) in list(signature.items())[1:]
        if default is not inspect.Parameter.empty
    }
    return Rule(
        primal=primal,
        name=getattr(primal, "__name__", str(primal)),
        params=params,
        defaults=defaults,
        source=parse() if origin == "user" else parse,
        globals=dict(template.__globals__),
        unbroadcast=unbroadcast,
        origin=origin,
        restriction=restriction,
        where=f"{template.__qualname__} ({_file_line(template)})",
        constant=frozenset(constant),
    )


def _file_line(func: Callable) -> str:
    code = getattr(func, "__code__", None)
    if code is None:
        return "?"
    return f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"


def _parse_template(template: Callable, params: tuple[str, ...], where: str):
    fn = quote.parse_function(template)
    body = [s for s in fn.body if not _is_docstring(s)]
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, gast.Assign):
                for t in node.targets:
                    if isinstance(t, gast.Subscript) and not _is_d(t):
                        raise RuleError(f"{where}: only d[param] may be assigned by subscript")
                    if _is_d(t) and t.slice.id not in params:
                        raise RuleError(
                            f"{where}: d[{t.slice.id}] is not a parameter of the rule; "
                            f"the parameters are {', '.join(params)}"
                        )
            if (
                isinstance(node, gast.Name)
                and node.id in params
                and isinstance(node.ctx, gast.Store)
            ):
                raise RuleError(f"{where}: the template must not assign parameter {node.id!r}")
    return tuple(body)


def rule_from_expressions(
    primal: object,
    params: tuple[str, ...],
    exprs: dict[str, str],
    *,
    unbroadcast: bool,
    globals_: dict[str, object],
    defaults: dict[str, object] | None = None,
    restriction: str = "",
) -> Rule:
    """A rule from one expression per parameter, in terms of `g` (the result's adjoint).

    The expressions are parsed on first use.
    """

    def parse() -> tuple[gast.stmt, ...]:
        body = []
        for param, source in exprs.items():
            value = quote.substitute(quote.parse_expr(source), {"g": _d_of("result")})
            target = nodes.subscript(nodes.name("d"), nodes.name(param))
            target.ctx = gast.Store()
            body.append(nodes.assign(target, value))
        return tuple(body)

    return Rule(
        primal=primal,
        name=getattr(primal, "__name__", str(primal)),
        params=params,
        defaults=dict(defaults or {}),
        source=parse,
        globals=globals_,
        unbroadcast=unbroadcast,
        restriction=restriction,
        elementwise=True,
        expressions=tuple(exprs.items()),
    )


def _d_of(param: str) -> gast.expr:
    return nodes.subscript(nodes.name("d"), nodes.name(param))


def _is_docstring(stmt: gast.stmt) -> bool:
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)


def _check_primal_signature(primal: object, params: tuple[str, ...], where: str) -> None:
    """A user rule's parameters must be the primal's parameters (when Python can tell)."""
    if not inspect.isfunction(primal):
        return
    P = inspect.Parameter
    primal_params = [
        name
        for name, (kind, _) in signatures.parameters(primal).items()
        if kind in (P.POSITIONAL_OR_KEYWORD, P.POSITIONAL_ONLY, P.KEYWORD_ONLY)
    ]
    if list(params) != primal_params:
        raise RuleError(
            f"{where}: the rule's parameters ({', '.join(params)}) must be `result` followed "
            f"by the parameters of {primal.__qualname__} ({', '.join(primal_params)})"
        )


# ---------------------------------------------------------------------------
# Instantiation
