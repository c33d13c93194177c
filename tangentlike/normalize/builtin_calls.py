"""Give builtins of several arguments the one form their rule takes.

`max(a, b, c)` and `min(a, b, c)` become `max((a, b, c))`: with key=None they
are the same call, and one rule over an iterable (rules/builtins.py) covers
both forms. `math.hypot(a, b, c)` becomes `math.hypot(math.hypot(a, b), c)`
(hypot is associative up to rounding): the rule has two arguments.

Assumes: the fence passed. Guarantees: the rewritten calls compute what they
computed (max and min return the same object; hypot the same value to within
rounding); calls with starred arguments or keywords other than `key=None` for
max and min are left as written (their refusal names them).
"""

from __future__ import annotations

import builtins
import math

import gast

from ..parse.resolve import Scope
from ..syntax import nodes

_AS_TUPLE = (builtins.max, builtins.min)
_FOLDED = (math.hypot,)


def run(fn: gast.FunctionDef, scope: Scope) -> gast.FunctionDef:
    _Rewrite(scope).visit(fn)
    return fn


class _Rewrite(gast.NodeTransformer):
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        if len(node.args) < 2 or any(isinstance(a, gast.Starred) for a in node.args):
            return node
        return one_form(node, self.scope.resolve(node.func))


def one_form(node: gast.Call, callee: object) -> gast.expr:
    """`node`, a call of `callee`, in the one form its rule takes (unchanged if none)."""
    if len(node.args) < 2 or any(isinstance(a, gast.Starred) for a in node.args):
        return node
    if any(callee is f for f in _AS_TUPLE) and not node.keywords:
        node.args = [nodes.tuple_(node.args)]
    elif any(callee is f for f in _FOLDED) and not node.keywords and len(node.args) > 2:
        folded = node.args[0]
        for arg in node.args[1:]:
            folded = gast.Call(func=nodes.deepcopy(node.func), args=[folded, arg], keywords=[])
        return gast.copy_location(folded, node)
    return node
