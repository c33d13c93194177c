"""A-normal form: one operation per statement, every intermediate named.

Assumes: desugar ran (single Name targets, Name loop targets).
Guarantees (checked by `check`), every statement of the body is one of:
  - `name[index] = atom` (index of atoms and slices of atoms), writing in place;
  - `name op= atom`, until normalize.in_place lowers it;
  - `name = value` where value is an atom, or one operation on atoms: BinOp,
    UnaryOp, Compare (one operator), BoolOp, Call (a global function; list or
    tuple literals of atoms allowed as arguments), Attribute read of a local,
    Subscript (index of atoms and slices of atoms), Tuple, List or Dict of atoms,
    and the target is never one of the operation's operands; no call has an
    `out=` argument: `f(..., out=y)` is `_t = f(...)` then `y[...] = _t`, its value y;
  - `call(...)` as a statement (side effects, no value), `assert atom`;
  - `name.append(atom)` / `name.extend(atom)`, the only mutations of a list;
  - `if name: ... else: ...` where neither branch assigns `name` (nor writes into
    it): the backward sweep tests the name again before it undoes the branch;
  - `for name in name: ...` where the iterable is a range object;
  - `while name: ...` whose body assigns `name` only in its last statement, which
    recomputes the test;
  - a final `return name`.
`t = a and b` is `if a: t = b else: t = a` (`or` swaps the branches), so the
rest runs only when Python runs it and `t` holds the operand Python returns;
a chained comparison `a < b < c` is `t = _t1 and _t2` of the two comparisons.
An atom is a Name, a Constant, or a dotted reference to a global (`np.pi`).
Every If is built by `Normalizer.branch`, which keeps the test clause.
Temporaries are `_<target><n>`, branch flags `_c<n>`, ranges `_r<n>`.
Invalidates: every analysis.
"""

from __future__ import annotations

import builtins

import gast

from ..checkpoint import checkpointed
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..rules.registry import Registry
from ..runtime.schedule import BinomialPlan, IntervalPlan
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from . import checkpoints
from .anf_check import changed_in_place, check, written
from .anf_expressions import Expressions, Pre

__all__ = ["Normalizer", "check", "run"]


# Builtins returning an iterator, which has no len() and no items by position.
_ITERATORS = (builtins.zip, builtins.enumerate, builtins.map, builtins.filter)
_ITERATORS += (builtins.reversed, builtins.iter)


