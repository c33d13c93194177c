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

from ..parse.resolve import Scope
from ..rules.registry import Registry
from ..syntax import nodes
from . import containers
from .operands import SHAPE_ATTRIBUTES, data_operands

__all__ = [
    "SHAPE_ATTRIBUTES",
    "Activity",
    "analyze",
    "data_operands",
    "local_names",
    "user_function",
]


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


def analyze(
    fn: gast.FunctionDef,
    wrt: tuple[str, ...],
    scope: Scope,
    registry: Registry,
    form: bool = False,
) -> Activity:
    """`form`: fn is a function of the differentiable form of a generated module
    (higher/forms.py), whose pops restore what the same name pushed (see `_restores`)."""
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
    restores = _restores(fn) if form else set()
    varied = set(wrt)
    changed = True
    while changed:
        changed = False
        for target, operands in flows:
            if (target, tuple(operands)) in restores:
                continue  # a value the name held before: varied only as the name is
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


def _restores(fn: gast.FunctionDef) -> set[tuple[str, tuple[str, ...]]]:
    """The pops `X = S[0]` of a function of the differentiable form that also pushes X
    itself onto the chain S (`S = (X, S)`), as flows (X, (S,)). The generated gradient
    pushes a name's value before overwriting it and its backward sweep pops it back into
    that name (transform/sweep.py pairs a site's push and restore by the variable), so
    such a pop binds a value X held earlier: it varies only where X's other bindings do.
    (The chain itself varies with every value pushed, so read through it, the pop would
    vary whenever any value pushed does: an exponent `k + 1` restored in a loop, taken
    for varied, makes its zero tangent meet the nan of log(x) at a negative x.)"""
    pairs: dict[str, tuple[str, str]] = {}  # T -> (X, S) for `T = (X, S)`
    copies: set[tuple[str, str]] = set()  # (S, T) for `S = T`
    pops: set[tuple[str, str]] = set()
    for a in assignments(fn.body):
        target, value = a.targets[0], a.value
        if not isinstance(target, gast.Name):
            continue
        if (
            isinstance(value, gast.Tuple)
            and len(value.elts) == 2
            and all(isinstance(e, gast.Name) for e in value.elts)
        ):
            pairs[target.id] = (value.elts[0].id, value.elts[1].id)
        elif isinstance(value, gast.Name):
            copies.add((target.id, value.id))
        elif (
            isinstance(value, gast.Subscript)
            and isinstance(value.value, gast.Name)
            and isinstance(value.slice, gast.Constant)
            and value.slice.value == 0
        ):
            pops.add((target.id, value.value.id))
    # a push: `S = (X, S)`, or in A-normal form `T = (X, S); S = T`
    pushed = {(x, chain) for t, (x, chain) in pairs.items() if t == chain or (chain, t) in copies}
    return {(x, (chain,)) for x, chain in pops & pushed}


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
