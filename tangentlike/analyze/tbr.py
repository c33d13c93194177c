"""To-be-recorded analysis: which assignment sites push the value they overwrite.

Assumes: A-normal form, its flow analysis (analyze/flow.py), and for each statement
the names its backward code reads (`adjoint_reads`: the statement's adjoint with
everything nested in it). Guarantees: `pushed_sites` returns the sites (id() of
their statements) that push: a site pushes the value it overwrites only when the
backward sweep reads that variable after the site's pop (or at the very end) and
the site can overwrite a live value (a parameter, a variable bound more than once,
or a site inside a loop); a region write (`y[i] = v`) always pushes. Everything
else is never stored. `unbound_saved` names the pushed variables that may still be
unbound when first pushed (the generated code binds them to None at entry).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import gast

from ..syntax import nodes
from .flow import Flow


def pushed_sites(
    fn: gast.FunctionDef,
    flow: Flow,
    adjoint_reads: Callable[[gast.stmt], set[str]],
    read_by_backward: set[str],
    read_at_end: Iterable[str] = (),
    join_reads: Callable[[gast.If], set[str]] = lambda _: set(),
) -> frozenset[int]:
    """id() of the sites of `fn` that push the value they overwrite. `join_reads(if_)`:
    what the zeros that branch's join needs read, after the pops of its statements."""
    params = set(nodes.all_param_names(fn))
    at_end = set(read_at_end)
    seen = reads_after_pop(fn, adjoint_reads, join_reads)
    pushed = set()
    for site in flow.sites:
        if site.region:
            pushed.add(id(site.stmt))  # always: views of y may be read, and y is restored
            continue
        if site.name not in read_by_backward:
            continue
        if site.name not in seen[id(site.stmt)] and site.name not in at_end:
            continue
        if not site.in_loop and site.name not in flow.maybe_bound_before[id(site.stmt)]:
            continue  # nothing bound yet: no old value to restore
        if site.name in params or site.in_loop or flow.site_count(site.name) > 1:
            pushed.add(id(site.stmt))
    return frozenset(pushed)


def reads_after_pop(
    fn: gast.FunctionDef,
    adjoint_reads: Callable[[gast.stmt], set[str]],
    join_reads: Callable[[gast.If], set[str]] = lambda _: set(),
) -> dict[int, set[str]]:
    """For each statement, the names the backward sweep may read after that statement's
    pop: what the adjoints of the statements that can run before it read (in a loop,
    the whole loop, as earlier passes run before)."""
    seen: dict[int, set[str]] = {}
    memo: dict[int, set[str]] = {}

    def every(stmt: gast.stmt) -> set[str]:
        if id(stmt) not in memo:
            memo[id(stmt)] = adjoint_reads(stmt)
        return memo[id(stmt)]

    def walk(stmts: list[gast.stmt], earlier: set[str]) -> set[str]:
        for stmt in stmts:
            seen[id(stmt)] = earlier
            if isinstance(stmt, gast.If):
                # the zeros a join needs are set after the pops of the branch's statements
                inside = earlier | nodes.names_read(stmt.test) | join_reads(stmt)
                walk(stmt.body, inside)
                walk(stmt.orelse, inside)
            elif isinstance(stmt, (gast.For, gast.While)):
                walk(stmt.body, earlier | every(stmt))
            earlier = earlier | every(stmt)
        return earlier

    walk(fn.body, set())
    return seen


def unbound_saved(flow: Flow, pushed: frozenset[int]) -> list[str]:
    """Saved variables that may be unbound when first pushed (they get `= None`)."""
    names = set()
    for site in flow.sites:
        if site.region:
            continue  # writing into y needs y bound anyway
        if id(site.stmt) in pushed and site.name not in flow.bound_before[id(site.stmt)]:
            names.add(site.name)
    return sorted(names)


def primal_reads(
    fn: gast.FunctionDef, counters: Iterable[str], code: Iterable[gast.stmt]
) -> set[str]:
    """Forward-sweep variables (the function's, and while-loop trip `counters`) that
    backward `code` reads."""
    primal = set(nodes.all_param_names(fn)) | set(counters)
    for stmt in fn.body:
        primal |= nodes.names_stored(stmt)
    read: set[str] = set()
    for stmt in code:
        read |= nodes.names_read(stmt)
    return read & primal
