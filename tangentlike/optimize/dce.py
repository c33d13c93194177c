"""Dead-code elimination on the top level of a generated function.

Assumes: a generated function (forward and backward sweeps in one body, or a
split half). Guarantees: a top-level assignment (or augmented assignment) is dropped only if
no later statement reads its target and `pure` says computing it has no side effects;
then, anywhere, a pure assignment to a name that only pure assignments read (to names
nothing else reads, drop_faint_assignments), so a value the program returns is never
lost. `b *= m` reads b: it keeps the
assignment of b alive, and goes itself when b is dead (generated code updates in
place only arrays no other name refers to).
"""

from __future__ import annotations

from collections.abc import Callable

import gast

from ..syntax import nodes
from . import restores


def drop_dead_assignments(
    code: list[gast.stmt], live: set[str], pure: Callable[[gast.expr], bool]
) -> list[gast.stmt]:
    kept: list[gast.stmt] = []
    live = set(live)
    for stmt in reversed(code):
        target = stmt.targets[0] if isinstance(stmt, gast.Assign) else getattr(stmt, "target", None)
        if (
            isinstance(stmt, (gast.Assign, gast.AugAssign))
            and isinstance(target, gast.Name)
            and target.id not in live
            and pure(stmt.value)
        ):
            continue  # `b *= m` with b dead afterwards is dead too
        live |= nodes.names_read(stmt)
        kept.append(stmt)
    return kept[::-1]


def run(fn: gast.FunctionDef, pure: Callable[[gast.expr], bool]) -> gast.FunctionDef:
    fn.body = drop_dead_assignments(fn.body, set(), pure)
    drop_faint_assignments(fn, pure)
    return fn


def drop_faint_assignments(fn: gast.FunctionDef, pure: Callable[[gast.expr], bool]) -> None:
    """Drop, anywhere in `fn` (loops and branches too), the pure assignments to names
    that only such assignments read, with the saves and restores of those names:
    `total = total + np.sum(h * y)` in a loop, when only the gradient is returned.
    Liveness keeps `total` (the next step reads it); what no statement with an effect
    (a call, a return, a push, a store into an item, a branch or loop test) ever
    reads, directly or through other assignments, cannot change what it returns.
    Nothing is dropped from a function with nested scopes, global declarations,
    deletions, handlers or `with`."""
    stmts = list(_statements(fn.body))
    if any(isinstance(n, _OPAQUE) for s in stmts for n in gast.iter_child_nodes(s)) or any(
        isinstance(s, _OPAQUE) for s in stmts
    ):
        return
    saved, push, pop = _saved(fn)
    useful: set[str] = set()
    assigns: list[tuple[str, gast.stmt]] = []
    for stmt in stmts:
        if saved and (x := restores.pushed(stmt, push) or restores.popped(stmt, pop)) in saved:
            assigns.append((x, stmt))  # a save of x and its restore: gone with x
        elif isinstance(stmt, gast.For):
            useful |= nodes.names_read(stmt.iter)
        elif isinstance(stmt, (gast.If, gast.While)):
            useful |= nodes.names_read(stmt.test)
        elif (target := _pure_target(stmt, pure)) is not None:
            assigns.append((target, stmt))
        else:
            useful |= nodes.names_read(stmt)
    counted: set[int] = set()
    changed = True
    while changed:
        changed = False
        for target, stmt in assigns:
            if target in useful and id(stmt) not in counted:
                counted.add(id(stmt))
                useful |= nodes.names_read(stmt)
                changed = True
    faint = {id(stmt) for target, stmt in assigns if target not in useful}
    if faint:
        fn.body = _without(fn.body, faint)


def _saved(fn: gast.FunctionDef) -> tuple[set[str], str, str]:
    """The variables saved and restored only as `push(x)` and `x = pop()`, each pop
    taking what a push of x put on the stack (optimize/restores.py: a plain stack, made
    empty by the function itself), with the names of push and pop."""
    setups = {}
    for stmt in fn.body:
        if (
            isinstance(stmt, gast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Attribute)
            and isinstance(stmt.value.value, gast.Name)
            and stmt.value.attr in ("append", "pop")
        ):
            setups[stmt.value.attr] = (stmt.value.value.id, stmt.targets[0].id)
    if set(setups) != {"append", "pop"} or setups["append"][0] != setups["pop"][0]:
        return set(), "", ""
    stack, push, pop = setups["append"][0], setups["append"][1], setups["pop"][1]
    made = [s for s in fn.body if isinstance(s, gast.Assign) and isinstance(s.value, gast.List)]
    if not any(nodes.names_stored(s) == {stack} and not s.value.elts for s in made):
        return set(), "", ""  # a stack passed in: its other users pop what they pushed
    if not restores.plain_stack(fn, stack, push, pop):
        return set(), "", ""
    pushes, pops, other = restores.stack_uses(fn, push, pop)
    return (set(pushes) & set(pops)) - other, push, pop


_OPAQUE = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda, gast.Try)
_OPAQUE += (gast.Global, gast.Nonlocal, gast.Delete, gast.With, gast.AsyncWith)


def _pure_target(stmt: gast.stmt, pure: Callable[[gast.expr], bool]) -> str | None:
    """x for `x = e` or `x op= e` with e pure, else None."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif isinstance(stmt, gast.AugAssign):
        target = stmt.target
    else:
        return None
    return target.id if isinstance(target, gast.Name) and pure(stmt.value) else None


def _statements(stmts: list[gast.stmt]):
    """Every statement of `stmts`, those nested in ifs and loops too."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            yield from _statements(stmt.body)
            yield from _statements(stmt.orelse)


def _without(stmts: list[gast.stmt], drop: set[int]) -> list[gast.stmt]:
    """stmts without the statements whose id is in `drop` (an emptied block: `pass`)."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            stmt.body = _without(stmt.body, drop) or [gast.Pass()]
            stmt.orelse = _without(stmt.orelse, drop)
        if id(stmt) not in drop:
            out.append(stmt)
    return out
