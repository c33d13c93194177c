"""Lists in the differentiable form of a generated derivative module (higher/forms.py):
a backward sweep shortens a list adjoint (`unappend`, `unextend`) and restores a list the
function made (`xs.pop()`, `del xs[n:]`) in place. Differentiated again, another name
holding that list (`for v in xs`, a pushed value) would be read after the change. The
form computes the same values without changing any list in place.

A list a comprehension builds is handed to its name once complete (`_comp1 = []`, the
appends, `L1 = _comp1`); the backward sweep reads the temporary again only to shorten
it. `handed_over_copies` makes that hand-over a copy, `L1 = list(_comp1)`, so that no
name refers to a list appended to (which differentiating refuses in user code).

Assumes: the functions of a module tangentlike generated. Guarantees: after
`copying_helpers` and `pops_as_rebinding`, those helpers and statements change no list
in place; after `handed_over_copies`, a copied list has the same items as the one it
stands for wherever it is read; every other statement is left as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .. import runtime
from ..syntax.nodes import walk


def copying_helpers(external: dict[str, object]) -> None:
    """The helpers that change a list adjoint in place (`unappend`, `unextend`,
    `take_item`) replaced by their copying twins, which compute the same values: a
    backward sweep of the form may read a list again after it was changed, and
    differentiating it must see the list it had."""
    copying = {
        runtime.unappend: runtime.unappend_copy,
        runtime.unextend: runtime.unextend_copy,
        runtime.take_item: runtime.take_item_copy,
    }
    for name, value in external.items():
        for helper, twin in copying.items():
            if value is helper:
                external[name] = twin


def pops_as_rebinding(fn: ast.FunctionDef) -> None:
    """`xs.pop()` and `del xs[n:]` (a backward sweep restoring a list the function made, as
    it was before an append or extend) as `xs = list(xs[:-1])`, `xs = list(xs[:n])`: the same list
    value under that name, and no change to the object another name holds, so the form
    needs no aliasing check when differentiated again. A loop's `_seq = iterable(xs)`,
    which the backward sweep reads again after the pop, visits a copy made when the loop
    starts (higher/form_loops.py). Not for a parameter."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    for stmts in statement_lists(fn):
        for k, stmt in enumerate(stmts):
            kept = _kept_part(stmt, params)
            if kept is not None:
                name, upper = kept
                part = ast.Slice(upper=upper)
                rest = ast.Subscript(value=_load(name), slice=part, ctx=ast.Load())
                fresh = ast.Call(func=_load("list"), args=[rest], keywords=[])
                stmts[k] = ast.copy_location(_assign(name, fresh), stmt)


def handed_over_copies(fn: ast.FunctionDef) -> None:
    """`A = B` as `A = list(B)` where B is a list grown in a block (`B = []` first, every
    `B.append(...)` / `B.extend(...)` of the function after it and before `A = B`, in that
    block), and B is used nowhere else but, outside that stretch, in `B = None`, pushes
    of B, their restores into B, and rebinding pops `B = list(B[:n])` (after
    `pops_as_rebinding`). No append reaches B's list after the hand-over (the next one
    follows `B = []`, a new list) and nothing changes it in place, so the copy has A's
    items wherever A is read. B's value after the hand-over is read only to be pushed,
    restored or shortened, so those pushes save None, the restores give None and the pops
    go: B is then never bound to a list another name holds. Run after
    `pops_as_rebinding`."""
    for block in _blocks(fn):
        for k, stmt in enumerate(block):
            pair = _name_copy(stmt)
            if pair is None:
                continue
            a, b = pair
            start = next((j for j in range(k - 1, -1, -1) if _is_fresh_list(block[j], b)), None)
            if start is None or not _only_grown_between(fn, block, start, k, b):
                continue
            fresh = ast.Call(func=_load("list"), args=[_load(b)], keywords=[])
            block[k] = ast.copy_location(_assign(a, fresh), stmt)
            _forget_after_hand_over(fn, b)


def _forget_after_hand_over(fn: ast.FunctionDef, b: str) -> None:
    """B's pushes save None, its restores bind None, its rebinding pops go."""
    for block in _blocks(fn):
        kept = []
        for stmt in block:
            if is_rebinding_pop(stmt, b):
                continue
            if _is_push(stmt, b):
                stmt.value.elts[0] = ast.Constant(None)
            elif _is_restore(stmt, b):
                stmt.value = ast.Constant(None)
            kept.append(stmt)
        if len(kept) < len(block):
            block[:] = kept or [ast.Pass()]


def statement_lists(fn: ast.FunctionDef, nested: bool = True) -> Iterator[list[ast.stmt]]:
    """Every statement list of fn (body, orelse, finalbody), to rewrite in place; with
    `nested` False, not those of a nested function or lambda itself."""
    for node in walk(fn):
        if not nested and node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                yield stmts


