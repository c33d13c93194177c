"""Drop the saves whose restored values nothing reads any more.

The to-be-recorded analysis (analyze/tbr.py) chooses the pushes before the other
optimize/ passes run; these may remove the last backward reads of a restored value
(a shape the known signature made unnecessary, a `b = 0 * x` folded away), so that
`x = _pop()` restores a value no one reads.

Assumes: a generated function whose pushes of a variable x are the statements
`_push(x)` and whose restores of x are `x = _pop()`, each pop taking what a push of x
put on the stack (transform/sweep.py pairs a site's push and its restore by the
variable). Guarantees: for a variable all of whose pops are dead (no path from a pop
reads x before rebinding it; reads by x's own pushes do not count, they go too), every
push and every pop of x is removed, so the other values keep their order on the
stack and every read sees the value it saw before. A variable pushed or popped in any
other form, or only pushed or only popped in this function (a split half), is kept;
so is everything in a function with control flow liveness does not follow (break,
continue, try, with, nested functions).
"""

from __future__ import annotations

import copy

import gast

from ..analyze import liveness
from ..syntax import nodes
from ..syntax.nodes import walk

_OPAQUE = (gast.Break, gast.Continue, gast.Try, gast.With, gast.FunctionDef, gast.Lambda)
_OPAQUE += (gast.Global, gast.Nonlocal, gast.Delete, gast.AsyncFunctionDef, gast.ClassDef)
_OPAQUE += (gast.Yield, gast.YieldFrom, gast.Await)


def run(fn: gast.FunctionDef, stack: str, push: str, pop: str) -> gast.FunctionDef:
    """Remove the pushes and pops of the variables whose restores are all dead."""
    if not plain_stack(fn, stack, push, pop):
        return fn
    pushes, pops, other = stack_uses(fn, push, pop)
    candidates = (set(pushes) & set(pops)) - other
    if not candidates:
        return fn
    probe = copy.copy(fn)  # liveness without the candidates' own pushes
    probe.body = _without(_frame(fn.body), lambda s: pushed(s, push) in candidates)
    live = liveness.live_after(probe)
    probe_pops: dict[str, list[gast.stmt]] = {}
    for stmt in _simple(probe.body):
        name = popped(stmt, pop)
        if name in candidates:
            probe_pops.setdefault(name, []).append(stmt)
    dead = {
        name
        for name in candidates
        if len(probe_pops.get(name, [])) == len(pops[name])
        and all(id(s) in live and name not in live[id(s)] for s in probe_pops[name])
    }
    if dead:
        fn.body = _without(fn.body, lambda s: pushed(s, push) in dead or popped(s, pop) in dead)
    return fn


def plain_stack(fn: gast.FunctionDef, stack: str, push: str, pop: str) -> bool:
    """Whether fn uses its stack only through `push = stack.append` and `pop =
    stack.pop`, calls push and pop only by name, returns only at its end and has no
    control flow liveness does not follow."""
    setups = {id(s.value.value) for s in fn.body if _is_setup(s, stack, push, pop)}
    body = [node for stmt in fn.body for node in walk(stmt)]  # not the signature
    called = {id(n.func) for n in body if isinstance(n, gast.Call)}
    last = fn.body[-1] if fn.body else None
    for node in body:
        if isinstance(node, _OPAQUE) or (isinstance(node, gast.Return) and node is not last):
            return False
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            if node.id == stack and id(node) not in setups:
                return False  # the stack passed on, or used directly
            if node.id in (push, pop) and id(node) not in called:
                return False  # push or pop passed on: their uses are unknown
    return True


def _is_setup(stmt: gast.stmt, stack: str, push: str, pop: str) -> bool:
    """`push = stack.append` or `pop = stack.pop`."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1):
        return False
    target, value = stmt.targets[0], stmt.value
    return (
        isinstance(target, gast.Name)
        and isinstance(value, gast.Attribute)
        and isinstance(value.value, gast.Name)
        and value.value.id == stack
        and (target.id, value.attr) in ((push, "append"), (pop, "pop"))
    )


def stack_uses(
    fn: gast.FunctionDef, push: str, pop: str
) -> tuple[dict[str, list[gast.stmt]], dict[str, list[gast.stmt]], set[str]]:
    """The `_push(x)` and `x = _pop()` statements by variable, and the variables the
    stack sees in any other form (kept: their pairing is not plain)."""
    pushes: dict[str, list[gast.stmt]] = {}
    pops: dict[str, list[gast.stmt]] = {}
    plain: set[int] = set()
    for stmt in _simple(fn.body):
        name = pushed(stmt, push)
        if name is not None:
            pushes.setdefault(name, []).append(stmt)
            plain.add(id(stmt.value))
            continue
        name = popped(stmt, pop)
        if name is not None:
            pops.setdefault(name, []).append(stmt)
            plain.add(id(stmt.value))
    other: set[str] = set()
    for stmt in _simple(fn.body):
        for node in walk(stmt):
            if (
                isinstance(node, gast.Call)
                and id(node) not in plain
                and isinstance(node.func, gast.Name)
                and node.func.id in (push, pop)
            ):
                other |= nodes.names_read(stmt) | nodes.names_stored(stmt)
    return pushes, pops, other


def pushed(stmt: gast.stmt, push: str) -> str | None:
    """x for the statement `_push(x)`, else None."""
    if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
        return None
    call = stmt.value
    if (
        isinstance(call.func, gast.Name)
        and call.func.id == push
        and len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], gast.Name)
    ):
        return call.args[0].id
    return None


def popped(stmt: gast.stmt, pop: str) -> str | None:
    """x for the statement `x = _pop()`, else None."""
    if not isinstance(stmt, gast.Assign) or len(stmt.targets) != 1:
        return None
    target, value = stmt.targets[0], stmt.value
    if (
        isinstance(target, gast.Name)
        and isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id == pop
        and not value.args
        and not value.keywords
    ):
        return target.id
    return None


def _simple(stmts: list[gast.stmt]):
    """Every statement that is not an if or a loop, nested ones included."""
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            yield from _simple(stmt.body)
            yield from _simple(stmt.orelse)
        else:
            yield stmt


def _frame(stmts: list[gast.stmt]) -> list[gast.stmt]:
    """stmts with every if and loop copied (their blocks too), the simple statements
    shared: what `_without` may change without changing `stmts` (liveness reads, never
    writes, the tree), for a fraction of a deep copy's time."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            stmt = copy.copy(stmt)
            stmt.body, stmt.orelse = _frame(stmt.body), _frame(stmt.orelse)
        out.append(stmt)
    return out


def _without(stmts: list[gast.stmt], drop) -> list[gast.stmt]:
    """stmts without the simple statements `drop` accepts, nested ones included (a
    block left empty gets `pass`)."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            stmt.body = _without(stmt.body, drop) or [gast.Pass()]
            stmt.orelse = _without(stmt.orelse, drop)
            out.append(stmt)
        elif not drop(stmt):
            out.append(stmt)
    return out
