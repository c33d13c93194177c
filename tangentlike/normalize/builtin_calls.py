"""Give builtins of several arguments the one form their rule takes.

`enumerate(xs, start=k)` becomes `enumerate(xs, k)` and `zip(..., strict=False)`
`zip(...)` (`zip(..., strict=True)` stays: a loop over it iterates a list of it).
`max(a, b, c)` and `min(a, b, c)` become `max((a, b, c))`: with key=None they
are the same call, and one rule over an iterable (rules/builtins.py) covers
both forms. `math.hypot(a, b, c)` becomes `math.hypot(math.hypot(a, b), c)`
(hypot is associative up to rounding): the rule has two arguments. The functions
of the `operator` module for arithmetic (`operator.mul(a, b)`, `operator.neg(a)`)
become the operators they are (`a * b`, `-a`). `np.einsum` in sublist form with
literal sublists (`np.einsum(a, [0, 1], b, [1, 2], [0, 2])`) becomes the subscript
form (`np.einsum("ab,bc->ac", a, b)`), the one its rule takes.

Assumes: the fence passed. Guarantees: the rewritten calls compute what they
computed (max and min return the same object; hypot the same value to within
rounding); calls with starred arguments or keywords other than `key=None` for
max and min are left as written (their refusal names them).
"""

from __future__ import annotations

import builtins
import math
import operator

import gast
import numpy as np

from ..parse.resolve import Scope
from ..syntax import nodes

_AS_TUPLE = (builtins.max, builtins.min)
_FOLDED = (math.hypot,)
_BINARY = {
    operator.add: gast.Add,
    operator.sub: gast.Sub,
    operator.mul: gast.Mult,
    operator.truediv: gast.Div,
    operator.floordiv: gast.FloorDiv,
    operator.mod: gast.Mod,
    operator.pow: gast.Pow,
    operator.matmul: gast.MatMult,
}
_UNARY = {operator.neg: gast.USub, operator.pos: gast.UAdd}


def _keywords_as_written(node: gast.Call, callee: object) -> None:
    """`enumerate(xs, start=k)` as `enumerate(xs, k)`, and `zip(..., strict=False)` as
    `zip(...)`: the forms the loop lowering (normalize/desugar.py) indexes."""
    if len(node.keywords) != 1:
        return
    keyword = node.keywords[0]
    if callee is builtins.enumerate and keyword.arg == "start" and len(node.args) == 1:
        node.args.append(keyword.value)
        node.keywords = []
    elif (
        callee is builtins.zip
        and keyword.arg == "strict"
        and isinstance(keyword.value, gast.Constant)
        and keyword.value.value is False
    ):
        node.keywords = []


def run(fn: gast.FunctionDef, scope: Scope) -> gast.FunctionDef:
    _Rewrite(scope).visit(fn)
    return fn


class _Rewrite(gast.NodeTransformer):
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        if not node.args or any(isinstance(a, gast.Starred) for a in node.args):
            return node
        callee = self.scope.resolve(node.func)
        _keywords_as_written(node, callee)
        return one_form(node, callee)


def one_form(node: gast.Call, callee: object) -> gast.expr:
    """`node`, a call of `callee`, in the one form its rule takes (unchanged if none)."""
    if any(isinstance(a, gast.Starred) for a in node.args) or node.keywords:
        return node
    if callee is np.einsum:
        return _einsum_subscripts(node)
    operator_form = _as_operator(node, callee)
    if operator_form is not None or len(node.args) < 2:
        return operator_form or node
    if any(callee is f for f in _AS_TUPLE) and not node.keywords:
        node.args = [nodes.tuple_(node.args)]
    elif any(callee is f for f in _FOLDED) and not node.keywords and len(node.args) > 2:
        folded = node.args[0]
        for arg in node.args[1:]:
            folded = gast.Call(func=nodes.deepcopy(node.func), args=[folded, arg], keywords=[])
        return gast.copy_location(folded, node)
    return node


def _as_operator(node: gast.Call, callee: object) -> gast.expr | None:
    """`operator.mul(a, b)` as `a * b`, `operator.neg(a)` as `-a`; None for other calls."""
    try:
        binary, unary = _BINARY.get(callee), _UNARY.get(callee)
    except TypeError:  # an unhashable callee
        return None
    if binary is not None and len(node.args) == 2:
        op = gast.BinOp(left=node.args[0], op=binary(), right=node.args[1])
    elif unary is not None and len(node.args) == 1:
        op = gast.UnaryOp(op=unary(), operand=node.args[0])
    else:
        return None
    return gast.copy_location(op, node)


def _einsum_subscripts(node: gast.Call) -> gast.Call:
    """`np.einsum(a, [0, 1], b, [1, 2], [0, 2])` as `np.einsum("ab,bc->ac", a, b)` when
    every sublist is a literal list or tuple of small integers (or `...`)."""
    args = node.args
    if not args or (isinstance(args[0], gast.Constant) and isinstance(args[0].value, str)):
        return node
    has_output = len(args) % 2 == 1
    operands = args[0:-1:2] if has_output else args[0::2]
    sublists = [_letters(a) for a in args[1::2]] + ([_letters(args[-1])] if has_output else [])
    if len(args) < 2 or any(s is None for s in sublists):
        return node
    subscripts = ",".join(sublists[: len(operands)])
    if has_output:
        subscripts += "->" + sublists[-1]
    node.args = [gast.Constant(value=subscripts, kind=None), *operands]
    return node


def _letters(sublist: gast.expr) -> str | None:
    """A literal sublist as einsum letters (0 -> a, 26 -> A, ... -> ...); None otherwise."""
    if not isinstance(sublist, (gast.List, gast.Tuple)):
        return None
    out = ""
    for item in sublist.elts:
        if isinstance(item, gast.Constant) and item.value is Ellipsis:
            out += "..."
        elif isinstance(item, gast.Constant) and type(item.value) is int and 0 <= item.value < 52:
            k = item.value
            out += chr(ord("a") + k) if k < 26 else chr(ord("A") + k - 26)
        else:
            return None
    return out
