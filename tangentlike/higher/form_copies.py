"""Views read before their array changes, copied in the differentiable form.

A gradient reads a view `_M2 = M[i]` in its forward sweep, then writes M in place
(`M[i] = _M7`), and reads `_M2` again in its backward sweep after restoring M, so the
view shows what it showed when it was made. Differentiated again, the write into M
reaches the view read afterwards, and views kept on the stack in a loop are views the
second pass cannot follow: it refuses (`M[i] = M[i] * (i + 1) + np.sin(M[i])` in a loop,
a stencil `lap[1:-1] = ...`, Gram-Schmidt's `A[:, j] -= ...`).

Where every read of the view in the forward sweep comes before any write into its
array, a copy made where the view is made holds exactly the values every read sees:
the forward reads see the array as it was then, and the backward sweep reads each
value where the array is restored to what it was at the forward read (a generated
gradient's backward sweep uses the values its forward sweep used). The form binds
`_M2 = own_values(M[i])`: a copy of an array, anything else as it is, whose
derivative is the identity and which shares no memory with M (analyze/memory.py).

Assumes: the form of a generated function after the stack rewrite (pushes `S = (v,
S)` or, paired, `_pushedN = v; S = (pushed(v), S)`); `backward` the first line of its
backward sweep (None: all forward; a `_bwd_` half: its first line). Guarantees: only
`T = A[index]` is rewritten, where T is never written into nor rebound between its
binding and its last forward read, every read of T takes only its values (arithmetic,
a comparison, a ufunc, a runtime helper that reads values, its shape, a push: nothing
made from it shares its memory), each forward read of T
other than a push is in the same statement list after the binding with no statement
between that may write into A (an item write, an update, a call given A, a method of
A, a rebinding of A), and none is elsewhere in the forward sweep.
"""

from __future__ import annotations

import ast

import numpy as np

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists
from .form_pairs import HELPER as PUSHED
from .form_pairs import PREFIX as PUSHED_NAME

HELPER = "own_values"


def views_copied(fn: ast.FunctionDef, external: dict[str, object], backward: int | None) -> None:
    """Rewrite fn's views read before their array changes (see the module docstring)."""
    if backward is not None and backward <= fn.lineno:
        return  # a backward half: it makes no view it reads before a restore
    copied = False
    for stmts in statement_lists(fn, nested=False):
        for k, stmt in enumerate(stmts):
            view = _view(stmt)
            if view is None:
                continue
            t, a = view
            if _copyable(fn, stmts, k, t, a, backward, external):
                stmt.value = ast.Call(
                    func=ast.Name(HELPER, ast.Load()), args=[stmt.value], keywords=[]
                )
                copied = True
    if copied:
        external[HELPER] = runtime.own_values


def _view(stmt: ast.stmt) -> tuple[str, str] | None:
    """(T, A) of `T = A[index]`."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Subscript)
        and isinstance(stmt.value.value, ast.Name)
        and not any(isinstance(n, ast.Call) for n in walk(stmt.value.slice))
    ):
        return stmt.targets[0].id, stmt.value.value.id
    return None


def _copyable(fn, stmts, k, t, a, backward, external) -> bool:
    if t == a or not _written_into(fn, a):  # a view of an array never written: kept
        return False
    if _written_into(fn, t) or not _reads_safe(fn, t, external):
        return False
    end = next((j for j in range(k + 1, len(stmts)) if _binds(stmts[j], t)), len(stmts))
    allowed: set[int] = set()
    for j in range(k + 1, end):
        if _reads(stmts[j], t):
            if any(_may_write(s, a) for s in stmts[k + 1 : j]):
                return False
            if not isinstance(stmts[j], (ast.Assign, ast.Expr)) and _may_write(stmts[j], a):
                return False  # a compound statement reading T and writing A
            allowed.update(id(n) for n in walk(stmts[j]))
    for node in walk(fn):
        if (
            isinstance(node, ast.Name)
            and node.id == t
            and isinstance(node.ctx, ast.Load)
            and id(node) not in allowed
            and _in_forward(node, backward)
            and not _pushed(fn, node)
        ):
            return False
    return True


def _in_forward(node: ast.AST, backward: int | None) -> bool:
    return backward is None or getattr(node, "lineno", 0) < backward


def _pushed(fn: ast.FunctionDef, name: ast.Name) -> bool:
    """Whether the read `name` only pushes its value: `S = (T, S)`, `S = (pushed(T), S)`
    or `_pushedN = T`."""
    for node in walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name):
            continue
        if value is name and target.id.startswith(PUSHED_NAME):
            return True
        if (
            isinstance(value, ast.Tuple)
            and len(value.elts) == 2
            and isinstance(value.elts[1], ast.Name)
            and value.elts[1].id == target.id
        ):
            first = value.elts[0]
            if first is name:
                return True
            if (
                isinstance(first, ast.Call)
                and isinstance(first.func, ast.Name)
                and first.func.id == PUSHED
                and first.args
                and first.args[0] is name
            ):
                return True
    return False


def _binds(stmt: ast.stmt, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(stmt)
    )


def _reads(stmt: ast.stmt, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in walk(stmt)
    )


def _base(node: ast.expr) -> ast.expr:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node


def _written_into(root: ast.AST, name: str) -> bool:
    """Whether root writes into name's value: `name[...] = `, `name op= `, `name[...] op= `."""
    for node in walk(root):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = _base(node)
            if isinstance(base, ast.Name) and base.id == name:
                return True
        if isinstance(node, ast.AugAssign):
            base = _base(node.target)
            if isinstance(base, ast.Name) and base.id == name:
                return True
    return False


