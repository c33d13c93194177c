"""Reduce a failing program while it keeps failing the same way.

Greedy, on the syntax tree: try deleting a statement (or a helper, or an unused
parameter of f), replacing a compound statement by one of its bodies, dropping an
`else`, or replacing an expression by one of its operands; keep the first
candidate that is shorter and gives the same outcome signature; repeat until no
candidate helps or the budget is spent. Every candidate is re-checked from
scratch (reference and tangentlike), so a shrunk program is a real reproduction.
"""

from __future__ import annotations

import ast
import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .classify import Outcome
from .generator import normalize
from .program import ENTRY, Program

Check = Callable[[Program], Outcome]
REDUCIBLE = (
    ast.BinOp, ast.UnaryOp, ast.Call, ast.IfExp, ast.BoolOp, ast.Compare, ast.Subscript,
    ast.ListComp, ast.GeneratorExp, ast.List, ast.Tuple,
)  # fmt: skip


@dataclass(frozen=True)
class Slot:
    """A node and where it hangs: parent.field, or parent.field[index]."""

    parent: ast.AST
    field: str
    index: int | None
    node: ast.AST


def slots(tree: ast.AST) -> list[Slot]:
    found = []
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list):
                found += [
                    Slot(parent, name, i, v) for i, v in enumerate(value) if isinstance(v, ast.AST)
                ]
            elif isinstance(value, ast.AST):
                found.append(Slot(parent, name, None, value))
    return found


def _put(slot: Slot, replacement: ast.AST | list[ast.stmt]) -> None:
    if slot.index is None:
        setattr(slot.parent, slot.field, replacement)
        return
    items = getattr(slot.parent, slot.field)
    items[slot.index : slot.index + 1] = (
        replacement if isinstance(replacement, list) else [replacement]
    )
    if not items and slot.field == "body":
        items.append(ast.Pass())


Edit = tuple[int, str, int]  # slot number, action, option


def edits(tree: ast.Module) -> Iterator[Edit]:
    """Candidate edits, biggest first: statements, then compound bodies, then expressions."""
    all_slots = slots(tree)
    for i, s in enumerate(all_slots):
        keep = isinstance(s.node, ast.Import) or (
            isinstance(s.node, ast.FunctionDef) and s.node.name == ENTRY
        )
        if isinstance(s.node, ast.stmt) and s.index is not None and not keep:
            yield i, "delete", 0
    for i, s in enumerate(all_slots):
        if isinstance(s.node, (ast.If, ast.For, ast.While)) and s.index is not None:
            yield i, "inline", 0
            if s.node.orelse:
                yield i, "inline", 1
                yield i, "drop-else", 0
    for i, s in enumerate(all_slots):
        node = s.node
        if isinstance(node, ast.FunctionDef) and node.name == ENTRY:
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            for k, a in enumerate(node.args.args):
                if a.arg not in used:
                    yield i, "drop-param", k
    for i, s in enumerate(all_slots):
        node = s.node
        if isinstance(node, REDUCIBLE) and getattr(node, "ctx", ast.Load()).__class__ is ast.Load:
            for k, _ in enumerate(_children(node)):
                yield i, "child", k


def _children(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Call):
        return [*node.args, *(k.value for k in node.keywords)]
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return [node.elt]
    return [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]


def apply(tree: ast.Module, edit: Edit) -> tuple[ast.Module, int | None]:
    """A copy of `tree` with `edit` applied, and the parameter of f it dropped if any."""
    tree = copy.deepcopy(tree)
    number, action, option = edit
    slot = slots(tree)[number]
    node = slot.node
    dropped = None
    if action == "delete":
        _put(slot, [])
    elif action == "inline":
        body = node.body if option == 0 else node.orelse  # type: ignore[attr-defined]
        _put(slot, list(body))
    elif action == "drop-else":
        node.orelse = []  # type: ignore[attr-defined]
    elif action == "drop-param":
        del node.args.args[option]  # type: ignore[attr-defined]
        dropped = option
    else:
        _put(slot, _children(node)[option])
    return tree, dropped


def shrink(
    program: Program, outcome: Outcome, check: Check, seconds: float = 20.0, checks: int = 250
) -> tuple[Program, Outcome]:
    """The smallest program found that still gives `outcome.signature`."""
    best, best_outcome = program, outcome
    deadline = time.monotonic() + seconds
    tried = 0
    improved = True
    while improved and tried < checks and time.monotonic() < deadline:
        improved = False
        tree = ast.parse(best.source)
        for edit in edits(tree):
            if tried >= checks or time.monotonic() >= deadline:
                break
            candidate = _candidate(best, tree, edit)
            if candidate is None:
                continue
            tried += 1
            result = check(candidate)
            if result.kind == outcome.kind and result.signature == outcome.signature:
                best, best_outcome, improved = candidate, result, True
                break
    return best, best_outcome


def _candidate(best: Program, tree: ast.Module, edit: Edit) -> Program | None:
    try:
        new_tree, dropped = apply(tree, edit)
        source = normalize(ast.unparse(ast.fix_missing_locations(new_tree)))
        compile(source, "<candidate>", "exec")  # e.g. `break` left outside its loop
    except (SyntaxError, ValueError, TypeError, AttributeError, IndexError):
        return None
    if len(source) >= len(best.source):
        return None
    params = best.params
    if dropped is not None:
        params = params[:dropped] + params[dropped + 1 :]
    if not any(p.differentiable for p in params):
        return None
    return best.with_source(source, params)
