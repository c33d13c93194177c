"""Functions made by decorators with functools.wraps: differentiated as what is called.

A decorator's wrapper such as

    def wrapper(*args, **kwargs):
        return 2.0 * fn(*args, **kwargs)

claims, through functools.wraps, the signature of the function it wraps, and that is how
it is called. `specialize` rewrites it into a function of that signature: its parameters
become the claimed ones, and each call passing `*args`/`**kwargs` on passes them by
position (keyword-only ones by name). The wrapper's own code (scaling, logging, stacked
decorators) is then differentiated like any function, and what it calls like any callee.

Assumes: a parsed function with `__wrapped__`, whose parameters are only `*args` and/or
`**kwargs`. Guarantees: a FunctionDef with the claimed parameters (their defaults are the
claimed defaults, returned beside it) in which the wrapper's `*args` and `**kwargs` no
longer appear; or an UnsupportedSyntaxError at a use of them other than passing them on,
naming the decorator and saying what to do.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable

import gast

from ..errors import UnsupportedSyntaxError
from ..syntax import nodes

Defaults = tuple[tuple, dict[str, object]]
# (node, what is wrong, what to do) -> the error located at node
ErrorAt = Callable[[gast.AST, str, str], UnsupportedSyntaxError]


def is_wrapper(func: types.FunctionType, node: gast.FunctionDef) -> bool:
    """A functools.wraps wrapper taking only *args and/or **kwargs."""
    a = node.args
    return (
        getattr(func, "__wrapped__", None) is not None
        and not (a.posonlyargs or a.args or a.kwonlyargs)
        and (a.vararg is not None or a.kwarg is not None)
    )


def specialize(
    func: types.FunctionType, node: gast.FunctionDef, error: ErrorAt
) -> tuple[gast.FunctionDef, Defaults]:
    """`node` (the wrapper `func`) with the parameters its signature claims; the claimed
    defaults (positional, keyword-only)."""
    decorator = _decorator(func)
    signature = inspect.signature(func)  # follows __wrapped__: what callers see
    params = list(signature.parameters.values())
    hidden = [p for p in params if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if hidden:
        raise error(
            node,
            f"{func.__qualname__} is wrapped by {decorator}, which passes on *args/**kwargs "
            f"to a function that takes {hidden[0]}",
            "differentiate a function with named parameters",
        )
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = [p for p in params if p.kind == p.KEYWORD_ONLY]
    varargs = node.args.vararg.id if node.args.vararg is not None else None
    kwargs = node.args.kwarg.id if node.args.kwarg is not None else None
    forward = _Forward(varargs, kwargs, positional, keyword, func, decorator, error)
    node.body = [forward.visit(stmt) for stmt in node.body]
    a = node.args
    a.vararg, a.kwarg = None, None
    a.posonlyargs = [nodes.param(p.name) for p in params if p.kind == p.POSITIONAL_ONLY]
    a.args = [nodes.param(p.name) for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    a.kwonlyargs = [nodes.param(p.name) for p in keyword]
    with_default = [p for p in positional if p.default is not p.empty]
    # placeholders: the pipeline writes in the claimed default values
    a.defaults = [nodes.const(None) for _ in with_default]
    a.kw_defaults = [None if p.default is p.empty else nodes.const(None) for p in keyword]
    defaults = (
        tuple(p.default for p in with_default),
        {p.name: p.default for p in keyword if p.default is not p.empty},
    )
    return node, defaults


def _decorator(func: types.FunctionType) -> str:
    """`the decorator scaled` for the wrapper `scaled.<locals>.wrapper` (the name of its
    code: functools.wraps gave the function the wrapped one's names)."""
    code = func.__code__
    parts = getattr(code, "co_qualname", code.co_name).split(".<locals>.")  # 3.11+
    if len(parts) > 1:
        return f"the decorator {'.<locals>.'.join(parts[:-1])}"
    return f"the decorator making {parts[-1]}"


class _Forward(gast.NodeTransformer):
    """Replaces `g(*args, **kwargs)` with `g(p1, ..., k1=k1)`; refuses any other use."""

    def __init__(
        self,
        varargs: str | None,
        kwargs: str | None,
        positional: list[inspect.Parameter],
        keyword: list[inspect.Parameter],
        func: types.FunctionType,
        decorator: str,
        error: ErrorAt,
    ) -> None:
        self.varargs, self.kwargs = varargs, kwargs
        self.positional, self.keyword = positional, keyword
        self.func, self.decorator, self.error = func, decorator, error

    def visit_Call(self, node: gast.Call) -> gast.Call:
        starred = [
            a for a in node.args if isinstance(a, gast.Starred) and _is(a.value, self.varargs)
        ]
        spread = [k for k in node.keywords if k.arg is None and _is(k.value, self.kwargs)]
        if starred or spread:
            if len(starred) > 1 or len(spread) > 1 or (starred and node.args[-1] is not starred[0]):
                raise self.refuse(node)
            if self.varargs is not None and not starred and self.positional:
                raise self.refuse(node)  # kwargs passed on without the positional ones
            if self.kwargs is not None and not spread and self.keyword:
                raise self.refuse(node)
            kept = [a for a in node.args if a not in starred]
            node.args = kept + [nodes.name(p.name) for p in self.positional]
            node.keywords = [k for k in node.keywords if k not in spread] + [
                gast.keyword(arg=p.name, value=nodes.name(p.name)) for p in self.keyword
            ]
        self.generic_visit(node)
        return node

    def visit_Name(self, node: gast.Name) -> gast.Name:
        if _is(node, self.varargs) or _is(node, self.kwargs):
            raise self.refuse(node)
        return node

    def refuse(self, node: gast.AST) -> UnsupportedSyntaxError:
        return self.error(
            node,
            f"{self.func.__qualname__} is wrapped by {self.decorator}, whose wrapper uses "
            "its *args/**kwargs other than passing them all on (`fn(*args, **kwargs)`); "
            "differentiated values caught by *args are not supported",
            f"differentiate the undecorated function ({self.func.__name__}.__wrapped__), or "
            "write the wrapper with the parameters of the function it wraps",
        )


def _is(node: gast.AST, name: str | None) -> bool:
    return name is not None and isinstance(node, gast.Name) and node.id == name
