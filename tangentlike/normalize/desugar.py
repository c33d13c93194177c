"""Lower augmented assignment, chained and tuple assignment, tuple loop targets.

Assumes: the fence passed. Guarantees: no AugAssign; every Assign has exactly
one target, a Name or `name[index]`; every For target is a Name; no docstring
statement. `y[i] += v` becomes `y[i] = y[i] + v` (the index is read twice).
Invalidates: every analysis.
"""

from __future__ import annotations

import gast

from ..syntax import nodes
from ..syntax.names import Namer


def run(fn: gast.FunctionDef, namer: Namer) -> gast.FunctionDef:
    fn.body = _block(fn.body, namer)
    return fn


def _block(stmts: list[gast.stmt], namer: Namer) -> list[gast.stmt]:
    out: list[gast.stmt] = []
    for stmt in stmts:
        out.extend(nodes.located(s, stmt) for s in _stmt(stmt, namer))
    return out


def _stmt(stmt: gast.stmt, namer: Namer) -> list[gast.stmt]:
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant):
        return []  # docstrings and bare literals do nothing
    if isinstance(stmt, gast.AugAssign):
        load = nodes.deepcopy(stmt.target)
        load.ctx = gast.Load()
        return _assign(stmt.target, nodes.binop(load, stmt.op, stmt.value), namer)
    if isinstance(stmt, gast.Assign):
        *outer, last = stmt.targets
        out = _assign(last, stmt.value, namer)
        source = nodes.deepcopy(last)
        for target in reversed(outer):
            _set_load(source)
            out.extend(_assign(target, source, namer))
        return out
    if isinstance(stmt, gast.For):
        body = stmt.body
        if not isinstance(stmt.target, gast.Name):
            item = namer.temp("item")
            body = [
                nodes.located(nodes.assign(stmt.target, nodes.name(item)), stmt),
                *body,
            ]
            stmt.target = nodes.name(item, store=True)
        stmt.body = _block(body, namer)
        return [stmt]
    if isinstance(stmt, (gast.If, gast.While)):
        stmt.body = _block(stmt.body, namer)
        stmt.orelse = _block(stmt.orelse, namer)
        return [stmt]
    return [stmt]


def _set_load(node: gast.AST) -> None:
    for n in gast.walk(node):
        if hasattr(n, "ctx"):
            n.ctx = gast.Load()


def _assign(target: gast.expr, value: gast.expr, namer: Namer) -> list[gast.stmt]:
    if isinstance(target, (gast.Name, gast.Subscript)):
        return [nodes.assign(target, value)]
    assert isinstance(target, (gast.Tuple, gast.List))
    elts = target.elts
    if isinstance(value, (gast.Tuple, gast.List)) and len(value.elts) == len(elts):
        written = nodes.names_stored(target)
        read = set().union(*(nodes.names_read(v) for v in value.elts))
        if not written & read:
            out = []
            for t, v in zip(elts, value.elts, strict=True):
                out.extend(_assign(t, v, namer))
            return out
        temps = [namer.temp(_base(t)) for t in elts]
        out = [nodes.assign(tmp, v) for tmp, v in zip(temps, value.elts, strict=True)]
        for t, tmp in zip(elts, temps, strict=True):
            out.extend(_assign(t, nodes.name(tmp), namer))
        return out
    whole = namer.temp("tuple")
    out = [nodes.assign(whole, value)]
    for i, t in enumerate(elts):
        out.extend(_assign(t, nodes.subscript(nodes.name(whole), nodes.const(i)), namer))
    return out


def _base(target: gast.expr) -> str:
    return target.id if isinstance(target, gast.Name) else "t"
