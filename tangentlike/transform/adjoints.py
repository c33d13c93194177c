"""Adjoint accumulation: the backward code that adds a value to a variable's adjoint.

Assumes: a planned Context (adjoint names, `structured` containers). Guarantees:
an adjoint is assigned at its first contribution (`bx = v`) and accumulated out of
place after that (`bx = bx + v`; `add(bx, v)` for a list or dict adjoint, where `+`
would concatenate), in place (`bx += v`) where its array is owned (a new array no
other name refers to: the sum, and the array it replaces, are the code's alone);
the returned `Defined` (transform/defined.py) says which adjoints are assigned and
which arrays the generated code owns. Also the restores (`x = _pop()`) a backward
visit leaves for to-be-recorded analysis to keep or drop.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..syntax import nodes
from . import sweep
from .context import Context
from .defined import Defined


class Adjoints:
    """Adds contributions to adjoints (shared by every backward code generator)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def builtin(self, name: str) -> str:
        import builtins

        return self.ctx.namespace.bind(name, getattr(builtins, name), self.ctx.namer)

    def zeros(self, name: str) -> gast.stmt:
        if name in self.ctx.structured:
            value = nodes.call(self.ctx.helper("zeros_of"), [nodes.name(name)])
            return nodes.assign(self.ctx.adjoint[name], value)
        value = nodes.call(self.ctx.np("zeros_like"), [nodes.name(name)])
        return nodes.assign(self.ctx.adjoint[name], value)

    def zero_inits(
        self, adjoints: frozenset[str], bound: frozenset[str] | None = None
    ) -> list[gast.stmt]:
        """Zero adjoints where control flow joins. `bound`: the primals surely bound there
        (None: all); a primal that may be unbound on this path is bound to None at entry
        and its zero is `zeros_of` (None for None): no code reads the adjoint of a value
        that was never bound."""
        by_adjoint = {b: p for p, b in self.ctx.adjoint.items()}
        out = []
        for b in sorted(adjoints):
            primal = by_adjoint[b]
            if bound is None or primal in bound:
                out.append(self.zeros(primal))
            else:
                self.ctx.prebound.add(primal)
                zero = nodes.call(self.ctx.helper("zeros_of"), [nodes.name(primal)])
                out.append(nodes.assign(b, zero))
        return out

    # -- one assignment ---------------------------------------------------------
    def receives(self, binding: gast.expr) -> bool:
        """Whether a contribution to `binding` reaches an active variable (`contribute`
        delivers it, or refuses a binding it cannot deliver to)."""
        return bool(nodes.names_read(binding) & self.ctx.active)

    def contribute(
        self, binding: gast.expr, value: gast.expr, defined: Defined, owned: bool = False
    ):
        """Add `value` to the adjoint of the variable(s) in `binding`.

        `owned`: value's array belongs to this code alone (an adjoint updated in
        place that dies here), so the adjoint receiving it may be updated in place.
        """
        ctx = self.ctx
        if isinstance(binding, gast.Name):
            if binding.id not in ctx.active:
                return [], defined
            return self.accumulate(binding.id, value, defined, owned)
        if isinstance(binding, (gast.List, gast.Tuple)):
            for e in binding.elts:
                if not isinstance(e, gast.Name) and nodes.names_read(e) & ctx.active:
                    return self.contribute(e, value, defined)  # refused below
            targets = [
                (i, e.id)
                for i, e in enumerate(binding.elts)
                if isinstance(e, gast.Name) and e.id in ctx.active
            ]
            if not targets:
                return [], defined
            if isinstance(value, gast.Tuple) and len(value.elts) == len(binding.elts):
                code = []  # a tuple of the pieces' expressions: each goes to its own
                pieces = [value.elts[i] for i, _ in targets]
            else:
                parts = ctx.namer.temp("parts")
                code = [nodes.assign(parts, value)]
                pieces = [nodes.subscript(nodes.name(parts), nodes.const(i)) for i, _ in targets]
            for (_, name), piece in zip(targets, pieces, strict=True):
                more, defined = self.accumulate(name, piece, defined)
                code.extend(more)
            return code, defined
        if nodes.names_read(binding) & ctx.active:  # a form A-normal form does not make
            raise ctx.error(
                binding,
                "differentiating through this expression is not supported",
                "assign it to a variable first",
            )
        return [], defined  # a literal or a global: it has no adjoint

    def accumulate(self, name: str, value: gast.expr, defined: Defined, owned: bool = False):
        b = self.ctx.adjoint[name]
        if name in self.ctx.structured:  # may be a list or dict: `+` would concatenate
            if b in defined:
                value = nodes.call(self.ctx.helper("add"), [nodes.name(b), value])
            return [nodes.assign(b, value)], defined.assigned(b)
        op: gast.operator = gast.Add()
        if b in defined and _negated(value) is not None:  # b + -g is b - g, one operation
            value, op = _negated(value), gast.Sub()
        if b in defined.owned:  # its array is this code's alone: add into it
            update = gast.AugAssign(target=nodes.name(b, store=True), op=op, value=value)
            return [update], defined
        if b in defined:
            value = nodes.binop(nodes.name(b), op, value)
        return [nodes.assign(b, value)], defined.assigned(b, owned or self.allocates(value))

    def allocates(self, value: gast.expr) -> bool:
        """Whether `value` is certainly a new array no other name refers to."""
        if isinstance(value, gast.BinOp):
            return True
        if isinstance(value, gast.UnaryOp):
            return isinstance(value.op, gast.USub)
        if isinstance(value, gast.Call) and isinstance(value.func, gast.Name):
            helper = self.ctx.namespace.objects.get(value.func.id)
            return helper in (runtime.matmul_vjp_a, runtime.matmul_vjp_b)
        return False


def pop_marker(site: gast.stmt, restore: gast.stmt) -> gast.stmt:
    """`restore` (e.g. `x = _pop()`), kept only if the site turns out to push
    (transform/sweep.py: Restore, resolved by assemble.resolve_pops)."""
    return sweep.restore(site, restore)


def popped(target: str, ctx: Context) -> gast.stmt:
    return nodes.assign(target, nodes.call(nodes.name(ctx.pop), []))


def index_expr(index: gast.expr) -> gast.expr:
    """A subscript index as a runtime value (slices become slice(...) calls)."""
    if isinstance(index, gast.Slice):
        parts = [index.lower, index.upper, index.step]
        args = [nodes.deepcopy(p) if p is not None else nodes.const(None) for p in parts]
        return nodes.call(nodes.name("slice"), args)
    if isinstance(index, gast.Tuple):
        return nodes.tuple_([index_expr(e) for e in index.elts])
    return nodes.deepcopy(index)


def _negated(value: gast.expr) -> gast.expr | None:
    """`g` for a contribution `-g`, or `g * m` for `-g * m` (a chain of products and
    quotients whose leftmost factor is negated: rounding is symmetric in the sign, so
    -(g * m) is (-g) * m exactly, and b + -v is b - v). None for other values."""
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.USub):
        return value.operand
    if isinstance(value, gast.BinOp) and isinstance(value.op, (gast.Mult, gast.Div)):
        left = _negated(value.left)
        if left is not None:
            return gast.BinOp(left=left, op=value.op, right=value.right)
    return None
