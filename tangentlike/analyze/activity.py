"""Activity: which variables vary with `wrt` and reach the output.

Assumes: A-normal form. Guarantees: `Activity.active` holds exactly the local
names that (flow-insensitively) depend on a `wrt` parameter through
differentiable operations AND flow into the returned value; integer
counters, shapes, flags and constants are never active.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass

import gast

from ..parse.resolve import MISSING, Scope
from ..rules.registry import Registry
from ..rules.template import BindError, bind_arguments
from ..syntax import nodes
from . import containers

# Attribute reads that never carry a gradient.
SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes"})


@dataclass(frozen=True)
class Activity:
    varied: frozenset[str]
    useful: frozenset[str]

    @property
    def active(self) -> frozenset[str]:
        return self.varied & self.useful


def assignments(stmts: list[gast.stmt]) -> Iterator[gast.Assign]:
    for stmt in stmts:
        if isinstance(stmt, gast.Assign):
            yield stmt
        elif isinstance(stmt, gast.If):
            yield from assignments(stmt.body)
            yield from assignments(stmt.orelse)
        elif isinstance(stmt, (gast.For, gast.While)):
            yield from assignments(stmt.body)


def callee_of(call: gast.Call, scope: Scope) -> object:
    return scope.resolve(call.func)


def data_operands(value: gast.expr, scope: Scope, registry: Registry) -> list[str]:
    """Local names whose value flows differentiably into `value`."""

    def names(exprs: list[gast.expr]) -> list[str]:
        out = []
        for e in exprs:
            if isinstance(e, gast.Name):
                out.append(e.id)
            elif isinstance(e, (gast.List, gast.Tuple)):
                out.extend(names(e.elts))
            elif isinstance(e, gast.Starred):  # g(*seq): seq flows into the call
                out.extend(names([e.value]))
        return out

    if isinstance(value, gast.Name):
        return [value.id]
    if isinstance(value, gast.BinOp):
        if registry.is_nondifferentiable(type(value.op)):
            return []
        return names([value.left, value.right])
    if isinstance(value, gast.UnaryOp):
        if registry.is_nondifferentiable(type(value.op)):
            return []
        return names([value.operand])
    if isinstance(value, gast.BoolOp):
        return names(value.values)
    if isinstance(value, (gast.Tuple, gast.List)):
        return names(value.elts)
    if isinstance(value, gast.Dict):
        return names(value.values)
    if isinstance(value, gast.Subscript):
        return names([value.value])
    if isinstance(value, gast.Call):
        callee = callee_of(value, scope)
        if callee is MISSING or registry.is_nondifferentiable(callee):
            return []
        rule = registry.lookup(callee)
        keywords = {k.arg: k.value for k in value.keywords}
        if rule is not None:
            try:
                bound = bind_arguments(rule, value.args, keywords)
            except BindError:
                return names([*value.args, *keywords.values()])
            return names([bound[p] for p in rule.params if p in rule.differentiable])
        return names([*value.args, *keywords.values()])
    if isinstance(value, gast.Attribute):
        return [] if value.attr in SHAPE_ATTRIBUTES else names([value.value])
    return []


def analyze(
    fn: gast.FunctionDef, wrt: tuple[str, ...], scope: Scope, registry: Registry
) -> Activity:
    flows: list[tuple[str, list[str]]] = [
        (
            nodes.assigned_name(a),
            # a write into y keeps the rest of y: the new y depends on the old one too
            data_operands(a.value, scope, registry)
            + ([nodes.assigned_name(a)] if nodes.is_item_write(a) else []),
        )
        for a in assignments(fn.body)
    ]
    # `xs.append(v)`: the new xs depends on v and on the old xs
    for stmt in containers.mutations(fn.body):
        xs, _, arg = containers.mutation(stmt)
        flows.append((xs, [*data_operands(arg, scope, registry), xs]))
    varied = set(wrt)
    changed = True
    while changed:
        changed = False
        for target, operands in flows:
            if target not in varied and any(o in varied for o in operands):
                varied.add(target)
                changed = True
    ret = fn.body[-1].value.id
    useful = {ret}
    changed = True
    while changed:
        changed = False
        for target, operands in flows:
            if target in useful:
                for o in operands:
                    if o not in useful:
                        useful.add(o)
                        changed = True
    return Activity(frozenset(varied), frozenset(useful))


def user_function(obj: object, registry: Registry) -> bool:
    """A Python function we differentiate through its source (no rule registered)."""
    return (
        inspect.isfunction(obj)
        and registry.lookup(obj) is None
        and not registry.is_nondifferentiable(obj)
    )


def local_names(fn: gast.FunctionDef) -> frozenset[str]:
    names = set(nodes.param_names(fn))
    for stmt in fn.body:
        names |= nodes.names_stored(stmt)
    return frozenset(names)
