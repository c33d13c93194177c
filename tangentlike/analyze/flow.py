"""Assignment sites and definite assignment on A-normal form.

Guarantees: `sites` lists every statement that binds a local (assignments and
loop targets) with whether it sits in a loop; `definitely_assigned` answers,
for each such site, which locals are surely bound when it runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import gast


@dataclass(frozen=True)
class Site:
    """A statement binding `name`; `in_loop` if it can run more than once per call."""

    stmt: gast.stmt
    name: str
    in_loop: bool


@dataclass
class Flow:
    sites: list[Site] = field(default_factory=list)
    bound_before: dict[int, frozenset[str]] = field(default_factory=dict)  # id(stmt) -> names
    bound_at_exit: frozenset[str] = frozenset()

    def site_count(self, name: str) -> int:
        return sum(1 for s in self.sites if s.name == name)


def analyze(fn: gast.FunctionDef, params: list[str]) -> Flow:
    flow = Flow()

    def block(stmts: list[gast.stmt], bound: frozenset[str], in_loop: bool) -> frozenset[str]:
        for stmt in stmts:
            flow.bound_before[id(stmt)] = bound
            if isinstance(stmt, gast.Assign):
                name = stmt.targets[0].id
                flow.sites.append(Site(stmt, name, in_loop))
                bound = bound | {name}
            elif isinstance(stmt, gast.If):
                a = block(stmt.body, bound, in_loop)
                b = block(stmt.orelse, bound, in_loop)
                bound = a & b
            elif isinstance(stmt, gast.For):
                flow.sites.append(Site(stmt, stmt.target.id, in_loop))
                block(stmt.body, bound | {stmt.target.id}, True)
            elif isinstance(stmt, gast.While):
                block(stmt.body, bound, True)
        return bound

    flow.bound_at_exit = block(fn.body, frozenset(params), False)
    return flow
