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
from .stack_entries import StackEntries

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
    (higher/forms.py), whose pops restore what the same name pushed (see `_restored`)."""
    restored = _restored(fn, scope) if form else {}
    flows: list[tuple[str, list[str]]] = []
    varies_as: list[tuple[str, list[str]]] = []  # flows, but a pop varies as its variable
    for a in assignments(fn.body):
        target = nodes.assigned_name(a)
        # a write into y keeps the rest of y: the new y depends on the old one too
        operands = data_operands(a.value, scope, registry)
        operands += [target] if nodes.is_item_write(a) else []
        flows.append((target, operands))
        varies_as.append((target, [restored[id(a)]] if id(a) in restored else operands))
    # `xs.append(v)`: the new xs depends on v and on the old xs
    for stmt in containers.mutations(fn.body):
        xs, _, arg = containers.mutation(stmt)
        flows.append((xs, [*data_operands(arg, scope, registry), xs]))
        varies_as.append(flows[-1])
    varied = set(wrt)
    changed = True
    while changed:
        changed = False
        for target, operands in varies_as:
            if target not in varied and any(o in varied for o in operands):
                varied.add(target)
                changed = True
    ret = fn.body[-1].value.id
    useful = {ret}  # a pop reads the chain: its tangent comes through the chain's
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


def _restored(fn: gast.FunctionDef, scope: Scope) -> dict[int, str]:
    """id(pop) -> the variable X whose value a pop from the function's own stack chain
    restores (analyze/stack_entries.py: `X = S[0]`, or `T = S[0]` before
    `X = popped_array(T, ...)`). The generated gradient pushes a name's value before
    overwriting it and its backward sweep pops it back into that name, so such a pop
    binds a value X held earlier: it varies only where X's other bindings do. (The
    chain itself varies with every value pushed, so read through it, the pop would vary
    whenever any value pushed does: an exponent `k + 1` restored in a loop, taken for
    varied, makes its zero tangent meet the nan of log(x) at a negative x.)"""
    entries = StackEntries(fn, scope.resolve)
    found = {}
    for a in assignments(fn.body):
        variable = entries.restored(a)
        if variable is not None:
            found[id(a)] = variable
    return found


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
