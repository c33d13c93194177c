"""Masks: rewrite the constructs of known bug classes away, to find the failures
that remain (`python -m tests.fuzz --mask all`).

While a class of bugs is open, nearly every random program contains one of its
constructs, and its failures hide everything else. A mask rewrites a program into
one without that construct; the masked program is then the program under test
(its reference is computed from the masked text too), so a masked run reports
only failures outside the masked classes:

- negative-base: `(-c) ** e` becomes `(0.0 - c) ** e` (issue 10, class 1);
- modulo: `a % b` (b not an int literal), `np.mod(a, b)` become `a - np.floor(a / b) * b`,
  and `np.fmod(a, b)` becomes `a - np.trunc(a / b) * b` (class 3);
- concat: `np.r_[a, b]` becomes `np.concatenate([a, b])`, `np.c_[a, b]`
  becomes `np.column_stack([a, b])` (class 3);
- inplace: `t op= e` on a name becomes `t = t op e`, and a statement
  `np.f(..., out=c)` becomes `c = np.f(...)` (class 4; index writes stay).
"""

from __future__ import annotations

import ast

from .generator import normalize


def _np(attr: str) -> ast.Attribute:
    return ast.Attribute(ast.Name("np", ast.Load()), attr, ast.Load())


def _call(attr: str, *args: ast.expr) -> ast.Call:
    return ast.Call(_np(attr), list(args), [])


class _NegativeBase(ast.NodeTransformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        left = node.left
        if (
            isinstance(node.op, ast.Pow)
            and isinstance(left, ast.UnaryOp)
            and isinstance(left.op, ast.USub)
            and isinstance(left.operand, ast.Constant)
        ):
            node.left = ast.BinOp(ast.Constant(0.0), ast.Sub(), left.operand)
        return node


def _remainder(a: ast.expr, b: ast.expr, rounding: str) -> ast.expr:
    ratio = _call(rounding, ast.BinOp(a, ast.Div(), b))
    return ast.BinOp(a, ast.Sub(), ast.BinOp(ratio, ast.Mult(), b))


class _Modulo(ast.NodeTransformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        right = node.right
        integer = isinstance(right, ast.Constant) and type(right.value) is int
        if isinstance(node.op, ast.Mod) and not integer:  # i % 4 indexes: leave ints alone
            return _remainder(node.left, right, "floor")
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and len(node.args) == 2 and not node.keywords:
            rounding = {"mod": "floor", "remainder": "floor", "fmod": "trunc"}.get(func.attr)
            if rounding and isinstance(func.value, ast.Name) and func.value.id == "np":
                return _remainder(node.args[0], node.args[1], rounding)
        return node


class _Concat(ast.NodeTransformer):
    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr in ("r_", "c_"):
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            fn = "concatenate" if value.attr == "r_" else "column_stack"
            return _call(fn, ast.List(list(items), ast.Load()))
        return node


class _OutOfPlace(ast.NodeTransformer):
    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        if not isinstance(node.target, ast.Name):
            return node
        value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value)
        return ast.Assign([ast.Name(node.target.id, ast.Store())], value)

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        call = node.value
        if not isinstance(call, ast.Call):
            return node
        out = [k for k in call.keywords if k.arg == "out"]
        if not out or not isinstance(out[0].value, ast.Name):
            return node
        call.keywords = [k for k in call.keywords if k.arg != "out"]
        return ast.Assign([ast.Name(out[0].value.id, ast.Store())], call)


MASKS: dict[str, type[ast.NodeTransformer]] = {
    "negative-base": _NegativeBase,
    "modulo": _Modulo,
    "concat": _Concat,
    "inplace": _OutOfPlace,
}


def names(spec: str) -> tuple[str, ...]:
    """'all', '' or a comma-separated list of mask names, checked."""
    if spec == "all":
        return tuple(MASKS)
    chosen = tuple(s for s in spec.split(",") if s)
    unknown = [s for s in chosen if s not in MASKS]
    if unknown:
        raise ValueError(f"unknown mask {unknown}; masks are {', '.join(MASKS)}")
    return chosen


def mask(source: str, chosen: tuple[str, ...]) -> str:
    if not chosen:
        return source
    tree = ast.parse(source)
    for name in chosen:
        tree = MASKS[name]().visit(tree)
    return normalize(ast.unparse(ast.fix_missing_locations(tree)))
