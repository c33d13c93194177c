"""Constants spelled so that printed source parses back to the same value.

A printer that writes a constant with `repr` changes its meaning wherever
precedence binds tighter than the sign: `Constant(-1.1) ** 2` prints as
`-1.1 ** 2`, which Python parses as `-(1.1 ** 2)`. `repr` also writes `nan` and
`inf`, names no generated module defines. So before printing, every numeric
constant becomes the expression Python parses its own text as:

    -1.1        -> UnaryOp(USub, 1.1)     printed `-1.1`, or `(-1.1)` where needed
    -0.0        -> UnaryOp(USub, 0.0)
    inf, -inf   -> 1e1000, UnaryOp(USub, 1e1000)
    nan, -nan   -> float('nan'), -float('nan')
    1.5-2j      -> BinOp(1.5 - 2j)        complex(r, i) where no sum has the parts

and the printer's own precedence rules (parentheses around an operator where
the context needs them) do the rest. Guarantees: the printed expression
evaluates to a value of the same type that is equal to the constant, with the
same sign of every zero and nan (not `inf - inf`, whose sign depends on the
platform), complex parts included. A nan, or a complex number whose parts no
literal sum has, assumes `float` and `complex` name the builtins where it is
printed (such constants come only from folded values, never from source). A constant
holding a tuple (a rule's default `axes=(0, 1)`) becomes a tuple display of
spelled items. A constant of any other type (a NumPy scalar, an arbitrary
object) has no faithful spelling: `InternalError`, never a guess. Only the
exact types bool, int, float, complex, str, bytes, None and Ellipsis are
literals.
"""

from __future__ import annotations

import ast
import math

from ..errors import InternalError
from ..syntax.nodes import LITERAL_TYPES, is_literal

__all__ = ["constant", "expression", "is_literal", "spell"]


def spell(tree: ast.AST) -> ast.AST:
    """Rewrite every Constant of `tree` (a fresh `ast` tree, modified in place) into its
    faithful spelling; returns the tree."""
    if isinstance(tree, ast.Constant):
        return _spelled(tree)
    _spell_under(tree)
    return tree


def _spell_under(node: ast.AST) -> None:
    """Spell the constants under `node`, depth first in field order (what an
    ast.NodeTransformer visiting Constants does, without its per-node dispatch: every
    emitted statement goes through here)."""
    for field in node._fields:
        try:
            value = getattr(node, field)
        except AttributeError:
            continue
        if isinstance(value, ast.Constant):
            setattr(node, field, _spelled(value))
        elif isinstance(value, ast.AST):
            _spell_under(value)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.Constant):
                    value[i] = _spelled(item)
                elif isinstance(item, ast.AST):
                    _spell_under(item)


def _spelled(node: ast.Constant) -> ast.expr:
    if isinstance(node.value, str):
        return node  # strings (also the parts of an f-string) print as they are
    return ast.copy_location(expression(node.value), node)  # a tuple: a tuple display


def expression(value: object) -> ast.expr:
    """An `ast` expression that evaluates to `value`: a literal, or a tuple or frozenset of
    them (module constants). `InternalError` for anything else."""
    if isinstance(value, tuple) and type(value) is tuple:
        return ast.Tuple(elts=[expression(v) for v in value], ctx=ast.Load())
    if type(value) is frozenset:
        items = [expression(v) for v in sorted(value, key=repr)]
        args = [ast.Set(elts=items)] if items else []
        return ast.Call(func=ast.Name(id="frozenset", ctx=ast.Load()), args=args, keywords=[])
    return constant(value)


def constant(value: object) -> ast.expr:
    """The spelling of one literal value (see the module docstring)."""
    kind = type(value)
    if kind not in LITERAL_TYPES:
        raise InternalError(
            f"a constant of type {kind.__module__}.{kind.__qualname__} ({value!r}) has no "
            "literal spelling in generated source"
        )
    if kind is int:
        return _negated(ast.Constant(-value)) if value < 0 else ast.Constant(value)
    if kind is float:
        return _float(value)
    if kind is complex:
        return _complex(value)
    return ast.Constant(value)


def _negated(operand: ast.expr) -> ast.expr:
    return ast.UnaryOp(op=ast.USub(), operand=operand)


def _call(builtin: str, args: list[ast.expr]) -> ast.expr:
    return ast.Call(func=ast.Name(id=builtin, ctx=ast.Load()), args=args, keywords=[])


def _float(value: float) -> ast.expr:
    negative = math.copysign(1.0, value) < 0
    if math.isnan(value):  # `inf - inf` would give the platform's nan, of either sign
        nan = _call("float", [ast.Constant("nan")])
        return _negated(nan) if negative else nan
    if negative:
        return _negated(ast.Constant(-value))
    return ast.Constant(value)  # finite or inf: the printer writes inf as 1e1000


def _complex(value: complex) -> ast.expr:
    real, imag = value.real, value.imag
    if math.isnan(imag) or _is_negative_zero(imag) or (_is_negative_zero(real) and imag >= 0):
        # no literal sum has these parts (0.0 - 0j has a positive imaginary zero)
        return _call("complex", [_float(real), _float(imag)])
    if real == 0.0 and not _is_negative_zero(real) and imag >= 0:
        return ast.Constant(complex(0.0, imag))  # `2j`
    # real + imag j, exact for these parts (the real part of `-0.0 - 1j` stays -0.0)
    op = ast.Sub() if imag < 0 else ast.Add()
    return ast.BinOp(left=_float(real), op=op, right=ast.Constant(complex(0.0, abs(imag))))


def _is_negative_zero(x: float) -> bool:
    return x == 0.0 and math.copysign(1.0, x) < 0
