"""No run-time check that `x.copy()` is np.copy where x is known to be an array.

normalize/anf_expressions.py writes `x.copy()` as `copies_array(x, where)` then
`np.copy(x)`: a list's or dict's .copy() is a shallow copy, which np.copy is not.

Assumes: a build specialised to calls passing the parameters of `job.arrays` NumPy
arrays (the wrapper runs it for no other call).
Guarantees: a check `copies_array(p, ...)` is dropped only for such a parameter p that
the function never rebinds (so p is that array wherever the check runs); every other
check stays.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..job import Job
from ..syntax.nodes import walk
from .accumulate import Resolve


def run(fn: gast.FunctionDef, job: Job, resolve: Resolve) -> gast.FunctionDef:
    """Drop the checks of `fn` that the specialisation answers (see the module docstring)."""
    if not job.arrays:
        return fn
    stored = {n.id for n in walk(fn) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    params = {a.id for a in fn.args.args if isinstance(a, gast.Name)}
    arrays = {p for p, _ in job.arrays if p in params and p not in stored}
    if arrays:
        _drop(fn.body, arrays, resolve)
    return fn


def _drop(stmts: list[gast.stmt], arrays: set[str], resolve: Resolve) -> None:
    kept = [s for s in stmts if not _answered(s, arrays, resolve)]
    stmts[:] = kept or [gast.Pass()]
    for stmt in kept:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner:
                _drop(inner, arrays, resolve)


def _answered(stmt: gast.stmt, arrays: set[str], resolve: Resolve) -> bool:
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return False
    call = stmt.value
    try:
        checks_copy = resolve(call.func) is runtime.copies_array
    except TypeError:
        return False
    return (
        checks_copy
        and bool(call.args)
        and isinstance(call.args[0], gast.Name)
        and call.args[0].id in arrays
    )
