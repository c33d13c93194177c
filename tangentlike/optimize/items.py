"""Items of float64 vectors, for optimize/numbers.py: `x[i]` is a NumPy float64 number.

In a build specialised to calls passing the parameter x a float64 array of one
dimension (job.Job.doubles and job.Job.arrays), `x[i]` with i an int is a NumPy
float64, a subclass of float: `math.exp(x[i] - m)` takes it as the float it is, and
arithmetic on it is float arithmetic (NumPy returns inf or nan where float raises:
the wrapper reruns the generic build there, wrapper.wrap). An adjoint array
`bx = np.zeros_like(x)` of such an x is float64 too, so storing a float into one of
its items stores what storing the NumPy float64 would.

Assumes: job.doubles and job.arrays describe every call the build runs for (the
wrapper dispatches on dtype and shape). Guarantees: `items` holds the id() of a
subscript `x[i]` only when x is such a parameter, never rebound in the function, and
i an int literal (not a bool) or the target of an enclosing `for i in range(...)`
(or `reversed` of one, or of a name every binding of which is a `range(...)` call)
that nothing else in that loop binds; `float64_arrays` holds names every binding of
which is `np.zeros_like(x)` of such a parameter x (and nothing else stores them).
"""

from __future__ import annotations

import builtins

import gast
import numpy as np

from ..job import Job
from ..syntax import nodes
from ..syntax.nodes import walk
from .accumulate import Resolve


def vectors(fn: gast.FunctionDef, job: Job) -> set[str]:
    """The float64 vector parameters of `fn` the function never rebinds."""
    stored = {n.id for n in walk(fn) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    dims = dict(job.arrays)
    params = set(nodes.param_names(fn))
    return {p for p in job.doubles if p in params and p not in stored and len(dims.get(p, "")) == 1}


def items(fn: gast.FunctionDef, job: Job, resolve: Resolve) -> set[int]:
    """The id() of the subscripts that are items of float64 vectors (module docstring)."""
    found = vectors(fn, job)
    if not found:
        return set()
    ranges = _range_names(fn, resolve)
    out: set[int] = set()

    def visit(stmts: list[gast.stmt], ints: frozenset[str]) -> None:
        for stmt in stmts:
            if isinstance(stmt, gast.For):
                inner = ints - nodes.names_stored(stmt.target)
                target = stmt.target
                if isinstance(target, gast.Name) and _over_range(stmt.iter, ranges, resolve):
                    rebound = any(target.id in nodes.names_stored(s) for s in stmt.body)
                    if not rebound:
                        inner = inner | {target.id}
                for node in walk(stmt.iter):
                    _mark(node, found, ints, out)
                visit(stmt.body, inner - _stored_in(stmt.body))
                visit(stmt.orelse, ints - nodes.names_stored(stmt))
                continue
            here = ints - nodes.names_stored(stmt)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    visit(inner, here)
            for node in _own_nodes(stmt):
                _mark(node, found, here, out)

    visit(fn.body, frozenset())
    return out


def float64_arrays(fn: gast.FunctionDef, job: Job, resolve: Resolve) -> set[str]:
    """Names every binding of which is `np.zeros_like(x)` of a float64 vector parameter
    x, and nothing else stores (no loop target, no unpacking, no augmented assignment)."""
    found = vectors(fn, job)
    stores: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
    zeros: dict[str, int] = {}
    for node in walk(fn):
        if not (isinstance(node, gast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, gast.Name) and _zeros_like(value, found, resolve):
            zeros[target.id] = zeros.get(target.id, 0) + 1
    return {n for n, k in zeros.items() if stores.get(n) == k}


def _zeros_like(value: gast.expr, found: set[str], resolve: Resolve) -> bool:
    """Whether value is `np.zeros_like(x)` of a name x in `found`."""
    return (
        isinstance(value, gast.Call)
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], gast.Name)
        and value.args[0].id in found
        and _resolves(value.func, resolve, np.zeros_like)
    )


def _own_nodes(stmt: gast.stmt):
    """The nodes of `stmt` outside its nested statement lists."""
    nested = {
        id(s)
        for field in ("body", "orelse", "finalbody", "handlers")
        for s in (getattr(stmt, field, None) or [])
    }
    todo = [stmt]
    while todo:
        node = todo.pop()
        yield node
        for child in gast.iter_child_nodes(node):
            if id(child) not in nested:
                todo.append(child)


def _stored_in(body: list[gast.stmt]) -> set[str]:
    """Names bound anywhere in `body`."""
    return {n for s in body for n in nodes.names_stored(s)}


def _mark(node: gast.AST, found: set[str], ints: frozenset[str], out: set[int]) -> None:
    if not (isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name)):
        return
    if node.value.id not in found:
        return
    index = node.slice
    literal = isinstance(index, gast.Constant) and type(index.value) is int
    if literal or (isinstance(index, gast.Name) and index.id in ints):
        out.add(id(node))


def _range_names(fn: gast.FunctionDef, resolve: Resolve) -> set[str]:
    """Names every binding of which is a `range(...)` call (and nothing else stores)."""
    stores: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
    made: dict[str, int] = {}
    for node in walk(fn):
        if (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and _is_range(node.value, resolve)
        ):
            made[node.targets[0].id] = made.get(node.targets[0].id, 0) + 1
    return {n for n, k in made.items() if stores.get(n) == k}


def _is_range(node: gast.expr, resolve: Resolve) -> bool:
    return isinstance(node, gast.Call) and _resolves(node.func, resolve, builtins.range)


def _over_range(node: gast.expr, ranges: set[str], resolve: Resolve) -> bool:
    """Whether iterating `node` certainly gives ints: a range, or reversed of one."""
    if _is_range(node, resolve) or (isinstance(node, gast.Name) and node.id in ranges):
        return True
    return (
        isinstance(node, gast.Call)
        and _resolves(node.func, resolve, builtins.reversed)
        and len(node.args) == 1
        and not node.keywords
        and (_is_range(node.args[0], resolve) or _names(node.args[0], ranges))
    )


def _names(node: gast.expr, ranges: set[str]) -> bool:
    return isinstance(node, gast.Name) and node.id in ranges


def _resolves(func: gast.expr, resolve: Resolve, target: object) -> bool:
    try:
        return resolve(func) is target
    except TypeError:
        return False
