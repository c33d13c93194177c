"""Names the run-time memory checks of transform.in_place read where they may be unbound.

The checks that lowering updates in place adds (`untouched(y, (v,), ...)`,
`unshared`, `same_memory`, `same_array`, `kept_apart`, `part_of`, `numeric_item`)
read the names that may share the updated memory and are read afterwards. The
aliases analysis keeps the facts of a name bound on one path only (analyze/memory.py,
`Memory.join`), so such a name may be unbound where the check runs: `if c: v =
y[::-1]; y = y + v` ... `np.multiply(y, y, out=y)` ... `if c: s += f(v)` asks about v
where c is false, an UnboundLocalError in generated code (fuzz seed 13 program 99,
under hvp: a gradient's forward temporaries are bound under the same tests).

A name unbound where the check runs holds no memory there, and whatever a later read
of it sees is bound after the update: it shares nothing the update changes, which is
what each check answers for None. So each such name is bound to None at the function's
entry; every other read of it is the program's own, which on the paths where the name
was unbound would have failed, and on the others sees the value bound after None.

Assumes: A-normal form (analyze.flow), the checks as in_place emits them (a call of the
runtime helper as an expression statement or an assignment's value).
Guarantees: every local a check reads is bound where it runs; nothing else changes.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import flow as flow_analysis
from ..syntax import nodes
from ..syntax.namespace import Namespace

CHECKS = (
    runtime.untouched,
    runtime.unshared,
    runtime.same_memory,
    runtime.same_array,
    runtime.kept_apart,
    runtime.part_of,
    runtime.numeric_item,
)


def prebind(fn: gast.FunctionDef, namespace: Namespace) -> None:
    """Bind to None at fn's entry each local a check reads where it may be unbound."""
    params = nodes.all_param_names(fn)
    locals_ = set(params)
    for stmt in fn.body:
        locals_ |= nodes.names_stored(stmt)
    flow = flow_analysis.analyze(fn, params)
    unsure: set[str] = set()
    for stmt in _statements(fn.body):
        call = stmt.value if isinstance(stmt, (gast.Expr, gast.Assign)) else None
        if not _is_check(call, namespace):
            continue
        read = set().union(*(nodes.names_read(a) for a in call.args)) & locals_
        unsure |= read - flow.bound_before.get(id(stmt), frozenset(params))
    if unsure:
        pre = [nodes.located(nodes.assign(n, nodes.const(None)), fn) for n in sorted(unsure)]
        fn.body[:0] = pre


def _is_check(call: gast.expr | None, namespace: Namespace) -> bool:
    if not isinstance(call, gast.Call) or not isinstance(call.func, gast.Name):
        return False
    found = namespace.objects.get(call.func.id)
    return any(found is c for c in CHECKS)


def _statements(stmts: list[gast.stmt]):
    for stmt in stmts:
        yield stmt
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list):
                yield from _statements(inner)