def _may_write(stmt: ast.stmt, a: str) -> bool:
    """Whether stmt may change A's array: a write by index or an update of A, A rebound,
    a call given A, or a method of A."""
    if _written_into(stmt, a) or _binds(stmt, a):
        return True
    for node in walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        given = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(g, ast.Name) and g.id == a for g in given):
            return True
        base = _base(node.func)
        if isinstance(node.func, ast.Attribute) and isinstance(base, ast.Name) and base.id == a:
            return True
    return False


# Runtime helpers that read an argument's values (or only its shape) and return new
# values, never the argument itself nor part of it: (helper, positions it may take T at).
_READERS = {
    runtime.power_slope: (0, 1),
    runtime.power_slope_dx: (0, 1),
    runtime.power_slope_dy: (0, 1),
    runtime.power_log: (0, 1),
    runtime.unbroadcast: (1,),
    runtime.spread: (1,),
    runtime.sum_to: (1,),
    runtime.unsubscript: (1,),
    runtime.add_item: (1,),
    runtime.matmul_vjp_a: (1, 2),
    runtime.matmul_vjp_b: (1, 2),
    runtime.dot_vjp_a: (1, 2),
    runtime.dot_vjp_b: (1, 2),
    runtime.norm_vjp: (1, 2),
}
# NumPy functions beside the ufuncs whose result is new values, never an argument's.
_NEW_VALUES = frozenset(
    {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.std, np.var}
    | {np.dot, np.matmul, np.inner, np.outer, np.cumsum, np.cumprod, np.where, np.clip}
    | {np.linalg.norm, np.linalg.det, np.copy}
)
_SHAPES = frozenset({"shape", "ndim", "size", "dtype"})


def _reads_safe(fn: ast.FunctionDef, name: str, external: dict[str, object]) -> bool:
    """Whether every read of `name` takes only its values: an operand of arithmetic or a
    comparison, an argument of a NumPy ufunc (no `out=`) or of a runtime helper that
    reads values (_READERS), its shape, or a push. Nothing made from it may share its
    memory (a view of it read after the array changes would differ from one of a copy)."""
    parents = {id(c): p for p in walk(fn) for c in ast.iter_child_nodes(p)}
    for node in walk(fn):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _SHAPES:
            continue
        if (
            isinstance(parent, ast.Call)
            and node in parent.args
            and _reading_call(parent, parent.args.index(node), external)
        ):
            continue
        if _pushed(fn, node):
            continue
        return False
    return True


def _reading_call(call: ast.Call, position: int, external: dict[str, object]) -> bool:
    if call.keywords:
        return False
    func = call.func
    if isinstance(func, ast.Name):
        helper = external.get(func.id)
        return any(helper is h and position in at for h, at in _READERS.items())
    callee = _dotted(func, external)
    return isinstance(callee, np.ufunc) or (_hashable(callee) and callee in _NEW_VALUES)


def _dotted(func: ast.expr, external: dict[str, object]) -> object:
    """The object `np.linalg.norm` names in the module (None where it names none)."""
    if isinstance(func, ast.Name):
        return external.get(func.id)
    if isinstance(func, ast.Attribute):
        return getattr(_dotted(func.value, external), func.attr, None)
    return None


def _hashable(obj: object) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True
