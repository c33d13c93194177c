"""Check that emitted source parses back to the tree it was emitted from.

`check(tree, text)` parses `text` and compares it with `tree` (a gast or ast
FunctionDef, statement, list of statements or expression), field by field.
Only what is genuinely the same program is treated as equal:

- a negative number and unary minus applied to the number (`Constant(-1.1)`
  and `-(1.1)`), nan and its spellings `float('nan')` and `1e1000 - 1e1000`
  (as computed here), a complex constant and `real + imag j` or
  `complex(real, imag)`, a tuple constant and a tuple display of constants
  (emit/literals.py), and every constant against an equal one of the same type
  (nan equals nan; the signs of zeros and nans count, complex parts included);
- what printing drops or adds: `pass` in an empty block, the banner statements
  the emitter prints as comments (syntax.nodes.Comment), a FunctionDef's decorators and
  return annotation (the emitter writes neither), expression contexts, source
  positions, `kind` and `type_comment`.

Anything else that differs (an operator bound differently, a lost `else`, a
changed constant) raises `InternalError` naming the emitted line and both
subtrees. Cheap enough to run on every build (one `ast.parse` per function).
"""

from __future__ import annotations

import ast
import functools
import math

import gast

from ..errors import InternalError

_IGNORED = frozenset(
    {"ctx", "kind", "type_comment", "lineno", "col_offset", "end_lineno", "end_col_offset"}
)


def check(tree: gast.AST | ast.AST | list, text: str) -> None:
    """Raise `InternalError` unless `text` parses to the same program as `tree`.

    `tree` is what was printed (a gast or ast FunctionDef, statement, list of
    statements, or expression), `text` the printed source. Returns None when they
    match. The pipeline calls it on every function it emits (ModuleBuilder._emit).
    """
    try:
        parsed = parse(text)
    except SyntaxError as err:
        line = (err.text or "").rstrip("\n")
        raise InternalError(
            f"generated source does not parse ({err.msg}, line {err.lineno}): {line.strip()}"
        ) from None
    mismatch = _compare_lists(_statements(tree), parsed.body, None)
    if mismatch is not None:
        raise InternalError(_describe(mismatch, text.splitlines()))


@functools.lru_cache(maxsize=32)
def parse(text: str) -> ast.Module:
    """`ast.parse(text)`, remembered for the texts of the build under way: the module
    renderer (emit/module.py) reads the names of each function text this module has just
    checked, then forgets them. Callers only read the tree, never change it."""
    return ast.parse(text)


def _statements(tree: gast.AST | ast.AST | list) -> list[object]:
    items = tree if isinstance(tree, list) else [tree]
    if len(items) == 1 and isinstance(items[0], (gast.expr, ast.expr)):
        return [ast.Expr(value=items[0])]
    return items


def _kind(node: object) -> str:
    """The class name of a gast or ast node (gast mirrors ast's names)."""
    return type(node).__name__


def _fold(node: object) -> object:
    """The canonical form of an expression's top: a negative number, nan or complex
    spelling folded into the Constant it denotes (children are folded when compared)."""
    kind = _kind(node)
    if kind == "UnaryOp" and _kind(node.op) == "USub":
        operand = _fold(node.operand)
        if _is_number(operand):
            return ast.Constant(-operand.value)
    elif kind == "BinOp" and _kind(node.op) in ("Add", "Sub"):
        left, right = _fold(node.left), _fold(node.right)
        if _is_number(left) and _is_number(right):
            a, b = left.value, right.value
            if _kind(node.op) == "Sub" and _is_inf(a) and _is_inf(b) and a == b:
                return ast.Constant(a - b)  # nan (complex nan for 1e1000j - 1e1000j)
            if type(b) is complex and b.real == 0 and type(a) in (int, float):
                return ast.Constant(a + b if _kind(node.op) == "Add" else a - b)
    elif kind == "Call" and _kind(node.func) == "Name" and not node.keywords:
        args = [_fold(a) for a in node.args]
        if node.func.id == "float" and [_value(a) for a in args] == ["nan"]:
            return ast.Constant(float("nan"))
        reals = [a.value for a in args if _is_number(a) and type(a.value) in (int, float)]
        if node.func.id == "complex" and len(args) == len(reals) == 2:
            return ast.Constant(complex(*reals))
    elif kind == "Tuple" and _kind(node.ctx) == "Load":
        items = [_fold(e) for e in node.elts]
        if all(_kind(e) == "Constant" for e in items):
            return ast.Constant(tuple(e.value for e in items))
    return node


