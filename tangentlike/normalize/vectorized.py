"""Lower `np.vectorize(h)(x)` to a comprehension over x's entries, so h's body is
differentiated like any user function's: `vectorized([h(_e) for _e in np.ravel(x)], x)`
(runtime/vectorized.py makes the results an array of x's shape and vectorize's dtype);
likewise `np.apply_along_axis(h, axis, a, *args)` to
`along_axis([h(_r, *args) for _r in rows_along(a, axis)], a, axis)`.

Assumes: the fence passed; runs before comprehensions. Guarantees: every call of a
`np.vectorize(h)` object made in place is lowered or refused with its location: one
argument, a name or a literal (read twice: it must not be recomputed), no keywords to
either call (otypes, excluded, signature: refused).
Invalidates: every analysis.
"""

from __future__ import annotations

import gast
import numpy as np

from .. import runtime
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace


def run(
    fn: gast.FunctionDef, parsed: ParsedFunction, namer: Namer, namespace: Namespace, scope: Scope
) -> gast.FunctionDef:
    _Lowering(parsed, namer, namespace, scope).visit(fn)
    return fn


class _Lowering(gast.NodeTransformer):
    def __init__(self, parsed, namer, namespace, scope) -> None:
        self.parsed: ParsedFunction = parsed
        self.namer: Namer = namer
        self.namespace: Namespace = namespace
        self.scope: Scope = scope

    def denotes(self, func: gast.expr, target: object) -> bool:
        """Whether `func` denotes `target`, recorded (for the guards) only when it does: a
        resolution of every call's function would record bound methods (`M.forward`),
        which the disk cache cannot find again, and the build would not be stored."""
        recorder = getattr(self.scope, "recorder", None)
        if recorder is not None:  # a look first, unrecorded
            self.scope.recorder = None
            try:
                found = self.scope.resolve(func)
            finally:
                self.scope.recorder = recorder
            if found is not target:
                return False
        return self.scope.resolve(func) is target

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        if self.denotes(node.func, np.apply_along_axis):
            return self.along_axis(node)
        maker = node.func
        if not (isinstance(maker, gast.Call) and self.denotes(maker.func, np.vectorize)):
            return node
        plain = len(maker.args) == 1 and not maker.keywords and not node.keywords
        if not plain or len(node.args) != 1 or isinstance(node.args[0], gast.Starred):
            raise self.parsed.error(
                node,
                "np.vectorize(h)(...) is differentiated for one argument and no keywords only",
                "write the loop: out = np.zeros(n); for i in range(n): out[i] = h(x[i], y[i])",
            )
        x = node.args[0]
        if not isinstance(x, (gast.Name, gast.Constant)):
            raise self.parsed.error(
                x,
                "the argument of np.vectorize(h)(...) is read twice (its entries and its shape)",
                "assign it to a variable first",
            )
        entry = self.namer.temp("e")
        ravel = nodes.name(self.namespace.bind("ravel", np.ravel, self.namer))
        each = gast.comprehension(
            target=nodes.name(entry, store=True),
            iter=nodes.call(ravel, [nodes.deepcopy(x)]),
            ifs=[],
            is_async=0,
        )
        call = nodes.call(nodes.deepcopy(maker.args[0]), [nodes.name(entry)])
        results = gast.ListComp(elt=call, generators=[each])
        helper = nodes.name(self.namespace.bind("vectorized", runtime.vectorized, self.namer))
        return gast.copy_location(nodes.call(helper, [results, nodes.deepcopy(x)]), node)

    def along_axis(self, node: gast.Call) -> gast.expr:
        """`np.apply_along_axis(h, axis, a, *args)` as
        `along_axis([h(_r, *args) for _r in rows_along(a, axis)], a, axis)`."""
        atoms = all(_atom(a) for a in node.args[1:])
        if len(node.args) < 3 or node.keywords or not atoms:
            raise self.parsed.error(
                node,
                "np.apply_along_axis is differentiated with its arguments given by position, "
                "as names or literals, only",
                "assign the arguments to variables first, and pass them by position",
            )
        func, axis, arr, *extra = node.args
        row = self.namer.temp("r")
        rows = nodes.name(self.namespace.bind("rows_along", runtime.rows_along, self.namer))
        each = gast.comprehension(
            target=nodes.name(row, store=True),
            iter=nodes.call(rows, [nodes.deepcopy(arr), nodes.deepcopy(axis)]),
            ifs=[],
            is_async=0,
        )
        args = [nodes.name(row), *(nodes.deepcopy(e) for e in extra)]
        results = gast.ListComp(elt=nodes.call(nodes.deepcopy(func), args), generators=[each])
        helper = nodes.name(self.namespace.bind("along_axis", runtime.along_axis, self.namer))
        call = nodes.call(helper, [results, nodes.deepcopy(arr), nodes.deepcopy(axis)])
        return gast.copy_location(call, node)


def _atom(node: gast.expr) -> bool:
    """A name or a literal (-1 too): evaluating it once per row changes nothing."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        node = node.operand
    return isinstance(node, (gast.Name, gast.Constant))
