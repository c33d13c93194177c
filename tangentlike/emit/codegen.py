"""Python source for generated functions, with comments naming original lines.

The only module that imports astor (and only `astor.to_source`). Every
constant is spelled first so that the text parses back to the same value
(emit/literals.py: negative numbers, nan, inf, complex); emit/roundtrip.py
checks that the text parses back to the tree it came from. Comments
are derived from standard `lineno` positions: a forward-sweep statement ends
with `# file.py:12`; each backward block opens with
`# grad of file.py:12  <original statement>`. A syntax.nodes.Comment prints as
`# text` and, when it names a sweep, says which sweep the statements after it
belong to.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

import astor
import gast

from ..syntax import nodes
from . import literals
from .to_ast import to_ast

COMMENT_COLUMN = 40


@dataclass(frozen=True)
class Origin:
    """Where generated statements came from: a file's basename and its lines."""

    basename: str
    line_text: Callable[[int], str]


def expr_source(node: gast.expr) -> str:
    return _to_source(gast.Expr(value=node)).strip()


def value_source(value: object) -> str:
    """Source text of a literal value (a module constant): it parses back to an equal
    value of the same type (emit/literals.py)."""
    text = astor.to_source(ast.Expr(value=literals.expression(value)), pretty_string=_one_line)
    return text.strip()


def _to_source(node: gast.AST) -> str:
    return astor.to_source(literals.spell(to_ast(node)), pretty_string=_one_line)


def _one_line(text: str, *args: object, **kwargs: object) -> str:
    """astor's choice of quotes for a string, but never a triple-quoted string across
    lines: each line is indented where it is printed, which would change the string."""
    chosen = astor.string_repr.pretty_string(text, *args, **kwargs)
    return chosen if "\n" not in chosen else repr(text)


def function_source(fn: gast.FunctionDef, origin: Origin | None) -> str:
    header = gast.FunctionDef(
        name=fn.name,
        args=fn.args,
        body=[gast.Pass()],
        decorator_list=[],
        returns=None,
        type_comment=None,
    )
    if "type_params" in gast.FunctionDef._fields:
        header.type_params = []
    head = _to_source(header).rstrip("\n").rsplit("\n", 1)[0]
    lines = [head]
    _Block(origin, "plain").emit(fn.body, 1, lines)
    return "\n".join(lines) + "\n"


class LazySource:
    """`fn`'s source (no origin comments), printed only when a log message is: a debug
    message's argument made eagerly costs some 3% of every cold build."""

    def __init__(self, fn: gast.FunctionDef) -> None:
        self.fn = fn

    def __str__(self) -> str:
        return function_source(self.fn, None)


class _Block:
    """Emits statements; `region` is 'plain', 'forward' or 'backward'."""

    def __init__(self, origin: Origin | None, region: str) -> None:
        self.origin = origin
        self.region = region
        self.last_line: int | None = None

    def emit(self, stmts: list[gast.stmt], depth: int, out: list[str]) -> None:
        pad = "    " * depth
        group_sizes = _line_groups(stmts)
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, nodes.Comment):
                self.region = stmt.sweep or self.region
                self.last_line = None
                out.append(f"{pad}# {stmt.text}")
                continue
            line = getattr(stmt, "lineno", None)
            if self.region == "backward" and self.origin and line and line != self.last_line:
                text = self.origin.line_text(line).strip()
                out.append(f"{pad}# grad of {self.origin.basename}:{line}  {text}".rstrip())
            self.last_line = line
            trailing = ""
            if self.region == "forward" and self.origin and line:
                trailing = f"# {self.origin.basename}:{line}"
                if group_sizes[i] > 1:
                    trailing += "  " + self.origin.line_text(line).strip()
            self.statement(stmt, depth, out, trailing)

    def statement(self, stmt: gast.stmt, depth: int, out: list[str], trailing: str) -> None:
        pad = "    " * depth
        if isinstance(stmt, gast.If):
            out.append(_with_comment(f"{pad}if {expr_source(stmt.test)}:", trailing))
            self.nested(stmt.body, depth, out)
            orelse = stmt.orelse
            while len(orelse) == 1 and _same_line_if(orelse[0], stmt):
                out.append(f"{pad}elif {expr_source(orelse[0].test)}:")
                self.nested(orelse[0].body, depth, out)
                orelse = orelse[0].orelse
            if orelse:
                out.append(f"{pad}else:")
                self.nested(orelse, depth, out)
            return
        if isinstance(stmt, (gast.For, gast.While)):
            if isinstance(stmt, gast.For):
                head = f"{pad}for {expr_source(stmt.target)} in {expr_source(stmt.iter)}:"
            else:
                head = f"{pad}while {expr_source(stmt.test)}:"
            out.append(_with_comment(head, trailing))
            self.nested(stmt.body, depth, out)
            if stmt.orelse:  # none after normalize/jumps; a user's function may have one
                out.append(f"{pad}else:")
                self.nested(stmt.orelse, depth, out)
            return
        if (
            isinstance(stmt, gast.Return)
            and isinstance(stmt.value, gast.Tuple)
            and len(stmt.value.elts) == 1
        ):  # `return (g,)`: astor's `return g,` hides that a tuple is returned
            text = f"return ({expr_source(stmt.value.elts[0])},)".split("\n")
        else:
            text = _to_source(stmt).rstrip("\n").split("\n")
        for j, part in enumerate(text):
            suffix = trailing if j == len(text) - 1 else ""
            out.append(_with_comment(pad + part, suffix))

    def nested(self, body: list[gast.stmt], depth: int, out: list[str]) -> None:
        inner = _Block(self.origin, self.region)
        inner.last_line = self.last_line
        inner.emit(body or [gast.Pass()], depth + 1, out)


def _same_line_if(stmt: gast.stmt, outer: gast.If) -> bool:
    """An `if` in an else branch that can print as `elif` (no comment of its own lost)."""
    line = getattr(stmt, "lineno", None)
    return isinstance(stmt, gast.If) and line in (None, getattr(outer, "lineno", None))


def _with_comment(code: str, comment: str) -> str:
    if not comment:
        return code
    return f"{code.ljust(COMMENT_COLUMN - 2)}  {comment}"


def _line_groups(stmts: list[gast.stmt]) -> list[int]:
    """For each statement, how many consecutive simple statements share its line (or 0)."""
    sizes = [0] * len(stmts)
    i = 0
    while i < len(stmts):
        line = getattr(stmts[i], "lineno", None)
        j = i
        while (
            j < len(stmts)
            and getattr(stmts[j], "lineno", None) == line
            and not isinstance(stmts[j], (gast.If, gast.For, gast.While))
        ):
            j += 1
        if j == i:
            j = i + 1
        sizes[i] = j - i
        i = j
    return sizes