def _dropped(stmt: object) -> bool:
    """`pass` (an empty block prints as one) and comments (syntax.nodes.Comment)."""
    return _kind(stmt) in ("Pass", "Comment")


def _value(node: object) -> object:
    return node.value if _kind(node) == "Constant" else None


def _is_number(node: object) -> bool:
    return _kind(node) == "Constant" and type(node.value) in (int, float, complex)


def _is_inf(value: object) -> bool:
    if type(value) is complex:
        return value.real == 0 and math.isinf(value.imag)
    return type(value) is float and math.isinf(value)


def _same_value(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is float:
        same_nan = math.isnan(a) == math.isnan(b)  # nan equals nan of the same sign
        return same_nan and (a == b or math.isnan(a)) and _sign(a) == _sign(b)
    if type(a) is complex:
        return _same_value(a.real, b.real) and _same_value(a.imag, b.imag)
    return a == b


def _sign(x: float) -> float:
    return math.copysign(1.0, x)


# A mismatch: (expected node, node parsed back, the statement parsed back holding it)
_Mismatch = tuple[object, object, ast.stmt | None]


def _compare_lists(expected: list, got: list, stmt: ast.stmt | None) -> _Mismatch | None:
    expected = [e for e in expected if not _dropped(e)]
    got = [g for g in got if not _dropped(g)]
    for e, g in zip(expected, got, strict=False):
        found = _compare(e, g, stmt)
        if found is not None:
            return found
    if len(expected) > len(got):
        return expected[len(got)], None, stmt
    if len(got) > len(expected):
        extra = got[len(expected)]
        return None, extra, extra if isinstance(extra, ast.stmt) else stmt
    return None


def _compare(expected: object, got: object, stmt: ast.stmt | None) -> _Mismatch | None:
    if isinstance(expected, list) and isinstance(got, list):
        return _compare_lists(expected, got, stmt)
    if not isinstance(expected, (gast.AST, ast.AST)) or not isinstance(got, ast.AST):
        return None if _same_value(expected, got) else (expected, got, stmt)
    if isinstance(got, ast.stmt):
        stmt = got
    expected, got = _fold(expected), _fold(got)
    kind = _kind(got)
    if kind == "arg" and _kind(expected) == "Name":  # gast spells parameters as Names
        pairs = [("id", "arg"), ("annotation", "annotation")]
    elif kind != _kind(expected):
        return expected, got, stmt
    elif kind == "FunctionDef":  # the emitter writes no decorators and no annotation
        pairs = [("name", "name"), ("args", "args"), ("body", "body")]
    else:
        pairs = [(f, f) for f in got._fields if f not in _IGNORED]
    for mine, theirs in pairs:
        found = _compare(getattr(expected, mine, None), getattr(got, theirs, None), stmt)
        if found is not None:
            if not isinstance(found[0], (gast.AST, ast.AST)) and not isinstance(found[1], ast.AST):
                return expected, got, found[2]  # a differing value: show its node
            return found
    return None


def _describe(mismatch: _Mismatch, lines: list[str]) -> str:
    expected, got, stmt = mismatch
    where = ""
    if stmt is not None and getattr(stmt, "lineno", None):
        where = f" in the emitted line `{lines[stmt.lineno - 1].strip()}`"
    return (
        f"generated source does not mean what was emitted{where}:\n"
        f"    emitted from: {_dump(expected)}\n"
        f"    parses as:    {_dump(got)}"
    )


def _dump(node: object) -> str:
    if isinstance(node, gast.AST):
        node = gast.gast_to_ast(node)
    if isinstance(node, ast.AST):
        return ast.dump(node)
    return "nothing" if node is None else repr(node)
