"""The user's expression behind a compiler temporary, for messages.

Assumes: A-normal form (normalize.anf, normalize.desugar): an intermediate value the user
wrote inline (`h(y[1])`, `a, b = g(x)`) is bound to a generated `_<base><n>` name by one
plain assignment `_t = <one operation>`, whose operands may be temporaries themselves.
Guarantees: `spoken(parsed, aliases, stmt, name)` is the text of the expression `name`
holds at `stmt` as the user could have written it (each temporary replaced by the
expression it was bound to, parenthesised as Python needs), or `name` itself when the
user wrote that name; None when `name` is generated and its expression cannot be
rebuilt (bound more than once, by something other than a plain assignment, or nested
too deep), so the caller says it another way, never with the generated name.
"""

from __future__ import annotations

import ast
import copy
import re

import gast

from ..parse.shown import own_param
from ..parse.source import ParsedFunction
from .aliases import Aliases

_MAX_DEPTH = 8  # the operations of one user expression, one per temporary
_MAX_CHARS = 80  # longer rebuilt text is shortened to its outer operation


def is_generated(parsed: ParsedFunction, name: str) -> bool:
    """Whether `name` is a compiler temporary: `_`-prefixed and not in the user's source."""
    return name.startswith("_") and re.search(rf"\b{re.escape(name)}\b", parsed.source) is None


def spoken(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str | None:
    """The user's expression for `name` at `stmt` (see the module docstring)."""
    if not is_generated(parsed, name):
        return name
    param = own_param(name, parsed.node, parsed.source)  # a parameter's own copy
    if param is not None:
        return param
    expr = _rebuilt(aliases, stmt, name, parsed, _MAX_DEPTH)
    if expr is None:
        return None
    text = ast.unparse(expr)
    if len(text) > _MAX_CHARS:
        text = ast.unparse(_shortened(expr))
    return text


def quoted(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str:
    """`'y'` for a user's name, `` `y[1]` `` for a rebuilt expression, else "a value
    computed at line N" (never the generated name)."""
    text = spoken(parsed, aliases, stmt, name)
    if text is None:
        return f"a value computed at line {getattr(stmt, 'lineno', parsed.first_line)}"
    return repr(text) if re.fullmatch(r"\w+", text) else f"`{text}`"


def copied(text: str) -> str:
    """`text.copy()`, parenthesised where the expression needs it."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return f"({text}).copy()"
    atomic = isinstance(node, (ast.Name, ast.Subscript, ast.Call, ast.Attribute))
    return f"{text}.copy()" if atomic else f"({text}).copy()"


def _rebuilt(
    aliases: Aliases, stmt: gast.stmt, name: str, parsed: ParsedFunction, depth: int
) -> ast.expr | None:
    """The expression bound to temporary `name` before `stmt`, temporaries expanded."""
    memory = aliases.before.get(id(stmt))
    if depth == 0 or memory is None or len(memory.made.get(name, ())) != 1:
        return None
    made = aliases.made_at(stmt, name)
    if not (
        isinstance(made, gast.Assign)
        and len(made.targets) == 1
        and isinstance(made.targets[0], gast.Name)
        and made.targets[0].id == name
    ):
        return None
    expr = gast.gast_to_ast(copy.deepcopy(made.value))
    failed = False

    class Expand(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            nonlocal failed
            if not is_generated(parsed, node.id):
                return node
            param = own_param(node.id, parsed.node, parsed.source)
            if param is not None:
                return ast.Name(id=param, ctx=ast.Load())
            inner = _rebuilt(aliases, made, node.id, parsed, depth - 1)
            if inner is None:
                failed = True
                return node
            return inner

    expr = Expand().visit(expr)
    return None if failed else expr


def _shortened(expr: ast.expr) -> ast.expr:
    """A long call's arguments as `...` (`h2(...)[1]`): the outer operation shows which."""

    class Shorten(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            node.args = [ast.Constant(value=...)] if node.args or node.keywords else []
            node.keywords = []
            return node

    return Shorten().visit(copy.deepcopy(expr))
