"""Random statements: assignments, rebinding, augmented assignment, branches, early
returns, lists, dicts and tuple-returning helper calls; loops live in `loops`,
array writes and in-place updates through aliases, views and out= in `inplace`.

A statement is a list of source lines (indented relative to its block) and
updates the scope it runs in; a block gets a child scope, so names first bound
inside a branch or loop are not used after it (outer names are rebound with
values of the same shape, so their types hold on every path).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from . import inplace, loops
from .expressions import NONZERO, ExprGen
from .scope import Arr, Dct, Helper, Lst, Names, Scope, Shape, pick, prefix_of

Lines = list[str]


@dataclass(frozen=True)
class Ctx:
    """Where a statement goes: the shapes a `return` there must give, and how deep in
    loops and blocks it is."""

    returns: tuple[Shape, ...] = ((),)
    loop_depth: int = 0
    nesting: int = 0

    def nested(self, loop: bool = False) -> Ctx:
        return replace(self, nesting=self.nesting + 1, loop_depth=self.loop_depth + loop)


def indent(lines: Lines) -> Lines:
    return ["    " + line for line in lines]


class StmtGen:
    """Statements of one module. `must_use` collects names whose final value should
    reach f's result (the bases of in-place updates through aliases)."""

    def __init__(self, rng: random.Random, names: Names, helpers: Sequence[Helper]) -> None:
        self.rng = rng
        self.names = names
        self.helpers = helpers
        self.must_use: set[str] = set()
        self.budget = 8  # about how many more lines this function may get

    def exprs(self, scope: Scope) -> ExprGen:
        return ExprGen(self.rng, scope, self.helpers, self.names)

    def depth(self) -> int:
        return pick(self.rng, [(4, 1), (4, 2), (1, 3)])

    def block(self, scope: Scope, ctx: Ctx, count: int) -> Lines:
        lines: Lines = []
        for _ in range(count):
            lines += self.statement(scope, ctx)
        return lines or ["pass"]

    def statement(self, scope: Scope, ctx: Ctx) -> Lines:
        """One statement; compound ones only while the line budget lasts."""
        self.budget -= 1
        top = ctx.nesting == 0
        room = self.budget > 3
        lists = scope.of(Lst)
        fresh = scope.arrays(fresh=True)
        tuples = [h for h in self.helpers if len(h.returns) > 1]
        menu: list[tuple[float, Callable[[], Lines]]] = [
            (5 if top else 1.5, lambda: self.assign(scope)),
            (2 if top else 3.5, lambda: self.rebind(scope)),
            (2 if top else 3, lambda: self.augassign(scope)),
            (1.6 if top else 0.4, lambda: inplace.fresh_array(self, scope)),
            (1.8 if top else 0.7, lambda: inplace.alias(self, scope)),
            (0.6 if top else 0.2, lambda: inplace.out_call(self, scope)),
            (room * (2.2 if ctx.nesting < 2 else 0), lambda: self.if_stmt(scope, ctx)),
            (0.6 if ctx.nesting < 2 else 0.2, lambda: self.return_if(scope, ctx)),
            (
                room * (4.5 if top else 0.8 * (ctx.loop_depth < 2)),
                lambda: loops.for_stmt(self, scope, ctx),
            ),
            (
                room * (0.9 if top else 0.2 * (ctx.loop_depth < 2)),
                lambda: loops.while_stmt(self, scope, ctx),
            ),
            (1.6 if top else 0.3, lambda: self.list_stmt(scope)),
            (1.0 if top else 0.1, lambda: self.dict_stmt(scope)),
            (1.2 * bool(tuples), lambda: self.tuple_call(scope, tuples)),
            (2.0 * bool(lists) * (not top), lambda: self.append(scope, lists)),
            (1.5 * bool(fresh) * (not top), lambda: inplace.setitem(self, scope, fresh)),
        ]
        return pick(self.rng, menu)()

    # -- assignment ---------------------------------------------------------------

    def target_shape(self, scope: Scope) -> Shape:
        choices: list[tuple[float, Shape]] = [(4, ()), (0.5, (2,)), (0.5, (3,)), (0.4, (2, 2))]
        choices += [(2, s) for s in scope.shapes() if s != ()]
        return pick(self.rng, choices)

    def assign(self, scope: Scope) -> Lines:
        shape = self.target_shape(scope)
        name = self.names.new(prefix_of(shape))
        value = self.exprs(scope).expr(shape, self.depth())
        scope.add(name, Arr(shape))
        return [f"{name} = {value}"]

    def pick_array(self, scope: Scope, shape: Shape | None = None) -> str | None:
        names = scope.arrays(shape)
        if not names:
            return None
        weights = [
            (2.0 if n in ("x", "y", "w", "A") else 1.0 + i / len(names), n)
            for i, n in enumerate(names)
        ]
        return pick(self.rng, weights)

    def rebind(self, scope: Scope) -> Lines:
        name = self.pick_array(scope)
        if name is None:
            return self.assign(scope)
        typ = scope.names[name]
        assert isinstance(typ, Arr)
        g = self.exprs(scope)
        value = g.expr(typ.shape, self.depth())
        if self.rng.random() < 0.45:
            value = f"{name} {self.rng.choice('+-*')} {value}"
            if self.rng.random() < 0.3:
                value = f"0.5 * {name} + np.tanh({g.expr(typ.shape, 1)})"
        scope.rebind(name, Arr(typ.shape))
        return [f"{name} = {value}"]

    def augassign(self, scope: Scope) -> Lines:
        name = self.pick_array(scope)
        if name is None:
            return self.assign(scope)
        typ = scope.names[name]
        assert isinstance(typ, Arr)
        return [f"{name} {self.aug_rhs(scope, typ.shape)}"]

    def aug_rhs(self, scope: Scope, shape: Shape) -> str:
        """`op= value` for a target of `shape`: the value has that shape or is a scalar."""
        g = self.exprs(scope)
        op = pick(self.rng, [(3, "+="), (2, "-="), (2, "*="), (1.2, "/=")])
        value_shape = shape if self.rng.random() < 0.6 else ()
        if op == "/=":
            value = self.rng.choice([g.literal(NONZERO), f"({g.expr(value_shape, 1)} ** 2 + 1.0)"])
        elif op == "*=":
            value = self.rng.choice(
                [g.literal(), f"np.cos({g.expr(value_shape, 1)})", g.expr(value_shape, 1)]
            )
        else:
            value = g.expr(value_shape, self.depth())
        return f"{op} {value}"

    # -- branches and returns ---------------------------------------------------

    def if_stmt(self, scope: Scope, ctx: Ctx) -> Lines:
        g = self.exprs(scope)
        inner = ctx.nested()
        count = lambda: self.rng.choice([1, 1, 2, 3])  # noqa: E731
        lines = [f"if {g.cond(self.depth())}:"]
        lines += indent(self.block(scope.child(), inner, count()))
        while self.rng.random() < 0.3:
            lines += [f"elif {g.cond(self.depth())}:"]
            lines += indent(self.block(scope.child(), inner, count()))
        if self.rng.random() < 0.5:
            lines += ["else:", *indent(self.block(scope.child(), inner, count()))]
        return lines

    def return_value(self, scope: Scope, ctx: Ctx) -> str:
        g = self.exprs(scope)
        return ", ".join(g.expr(s, self.depth()) for s in ctx.returns)

    def return_if(self, scope: Scope, ctx: Ctx) -> Lines:
        g = self.exprs(scope)
        inner = scope.child()
        body = self.block(inner, ctx.nested(), 1) if self.rng.random() < 0.3 else []
        return [
            f"if {g.cond(self.depth())}:",
            *indent(body),
            f"    return {self.return_value(inner, ctx)}",
        ]

    # -- containers and helpers -------------------------------------------------

    def list_stmt(self, scope: Scope) -> Lines:
        g = self.exprs(scope)
        name = self.names.new("L")
        shape = pick(self.rng, [(3, ()), *[(1, s) for s in scope.shapes() if len(s) == 1]])
        kind = pick(self.rng, [(3, "literal"), (2, "seed"), (2, "comp"), (0.6, "list")])
        vecs = scope.arrays((4,)) or scope.arrays((3,))
        if kind == "comp" and vecs:
            inner = scope.child()
            e = self.names.new("e")
            inner.add(e, Arr(()))
            body = g.with_scope(inner)
            filt = f" if {body.cond(1)}" if self.rng.random() < 0.6 else ""
            seq = self.rng.choice(vecs)
            scope.add(name, Lst((), None if filt else scope.shape(seq)[0]))
            return [f"{name} = [{body.expr((), self.depth())} for {e} in {seq}{filt}]"]
        if kind == "list" and vecs:
            seq = self.rng.choice(vecs)
            scope.add(name, Lst((), scope.shape(seq)[0]))
            return [f"{name} = list({seq})"]
        count = 1 if kind == "seed" else self.rng.choice([2, 3])
        items = [g.expr(shape, self.depth()) for _ in range(count)]
        scope.add(name, Lst(shape, count))
        return [f"{name} = [{', '.join(items)}]"]

    def append(self, scope: Scope, lists: list[str]) -> Lines:
        name = self.rng.choice(lists)
        typ = scope.names[name]
        assert isinstance(typ, Lst)
        value = self.exprs(scope).expr(typ.shape, self.depth())
        scope.rebind(name, Lst(typ.shape, None))
        return [f"{name}.append({value})"]

    def dict_stmt(self, scope: Scope) -> Lines:
        g = self.exprs(scope)
        name = self.names.new("D")
        shape = pick(self.rng, [(3, ()), *[(1, s) for s in scope.shapes() if len(s) == 1]])
        keys = ["a", "b"]
        items = ", ".join(f"{k!r}: {g.expr(shape, self.depth())}" for k in keys)
        lines = [f"{name} = {{{items}}}"]
        if self.rng.random() < 0.05:
            lines.append(f"{name}['c'] = {g.expr(shape, 1)}")
            keys.append("c")
        scope.add(name, Dct(shape, tuple(keys)))
        return lines

    def tuple_call(self, scope: Scope, tuples: list[Helper]) -> Lines:
        helper = self.rng.choice(tuples)
        targets = [self.names.new(prefix_of(s)) for s in helper.returns]
        call = self.exprs(scope).call(helper, self.depth() - 1)
        for t, s in zip(targets, helper.returns, strict=True):
            scope.add(t, Arr(s))
        return [f"{', '.join(targets)} = {call}"]