class Normalizer(Expressions):
    """Rewrites one function to A-normal form; stateless between functions."""

    def __init__(
        self,
        parsed: ParsedFunction,
        scope: Scope,
        registry: Registry,
        namespace: Namespace,
        namer: Namer,
        callables: frozenset[str] = frozenset(),
    ) -> None:
        self.parsed = parsed
        self.callables = callables  # local functions a later pass inlines (closures)
        self.scope = scope
        self.registry = registry
        self.namespace = namespace
        self.namer = namer
        self.checkpoints: dict[int, checkpoints.CheckpointedLoop] = {}
        self.update_temps: dict[int, str] = {}  # id(`z op= atom`) -> the name of its result

    # -- statements -----------------------------------------------------------------
    def block(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            out.extend(nodes.located(s, stmt) for s in self.stmt(stmt))
        return out

    def stmt(self, stmt: gast.stmt) -> list[gast.stmt]:
        if isinstance(stmt, gast.Assign):
            target = stmt.targets[0]
            if isinstance(target, gast.Subscript):
                return self.assign_item(target, stmt.value)
            return self.assign(target.id, stmt.value)
        if isinstance(stmt, gast.AugAssign):
            pre, atom = self.atom(stmt.value, _root(stmt.target.id))
            update = gast.AugAssign(target=stmt.target, op=stmt.op, value=atom)
            self.update_temps[id(update)] = self.namer.temp(stmt.target.id)  # in source order
            return [*pre, update]
        if isinstance(stmt, gast.Expr):
            if isinstance(stmt.value, gast.Call):
                pre, value = self.call(stmt.value, "call")
                # `f(x, out=y)` leaves `y`: what it wrote into y is in pre
                return [*pre, nodes.expr_stmt(value)] if isinstance(value, gast.Call) else pre
            pre, _ = self.atom(stmt.value, "t")
            return pre
        if isinstance(stmt, gast.Pass):
            return []
        if isinstance(stmt, gast.Assert):
            pre, test = self.atom(stmt.test, "c")
            msg_pre, msg = self.atom(stmt.msg, "msg") if stmt.msg is not None else ([], None)
            return [*pre, *msg_pre, gast.Assert(test=test, msg=msg)]
        if isinstance(stmt, gast.Raise):
            pre, exc = self.atom(stmt.exc, "exc") if stmt.exc is not None else ([], None)
            cause_pre, cause = (
                self.atom(stmt.cause, "cause") if stmt.cause is not None else ([], None)
            )
            return [*pre, *cause_pre, gast.Raise(exc=exc, cause=cause)]
        if isinstance(stmt, gast.If):
            pre, test = self.atom(stmt.test, "c")
            return self.branch(pre, test, self.block(stmt.body), self.block(stmt.orelse))
        if isinstance(stmt, gast.For):
            return self.for_(stmt)
        if isinstance(stmt, gast.While):
            if isinstance(stmt.test, gast.Name):
                body = self.block(stmt.body)
                if not any(stmt.test.id in written(s) for s in body):
                    return [nodes.while_(stmt.test, body)]
                # the body changes the test: a flag, recomputed only at its end
                flag = self.namer.temp("c")
                value = self.truth(stmt.test, body)
                again = nodes.located(nodes.assign(flag, nodes.deepcopy(value)), stmt.test)
                return [
                    nodes.located(nodes.assign(flag, value), stmt.test),
                    nodes.while_(nodes.name(flag), [*body, again]),
                ]
            saved = self.namer.snapshot()
            pre, flag = self.atom(stmt.test, "c")
            if not isinstance(flag, gast.Name):  # a literal test: `while True`
                name = self.namer.temp("c")
                pre.append(nodes.assign(name, flag))
                flag = nodes.name(name)
            # Recompute the test at the end of each pass with the same names.
            after = self.namer.snapshot()
            self.namer.restore(saved)
            again, _ = self.atom(nodes.deepcopy(stmt.test), "c")
            if not again:
                again = [nodes.assign(flag.id, nodes.deepcopy(flag))]
            self.namer.restore(after)
            pre = self.located_block(pre, stmt.test)
            again = self.located_block(again, stmt.test)
            return [*pre, nodes.while_(flag, [*self.block(stmt.body), *again])]
        if isinstance(stmt, gast.Return):
            if isinstance(stmt.value, gast.Name):
                return [nodes.return_(stmt.value)]
            result = self.namer.exact(self.parsed.node.name)
            return [*self.assign(result, stmt.value), nodes.return_(nodes.name(result))]
        raise self.unsupported(stmt, type(stmt).__name__, "rewrite it")

    def located_block(self, stmts: list[gast.stmt], origin: gast.AST) -> list[gast.stmt]:
        return [nodes.located(s, origin) for s in stmts]

    def branch(
        self, pre: Pre, test: gast.expr, body: list[gast.stmt], orelse: list[gast.stmt]
    ) -> list[gast.stmt]:
        """`pre; if test: body else: orelse` whose test is a name neither branch writes:
        the backward sweep tests it again before undoing the branch (every If is made
        here)."""
        if not isinstance(test, gast.Name) or any(test.id in written(s) for s in [*body, *orelse]):
            flag = self.namer.temp("c")
            pre = [*pre, nodes.assign(flag, self.truth(test, [*body, *orelse]))]
            test = nodes.name(flag)
        return [*pre, nodes.if_(test, body, orelse)]

    def truth(self, test: gast.expr, stmts: list[gast.stmt]) -> gast.expr:
        """What a flag for `test` holds: the test itself, or `bool(test)` when `stmts`
        change its value in place (a copy of the reference would change with it)."""
        if isinstance(test, gast.Name) and any(test.id in changed_in_place(s) for s in stmts):
            return nodes.call(nodes.name(self._builtin("bool")), [test])
        return test

    def for_(self, stmt: gast.For) -> list[gast.stmt]:
        target = stmt.target.id
        iterable = stmt.iter
        if isinstance(iterable, gast.Call):
            marker = self.scope.resolve(iterable.func)
            if marker is checkpointed:
                return self.checkpointed_for(stmt, iterable)
            if marker is checkpoints.region:
                # one step; the transform emits the body itself, never this loop
                one = nodes.name(self.namespace.bind("ONE_STEP", (0,), self.namer))
                loop = nodes.for_(target, one, self.block(stmt.body))
                self.checkpoints[id(loop)] = checkpoints.CheckpointedLoop("region", None)
                return [loop]
        if isinstance(iterable, gast.Call) and self.scope.resolve(iterable.func) is builtins.range:
            if iterable.keywords:
                raise self.unsupported(iterable, "range() with keywords", "pass positions")
            pre, args = self.atoms(iterable.args, "r")
            rng = self.namer.temp("r")
            pre.append(nodes.assign(rng, nodes.call(iterable.func, args)))
            if not _rebinds(stmt):
                return [*pre, nodes.for_(target, nodes.name(rng), self.block(stmt.body))]
            index = self.namer.temp(target)  # each pass copies its position to the target
            first = nodes.located(nodes.assign(target, nodes.name(index)), stmt)
            return [*pre, nodes.for_(index, nodes.name(rng), [first, *self.block(stmt.body)])]
        # Any other iterable: loop over the positions of its first axis (an iterator
        # such as zip(a, b, strict=True) or map(f, xs) made a list first: it has no len).
        if isinstance(iterable, gast.Call) and self.scope.resolve(iterable.func) in _ITERATORS:
            iterable = nodes.call(nodes.name(self._builtin("list")), [iterable])
        pre, seq = self.atom(iterable, "seq")
        if not isinstance(seq, gast.Name):
            name = self.namer.temp("seq")
            pre.append(nodes.assign(name, seq))
            seq = nodes.name(name)
        index, rng, count = self.namer.temp("i"), self.namer.temp("r"), self.namer.temp("n")
        pre.append(nodes.assign(count, nodes.call(nodes.name(self._builtin("len")), [seq])))
        positions = nodes.call(nodes.name(self._builtin("range")), [nodes.name(count)])
        pre.append(nodes.assign(rng, positions))
        item = nodes.located(
            nodes.assign(target, nodes.subscript(nodes.deepcopy(seq), nodes.name(index))), stmt
        )
        body = [item, *self.block(stmt.body)]
        return [*pre, nodes.for_(index, nodes.name(rng), body)]

    def checkpointed_for(self, stmt: gast.For, marker: gast.Call) -> list[gast.stmt]:
        """`for t in checkpointed(s, snapshots=k)`: a loop over the positions of s,
        with the schedule object made before it (`_plan = BinomialPlan(len(_r), k)`)."""
        inner = marker.args[0]
        counted = (
            isinstance(inner, gast.Call)
            and self.scope.resolve(inner.func) is range
            and len(inner.args) == 1
            and not inner.keywords
        )
        keyword = marker.keywords[0]
        index, rng, steps = self.namer.temp("i"), self.namer.temp("r"), self.namer.temp("n")
        plan = self.namer.temp("plan")
        if counted:  # range(stop): the positions are the values, the loop keeps its target
            pre, stop = self.atom(inner.args[0], "n")
            index = self.namer.temp(stmt.target.id) if _rebinds(stmt) else stmt.target.id
            pre.append(nodes.assign(rng, nodes.call(nodes.name(self._builtin("range")), [stop])))
            length = nodes.call(nodes.name(self._builtin("len")), [nodes.name(rng)])
            pre.append(nodes.assign(steps, length))
        else:
            pre, seq = self.atom(inner, "seq")
            if not isinstance(seq, gast.Name):
                name = self.namer.temp("seq")
                pre.append(nodes.assign(name, seq))
                seq = nodes.name(name)
            length = nodes.call(nodes.name(self._builtin("len")), [seq])
            pre.append(nodes.assign(steps, length))
            count = nodes.call(nodes.name(self._builtin("range")), [nodes.name(steps)])
            pre.append(nodes.assign(rng, count))
        more, budget = self.atom(keyword.value, keyword.arg)
        pre += more
        kind, cls = (
            ("binomial", BinomialPlan) if keyword.arg == "snapshots" else ("interval", IntervalPlan)
        )
        make = nodes.name(self.namespace.bind(cls.__name__, cls, self.namer))
        pre.append(nodes.assign(plan, nodes.call(make, [nodes.name(steps), budget])))
        head = []
        if not counted:
            item = nodes.assign(stmt.target.id, nodes.subscript(seq, nodes.name(index)))
            head.append(nodes.located(item, stmt))
        elif index != stmt.target.id:
            head.append(nodes.located(nodes.assign(stmt.target.id, nodes.name(index)), stmt))
        loop = nodes.for_(index, nodes.name(rng), [*head, *self.block(stmt.body)])
        self.checkpoints[id(loop)] = checkpoints.CheckpointedLoop(kind, plan)
        return [*pre, loop]

    def _builtin(self, name: str) -> str:
        return self.namespace.bind(name, getattr(builtins, name), self.namer)

    # -- assignments ----------------------------------------------------------------
    def assign(self, target: str, value: gast.expr) -> list[gast.stmt]:
        if isinstance(value, gast.IfExp):
            pre, test = self.atom(value.test, "c")
            body = self.assign(target, value.body)
            orelse = self.assign(target, value.orelse)
            return self.branch(pre, test, body, orelse)
        if isinstance(value, gast.BoolOp):
            return self.lower_boolop(target, value)
        pre, op = self.operation(value, _root(target))
        if isinstance(op, gast.Name) and op.id == target:
            return pre
        if not self.is_atom(op) and target in nodes.names_read(op):
            tmp = self.namer.temp(target)
            return [*pre, nodes.assign(tmp, op), nodes.assign(target, nodes.name(tmp))]
        return [*pre, nodes.assign(target, op)]

    def assign_item(self, target: gast.Subscript, value: gast.expr) -> list[gast.stmt]:
        """`y[index] = value` with an atom value and an index of atoms."""
        base = target.value.id
        pre, atom = self.atom(value, base)
        idx_pre, index = self.index(target.slice, base)
        store = gast.Subscript(value=nodes.name(base), slice=index, ctx=gast.Store())
        store.augmented = getattr(target, "augmented", False)  # normalize/desugar.py
        return [*pre, *idx_pre, nodes.assign(store, atom)]

    def lower_boolop(self, target: str, node: gast.BoolOp) -> list[gast.stmt]:
        """`t = a and b` -> `if a: t = b else: t = a` (`or` swaps the branches): the rest
        runs only when Python would run it, `t` gets the value Python gives it (an
        operand, not a bool: `x or 1.0`), and differentiates like any branch."""
        first, *rest = node.values
        pre, test = self.operation(first, _root(target))
        remainder = rest[0] if len(rest) == 1 else gast.BoolOp(op=node.op, values=rest)
        then = self.assign(target, remainder)
        if not isinstance(test, gast.Name) or any(test.id in written(s) for s in then):
            flag = self.namer.temp("c")
            pre.append(nodes.assign(flag, test))
            test = nodes.name(flag)
        keep = [nodes.assign(target, nodes.deepcopy(test))]
        if isinstance(node.op, gast.And):
            return self.branch(pre, test, then, keep)
        return self.branch(pre, test, keep, then)

    # -- expressions ----------------------------------------------------------------


def _root(name: str) -> str:
    """The user-facing stem of a name: `_logp3` -> `logp`."""
    return name.strip("_").rstrip("0123456789") or name.strip("_") or "t"


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    scope: Scope,
    registry: Registry,
    namespace: Namespace,
    namer: Namer,
    callables: frozenset[str] = frozenset(),
    checkpointed_loops: dict[int, checkpoints.CheckpointedLoop] | None = None,
    update_temps: dict[int, str] | None = None,
) -> gast.FunctionDef:
    """Rewrite `fn` in place; the checkpointed loops found go into `checkpointed_loops`,
    the names chosen for the results of `z op= atom` into `update_temps`."""
    normalizer = Normalizer(parsed, scope, registry, namespace, namer, callables)
    fn.body = normalizer.block(fn.body)
    check(fn, parsed)
    if checkpointed_loops is not None:
        checkpointed_loops.update(normalizer.checkpoints)
    if update_temps is not None:
        update_temps.update(normalizer.update_temps)
    return fn


def _rebinds(loop: gast.For) -> bool:
    """Whether the body of a range loop binds its target (`for i in range(n): i += 1`).
    The backward sweep runs the loop's positions again in reverse: such a loop gets a
    target of its own, copied to the user's at the top of each pass, so the user's is
    an ordinary variable (saved where the body overwrites it), never the position."""
    return any(loop.target.id in nodes.names_stored(s) for s in loop.body)
