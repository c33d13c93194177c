"""Assignment sites and definite assignment on A-normal form.

Guarantees: `sites` lists every statement that binds a local (assignments and
loop targets) with whether it sits in a loop; `definitely_assigned` answers,
for each such site, which locals are surely bound when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import gast

from ..syntax import nodes


@dataclass(frozen=True)
class Site:
    """A statement binding `name`; `in_loop` if it can run more than once per call."""

    stmt: gast.stmt
    name: str
    in_loop: bool
    region: bool = False  # `name[index] = ...`: overwrites part of a live array


@dataclass
class Flow:
    sites: list[Site] = field(default_factory=list)
    bound_before: dict[int, frozenset[str]] = field(default_factory=dict)  # id(stmt) -> names
    maybe_bound_before: dict[int, frozenset[str]] = field(default_factory=dict)
    bound_at_exit: frozenset[str] = frozenset()

    def site_count(self, name: str) -> int:
        return sum(1 for s in self.sites if s.name == name and not s.region)


def analyze(fn: gast.FunctionDef, params: list[str], once: frozenset[int] = frozenset()) -> Flow:
    """`once`: id() of loops that run exactly one pass (checkpointed blocks)."""
    flow = Flow()

    Sets = tuple[frozenset[str], frozenset[str]]  # (definitely bound, maybe bound)

    def block(stmts: list[gast.stmt], bound: Sets, in_loop: bool) -> Sets:
        surely, maybe = bound
        for stmt in stmts:
            flow.bound_before[id(stmt)] = surely
            flow.maybe_bound_before[id(stmt)] = maybe
            if nodes.is_item_write(stmt):
                flow.sites.append(Site(stmt, nodes.assigned_name(stmt), in_loop, region=True))
            elif isinstance(stmt, gast.Assign):
                name = stmt.targets[0].id
                flow.sites.append(Site(stmt, name, in_loop))
                surely, maybe = surely | {name}, maybe | {name}
            elif isinstance(stmt, gast.If):
                a = block(stmt.body, (surely, maybe), in_loop)
                b = block(stmt.orelse, (surely, maybe), in_loop)
                surely, maybe = a[0] & b[0], a[1] | b[1]
            elif isinstance(stmt, (gast.For, gast.While)):
                if isinstance(stmt, gast.For):
                    flow.sites.append(Site(stmt, stmt.target.id, in_loop))
                stored = set().union(*(nodes.names_stored(s) for s in stmt.body))
                if isinstance(stmt, gast.For):
                    stored.add(stmt.target.id)
                entry = surely | ({stmt.target.id} if isinstance(stmt, gast.For) else set())
                block(stmt.body, (entry, maybe | stored), in_loop or id(stmt) not in once)
                maybe = maybe | stored
        return surely, maybe

    flow.bound_at_exit = block(fn.body, (frozenset(params), frozenset(params)), False)[0]
    return flow