def _blocks(fn: ast.FunctionDef) -> list[list[ast.stmt]]:
    return list(statement_lists(fn, nested=False))


def _bound(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """(name, value) of `name = value`."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id, stmt.value
    return None


def _name_copy(stmt: ast.stmt) -> tuple[str, str] | None:
    bound = _bound(stmt)
    if bound is not None and isinstance(bound[1], ast.Name):
        return bound[0], bound[1].id
    return None


def _is_fresh_list(stmt: ast.stmt, name: str) -> bool:
    bound = _bound(stmt)
    return (
        bound is not None
        and bound[0] == name
        and isinstance(bound[1], ast.List)
        and not bound[1].elts
    )


def _only_grown_between(
    fn: ast.FunctionDef, block: list[ast.stmt], start: int, end: int, b: str
) -> bool:
    """Every statement of fn reading or binding `b` is `b = []` at block[start], one of
    its appends or extends inside block[start + 1 : end], the hand-over block[end], or a
    rebinding `b = list(b[:n])`; and fn has no nested function."""
    inside = {id(n) for s in block[start + 1 : end] for n in walk(s)}
    allowed = {id(block[start]), id(block[end])}
    for node in walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and b in node.names:
            return False
    for stmt in [s for s in walk(fn) if isinstance(s, ast.stmt)]:
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef)):
            heads = [getattr(stmt, f, None) for f in ("test", "iter", "target", "items")]
            if any(_mentions(h, b) for h in heads if isinstance(h, ast.AST)):
                return False
            continue
        if not _mentions(stmt, b) or id(stmt) in allowed:
            continue
        if _is_growth(stmt, b) and id(stmt) in inside:
            continue
        if is_rebinding_pop(stmt, b):
            continue
        if id(stmt) not in inside and (
            _is_push(stmt, b) or _is_restore(stmt, b) or _is_cleared(stmt, b)
        ):
            continue
        return False
    return True


def _is_cleared(stmt: ast.stmt, b: str) -> bool:
    """`b = None` (a name the generated code binds before a loop that may not run)."""
    bound = _bound(stmt)
    return (
        bound is not None
        and bound[0] == b
        and isinstance(bound[1], ast.Constant)
        and bound[1].value is None
    )


def _is_push(stmt: ast.stmt, b: str) -> bool:
    """`S = (b, S)`: b's list saved on a stack chain (higher/forms.py), to be restored
    into b by `b = S[0]` (`_is_restore`)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return False
    target, value = stmt.targets[0], stmt.value
    return (
        isinstance(target, ast.Name)
        and target.id != b
        and isinstance(value, ast.Tuple)
        and len(value.elts) == 2
        and isinstance(value.elts[0], ast.Name)
        and value.elts[0].id == b
        and isinstance(value.elts[1], ast.Name)
        and value.elts[1].id == target.id
    )


def _is_restore(stmt: ast.stmt, b: str) -> bool:
    """`b = S[0]`: b bound again to the list a push saved."""
    bound = _bound(stmt)
    if bound is None or bound[0] != b:
        return False
    value = bound[1]
    return (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id != b
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(node))


def _is_growth(stmt: ast.stmt, b: str) -> bool:
    """`b.append(v)` / `b.extend(v)`, v not mentioning b."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("append", "extend")
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == b
        and not call.keywords
        and not any(_mentions(arg, b) for arg in call.args)
    )


def is_rebinding_pop(stmt: ast.stmt, b: str) -> bool:
    """`b = list(b[:n])`, n not mentioning b (what pops_as_rebinding writes)."""
    bound = _bound(stmt)
    if bound is None or bound[0] != b:
        return False
    value = bound[1]
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and len(value.args) == 1
        and isinstance(arg := value.args[0], ast.Subscript)
        and isinstance(arg.value, ast.Name)
        and arg.value.id == b
        and isinstance(arg.slice, ast.Slice)
        and arg.slice.lower is None
        and arg.slice.step is None
        and not _mentions(arg.slice, b)
    )


def _kept_part(stmt: ast.stmt, params: set[str]) -> tuple[str, ast.expr] | None:
    """(xs, n) for `xs.pop()` (n = -1) or `del xs[n:]`, xs a name that is no parameter."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and not call.args
        and not call.keywords
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "pop"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id not in params
    ):
        return call.func.value.id, ast.Constant(-1)
    if isinstance(stmt, ast.Delete) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id not in params
            and isinstance(target.slice, ast.Slice)
            and target.slice.lower is not None
            and target.slice.upper is None
            and target.slice.step is None
        ):
            return target.value.id, target.slice.lower
    return None


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())
