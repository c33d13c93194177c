"""Repeated work in adjacent statements: `b = E` then `b += E` becomes `b = E` then
`b += b` (the adjoint of `x * x`), and `a = b` ... `b = a` loses its second copy.

The product rule gives each operand of `x * x` its contribution, `bx = g * x` and
`bx += g * x`: the same product twice, which for arrays is a second pass over the
data and a temporary.

Assumes: generated code, where `b += v` adds v to b (in place for an array b only
when b is owned, which `b = E` with E an operator expression makes it: NumPy
arithmetic returns a new array, numbers and lists are new values).
Guarantees: the second statement is rewritten only when the two statements are
adjacent in one block, E is an arithmetic operator (+ - * / and unary minus) applied
to names and literals only, and E does not read b: then E evaluates to the same value
twice (names unchanged between the two statements, no calls), and `b += b` adds
that value to b as `b += E` did (NumPy's in-place add of an array to itself reads
each element before writing it). `b = a` goes when `a = b` comes earlier in the same
block and no statement between them (nested ones included) binds a or b: b already
holds a's value. A copy `a = b` goes where a is bound only there and every read of a
is in a later simple statement of the same block, before a or b is bound again (so b
holds a's value there): those reads read b. A copy that is the only statement of its
line in the block stays (the backward sweep shows a block for every line, emit/), and
so does a copy read by a push (`_push((a, ...))`): the pop that restores it names a,
and debug mode labels each push and pop by the names they save and restore.
"""

from __future__ import annotations

import itertools
from collections import Counter

import gast

from ..syntax import nodes
from ..syntax.nodes import walk

_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.USub)


def run(fn: gast.FunctionDef, stack_names: tuple[str, ...] = ()) -> gast.FunctionDef:
    """Rewrite every qualifying pair in fn's blocks, nested ones included;
    `stack_names`: the stack and its push (a copy a push reads is kept)."""
    reads, stores = Counter(), Counter()
    for node in walk(fn):
        if isinstance(node, gast.Name):
            (reads if isinstance(node.ctx, gast.Load) else stores)[node.id] += 1
    pushed = _pushed(fn, frozenset(stack_names))
    _block(fn.body, reads, stores, pushed)
    return fn


def _pushed(fn: gast.FunctionDef, stack_names: frozenset[str]) -> frozenset[str]:
    """The names read by pushes (`_push(v)`, `_stack.append(v)`)."""
    found: set[str] = set()
    for node in walk(fn):
        if not isinstance(node, gast.Call):
            continue
        func = node.func
        if (isinstance(func, gast.Name) and func.id in stack_names) or (
            isinstance(func, gast.Attribute)
            and func.attr == "append"
            and isinstance(func.value, gast.Name)
            and func.value.id in stack_names
        ):
            found |= nodes.names_read(node)
    return frozenset(found)


def _block(stmts: list[gast.stmt], reads: Counter, stores: Counter, pushed: frozenset) -> None:
    for stmt in stmts:
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list) and not isinstance(stmt, gast.FunctionDef):
                _block(inner, reads, stores, pushed)
                if not inner and part == "body":
                    inner.append(gast.Pass())
    stmts[:] = _without_copies_back(stmts, reads)
    stmts[:] = _propagated(stmts, reads, stores, pushed)
    for first, second in itertools.pairwise(stmts):
        if not (
            isinstance(first, gast.Assign)
            and len(first.targets) == 1
            and isinstance(first.targets[0], gast.Name)
            and isinstance(second, gast.AugAssign)
            and isinstance(second.op, gast.Add)
            and isinstance(second.target, gast.Name)
        ):
            continue
        b = first.targets[0].id
        if second.target.id != b or not _arithmetic(first.value):
            continue
        if b in nodes.names_read(first.value):
            continue
        if gast.dump(first.value) == gast.dump(second.value):
            second.value = nodes.name(b)


def _copy(stmt: gast.stmt) -> tuple[str, str] | None:
    """(a, b) for the statement `a = b` (two names), else None."""
    if (
        isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
        and isinstance(stmt.value, gast.Name)
    ):
        return stmt.targets[0].id, stmt.value.id
    return None


def _without_copies_back(stmts: list[gast.stmt], reads: Counter) -> list[gast.stmt]:
    """stmts without each `b = a` that an earlier `a = b` of the block makes a no-op."""
    out: list[gast.stmt] = []
    copies: set[tuple[str, str]] = set()  # (a, b): a and b hold one value here
    for stmt in stmts:
        pair = _copy(stmt)
        if pair is not None and (pair[1], pair[0]) in copies:
            reads[pair[1]] -= 1  # the read of a it made is gone
            continue  # b = a, where a = b came before and neither changed since
        stored = nodes.names_stored(stmt)
        copies = {c for c in copies if not (set(c) & stored)}
        if pair is not None and pair[0] != pair[1]:
            copies.add(pair)
        out.append(stmt)
    return out


def _propagated(
    stmts: list[gast.stmt], reads: Counter, stores: Counter, pushed: frozenset
) -> list[gast.stmt]:
    """stmts without each copy `a = b` whose a is bound only there and read only by
    later simple statements of this block before a or b is bound again (those read b),
    and which is not the only statement of its line."""
    out = list(stmts)
    marks = [i for i, s in enumerate(out) if getattr(s, "sweep", None) == "backward"]
    start = marks[-1] + 1 if marks else 0  # the backward sweep's lines, not the forward's
    lines = Counter(getattr(s, "lineno", None) for s in out[start:])
    k = 0
    while k < len(out):
        pair = _copy(out[k])
        line = getattr(out[k], "lineno", None)
        if (
            pair is not None
            and pair[0] != pair[1]
            and pair[0] not in pushed
            and stores[pair[0]] == 1
            and lines[line] > 1
        ):
            uses = _uses(out[k + 1 :], *pair)
            if uses is not None and len(uses) == reads[pair[0]]:
                for name in uses:
                    name.id = pair[1]
                reads[pair[1]] += len(uses)
                lines[line] -= 1
                del out[k]
                continue
        k += 1
    return out


def _uses(later: list[gast.stmt], a: str, b: str) -> list[gast.Name] | None:
    """The reads of a in `later` up to the first statement binding a or b (included: its
    value is read first), or None when a read is inside a loop or branch."""
    found: list[gast.Name] = []
    for stmt in later:
        names = [n for n in walk(stmt) if isinstance(n, gast.Name) and n.id == a]
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            if names:
                return None  # read in a loop or branch: left alone
            if {a, b} & nodes.names_stored(stmt):
                break
            continue
        found += [n for n in names if isinstance(n.ctx, gast.Load)]
        if {a, b} & nodes.names_stored(stmt) or isinstance(stmt, gast.AugAssign):
            break
    return found


def _arithmetic(expr: gast.expr) -> bool:
    """Whether expr is operators of _OPS over names and number literals, at least one
    operator."""
    if not isinstance(expr, (gast.BinOp, gast.UnaryOp)):
        return False
    for node in walk(expr):
        if isinstance(node, (gast.BinOp, gast.UnaryOp)):
            if not isinstance(node.op, _OPS):
                return False
        elif isinstance(node, gast.Constant):
            if not isinstance(node.value, (int, float)) or isinstance(node.value, bool):
                return False
        elif not isinstance(node, (gast.Name, gast.Load, gast.operator, gast.unaryop)):
            return False
    return True
