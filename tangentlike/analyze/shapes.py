"""Which values certainly have the shape of which parameter, on A-normal form.

Assumes: A-normal form. Guarantees: `Shapes.before[id(stmt)][name]` and
`Shapes.result[id(stmt)]` are a shape class -- `SCALAR`, or `("param", p)`
for "the shape parameter p has when the call starts" -- only when that holds
on every path; unknown shapes are absent. Elementwise operations (operators
and rules marked elementwise) of operands of one class, or of that class and
scalars, have that class. The transform uses it to drop `unbroadcast` where
an operand already has the result's shape, so the backward sweep does not
read (and the forward sweep need not save) that operand.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

import gast

from ..parse.resolve import Scope
from ..rules.registry import Registry
from ..syntax import nodes

SCALAR = ("scalar",)
Shape = tuple[str, ...]
Env = dict[str, Shape]

_ELEMENTWISE_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.Mod, gast.FloorDiv)
_SCALAR_MAKERS = (builtins.float, builtins.int, builtins.len, builtins.bool)


@dataclass
class Shapes:
    before: dict[int, Env] = field(default_factory=dict)  # id(stmt) -> shapes of names
    result: dict[int, Shape] = field(default_factory=dict)  # id(assignment) -> its value's

    def same(self, stmt: gast.stmt, name: str) -> bool:
        """Whether `name`, when `stmt` runs, has the shape of the value `stmt` assigns."""
        known = self.result.get(id(stmt))
        return known is not None and self.before.get(id(stmt), {}).get(name) == known


def analyze(
    fn: gast.FunctionDef, scope: Scope, registry: Registry, scalars: frozenset[str] = frozenset()
) -> Shapes:
    """The shapes of `fn`'s values; `scalars`: parameters known to hold a Python number
    when the call starts (a build specialised to its arguments, job.Job.scalars)."""
    shapes = Shapes()

    def of(node: gast.expr, env: Env) -> Shape | None:
        if isinstance(node, gast.Constant):
            return SCALAR if isinstance(node.value, (bool, int, float, complex)) else None
        if isinstance(node, gast.Name):
            return env.get(node.id)
        if isinstance(node, gast.BinOp) and isinstance(node.op, _ELEMENTWISE_OPS):
            return _combine([of(node.left, env), of(node.right, env)])
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return of(node.operand, env)
        if isinstance(node, gast.Call) and not node.keywords:
            callee = scope.resolve(node.func)
            if any(callee is f for f in _SCALAR_MAKERS):
                return SCALAR
            rule = registry.lookup(callee)
            if rule is not None and rule.elementwise and node.args:
                return _combine([of(a, env) for a in node.args])
        return None

    def block(stmts: list[gast.stmt], env: Env) -> Env:
        for stmt in stmts:
            shapes.before[id(stmt)] = dict(env)
            if isinstance(stmt, gast.Assign):
                if nodes.is_item_write(stmt):
                    continue  # writing into y keeps y's shape
                shape = of(stmt.value, env)
                name = stmt.targets[0].id
                env = {k: v for k, v in env.items() if k != name}
                if shape is not None:
                    shapes.result[id(stmt)] = shape
                    env[name] = shape
            elif isinstance(stmt, gast.If):
                env = _join(block(stmt.body, env), block(stmt.orelse, env))
            elif isinstance(stmt, (gast.For, gast.While)):
                entry = env
                if isinstance(stmt, gast.For):
                    entry = {k: v for k, v in entry.items() if k != stmt.target.id}
                while True:  # each name can only lose its shape: this ends
                    end = block(stmt.body, entry)
                    joined = _join(entry, end)
                    if joined == entry:
                        break
                    entry = joined
                env = _join(env, entry)
                if isinstance(stmt, gast.For):
                    env.pop(stmt.target.id, None)
        return env

    params = nodes.param_names(fn)
    block(fn.body, {p: SCALAR if p in scalars else ("param", p) for p in params})
    return shapes


def _combine(parts: list[Shape | None]) -> Shape | None:
    if any(p is None for p in parts):
        return None
    arrays = {p for p in parts if p != SCALAR}
    if not arrays:
        return SCALAR
    return arrays.pop() if len(arrays) == 1 else None


def _join(a: Env, b: Env) -> Env:
    return {k: v for k, v in a.items() if b.get(k) == v}
