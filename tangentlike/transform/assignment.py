"""The backward code of one assignment `t = <operation>`: rules, copies, calls, reads.

Assumes: A-normal form and a planned Context; `defined` holds the adjoint of t.
Guarantees: `adjoint_of` returns the statements sending t's adjoint to the
operands (a rule template instantiated, transform/containers.py for lists, tuples
and dicts, the backward half of a user function's split variant) and the new
Defined; contributions to inactive operands are left out, template temporaries
nothing reads are dropped, and an elementwise rule may update an owned adjoint
that dies here in place.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze.activity import data_operands
from ..errors import UnknownFunctionError
from ..rules import unknown
from ..rules.instantiate import bind_arguments, instantiate
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.nodes import walk
from . import (
    checkpoints,
    checks,
    complex_gate,
    containers,
    differences,
    joins,
    products,
    shaped_products,
)
from .adjoints import Adjoints, index_expr
from .defined import Defined


def adjoint_of(adj: Adjoints, stmt: gast.Assign, defined: Defined):
    ctx = adj.ctx
    target, value = stmt.targets[0].id, stmt.value
    bt = ctx.adjoint[target]
    if id(stmt) not in ctx.calls and not (
        set(data_operands(value, ctx.scope, ctx.registry)) & ctx.active
    ):
        return [], defined  # e.g. `out = np.zeros(n)` before writes into out
    complex_site = complex_gate.site(stmt, ctx.complex_values)
    if isinstance(value, gast.Name):
        copied = nodes.name(bt)
        if complex_site and complex_gate.projected(value, ctx.complex_values):
            copied = nodes.call(ctx.helper("real_part"), [copied, nodes.name(value.id)])
        return adj.contribute(value, copied, defined)
    if isinstance(value, (gast.Constant, gast.Attribute)) and not nodes.names_read(value) & (
        ctx.activity.varied
    ):
        return [], defined  # a literal or a global: nothing to propagate
    if isinstance(value, (gast.Tuple, gast.List, gast.Dict)):
        return containers.literal(adj, value, bt, defined)
    if id(stmt) in ctx.calls:
        return call_variant(adj, stmt, defined)
    if isinstance(value, gast.BinOp) and (
        isinstance(value.op, (gast.Add, gast.Mult))
        and any(containers.may_hold_container(ctx, o) for o in (value.left, value.right))
    ):
        return containers.arithmetic(adj, value, bt, defined)
    if isinstance(value, gast.BinOp):
        rule = ctx.registry.lookup(type(value.op))
        bindings = {"x": value.left, "y": value.right}
        what = f"the operator {type(value.op).__name__}"
    elif isinstance(value, gast.UnaryOp):
        rule = ctx.registry.lookup(type(value.op))
        bindings = {"x": value.operand}
        what = f"the operator {type(value.op).__name__}"
    elif isinstance(value, gast.Call):
        callee = ctx.scope.resolve(value.func)
        rule = ctx.registry.lookup(callee)
        what = getattr(callee, "__qualname__", None) or getattr(callee, "__name__", repr(callee))
        if rule is None:
            what, hint = unknown.message(callee, ctx.registry, ctx.parsed.func.__qualname__)
            raise UnknownFunctionError(what, ctx.parsed.location(value), hint=hint)
        keywords = {k.arg: k.value for k in value.keywords}
        if complex_site:
            rule = complex_gate.rule(ctx.registry, callee, rule)
        bindings = bind_arguments(rule, value.args, keywords)
    elif isinstance(value, gast.Subscript) and ctx.registry.concatenates(
        ctx.scope.resolve(value.value)
    ):
        return concatenation(adj, value, bt, defined)
    elif isinstance(value, gast.Subscript) and not isinstance(value.value, gast.Name):
        raise ctx.error(  # analyze.operands refuses these first
            value,
            "differentiating through this subscript is not supported",
            "index a local array, list, tuple or dict",
        )
    elif (
        isinstance(value, gast.Subscript)
        and isinstance(value.value, gast.Name)
        and value.value.id in ctx.structured
    ):
        return containers.read(adj, value, bt, defined, index_expr(value.slice))
    elif isinstance(value, gast.Subscript):
        helper = ctx.namespace.bind("unsubscript", runtime.unsubscript, ctx.namer)
        contribution = nodes.call(
            nodes.name(helper),
            [nodes.name(bt), nodes.deepcopy(value.value), index_expr(value.slice)],
        )
        return adj.contribute(value.value, contribution, defined)
    else:
        raise ctx.error(
            value,
            f"differentiating through {type(value).__name__} values is not supported yet",
            "compute the value with NumPy operations on arrays",
        )
    if rule is None:
        raise ctx.error(value, f"{what} has no derivative rule", "rewrite the expression")
    # an elementwise rule's contribution to an operand of the result's shape needs no
    # unbroadcast (then the backward sweep need not read the operand, nor save it)
    same_shape = (lambda name: ctx.shapes.same(stmt, name)) if rule.elementwise else None
    # and one whose shape is known to broadcast into the result's, a NumPy sum
    summed = (lambda name: ctx.shapes.summed(stmt, name)) if rule.elementwise else None
    instance = instantiate(
        rule, bindings, nodes.name(target), bt, ctx.namer, ctx.namespace, same_shape, summed
    )
    products.specialise(ctx, stmt, instance.stmts)
    if rule.elementwise:
        shaped_products.record(ctx, stmt, instance.stmts, bt)
    joins.specialise(ctx, stmt, instance.stmts)
    differences.record(ctx, stmt, instance.stmts)
    stmts = [
        s
        for s in _hoist_contributions(instance.stmts, ctx.namer)
        if not _is_contribution(s) or adj.receives(instance.bindings[s.targets[0].slice.id])
    ]
    if rule.origin == "user":
        checks.user_rule(ctx, rule, instance.bindings, stmts, stmt)
    handed_over = (  # never in place where complex: g *= 1j cannot update a real g
        not complex_site
        and rule.elementwise
        and bt in defined.owned
        and _update_in_place(stmts, bt)
    )
    code: list[gast.stmt] = []
    for s in stmts:
        if _is_contribution(s):
            binding = instance.bindings[s.targets[0].slice.id]
            if complex_site and complex_gate.projected(binding, ctx.complex_values):
                s.value = nodes.call(ctx.helper("real_part"), [s.value, nodes.name(binding.id)])
            part, defined = adj.contribute(
                binding,
                s.value,
                defined,
                owned=handed_over and bt in nodes.names_read(s.value),
            )
            code.extend(part)
        else:
            code.append(s)
    return _drop_dead_temps(code, set(ctx.adjoint.values())), defined


def concatenation(adj: Adjoints, value: gast.Subscript, bt: str, defined: Defined):
    """`t = np.r_[a, 0:3, b]`: each item gets its piece of bt along the axis."""
    items = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
    helper = adj.ctx.namespace.bind(
        "unconcatenate_index", runtime.unconcatenate_index, adj.ctx.namer
    )
    pieces = nodes.call(
        nodes.name(helper),
        [
            nodes.name(bt),
            nodes.deepcopy(value.value),
            nodes.tuple_([index_expr(e) for e in items]),
        ],
    )
    binding = nodes.tuple_([nodes.deepcopy(e) for e in items])
    return adj.contribute(binding, pieces, defined)


def call_variant(adj: Adjoints, stmt: gast.Assign, defined: Defined):
    ctx = adj.ctx
    variant, arguments = ctx.calls[id(stmt)]
    bt = ctx.adjoint[stmt.targets[0].id]
    call = nodes.call(nodes.name(variant.bwd), [nodes.name(ctx.stack), nodes.name(bt)])
    passed = [arguments[p] for p in variant.active]  # a Name, or *args' tuple of them
    code: list[gast.stmt] = []
    if id(stmt) in ctx.recomputed:
        code.append(checkpoints.recompute_call(ctx, stmt, variant.fwd))
    if len(passed) == 1 and isinstance(passed[0], gast.Name):
        more, defined = adj.accumulate(passed[0].id, call, defined)
        return code + more, defined
    temps = [
        ctx.namer.temp("g" + (v.id.lstrip("_") if isinstance(v, gast.Name) else p))
        for p, v in zip(variant.active, passed, strict=True)
    ]
    targets = [nodes.name(t, store=True) for t in temps]
    target = targets[0] if len(targets) == 1 else nodes.tuple_(targets, True)  # one: bare
    code.append(nodes.assign(target, call))
    for value, t in zip(passed, temps, strict=True):
        if isinstance(value, gast.Name):
            more, defined = adj.accumulate(value.id, nodes.name(t), defined)
            code.extend(more)
            continue
        for k, item in enumerate(value):  # *args: item k of the tuple's adjoint
            if isinstance(item, gast.Name) and item.id in ctx.active:
                piece = nodes.call(ctx.helper("part"), [nodes.name(t), nodes.const(k), item])
                more, defined = adj.accumulate(item.id, piece, defined)
                code.extend(more)
    return code, defined


_IN_PLACE_OPS = (gast.Mult, gast.Div, gast.Add, gast.Sub)


def _update_in_place(stmts: list[gast.stmt], g: str) -> bool:
    """Rewrite the one contribution `d[p] = g * m` (maybe inside unbroadcast) as `g *= m`
    followed by `d[p] = g`, when g (an owned adjoint that dies here) is read only there.

    Only for elementwise rules: there m broadcasts to the result's shape, which is g's.
    """
    reads = sum(
        1
        for s in stmts
        for n in walk(s)
        if isinstance(n, gast.Name) and n.id == g and isinstance(n.ctx, gast.Load)
    )
    if reads != 1:
        return False
    for i, s in enumerate(stmts):
        if not _is_contribution(s):
            continue
        holder, field = s, "value"
        value = s.value
        if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.BinOp):
            holder, field, value = value.args, 0, value.args[0]
        if (
            isinstance(value, gast.BinOp)
            and isinstance(value.op, _IN_PLACE_OPS)
            and isinstance(value.left, gast.Name)
            and value.left.id == g
        ):
            target = nodes.name(g, store=True)
            update = gast.AugAssign(target=target, op=value.op, value=value.right)
            if field == "value":
                s.value = nodes.name(g)
            else:
                holder[field] = nodes.name(g)
            stmts.insert(i, nodes.located(update, s))
            return True
    return False


def _is_contribution(stmt: gast.stmt) -> bool:
    if not isinstance(stmt, gast.Assign):
        return False
    t = stmt.targets[0]
    return isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) and t.value.id == "d"


def _hoist_contributions(stmts: list[gast.stmt], namer: Namer) -> list[gast.stmt]:
    """Move `d[p] = v` out of runtime ifs: each branch assigns a temporary instead."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        if not isinstance(stmt, gast.If):
            out.append(stmt)
            continue
        params = sorted(
            {
                n.targets[0].slice.id
                for n in walk(stmt)
                if isinstance(n, gast.Assign) and _is_contribution(n)
            }
        )
        temps = {p: namer.temp("d" + p) for p in params}
        out.append(_RenameContributions(temps).visit(stmt))
        for p in params:
            target = nodes.subscript(nodes.name("d"), nodes.name(p))
            target.ctx = gast.Store()
            out.append(nodes.assign(target, nodes.name(temps[p])))
    return out


class _RenameContributions(gast.NodeTransformer):
    """`d[p] = v` -> `<temp for p> = v`."""

    def __init__(self, temps: dict[str, str]) -> None:
        self.temps = temps

    def visit_Assign(self, node: gast.Assign) -> gast.Assign:
        if _is_contribution(node):
            return nodes.assign(self.temps[node.targets[0].slice.id], node.value)
        return node


def _drop_dead_temps(code: list[gast.stmt], keep: set[str]) -> list[gast.stmt]:
    """Remove template temporaries that no kept statement reads."""
    out: list[gast.stmt] = []
    live: set[str] = set()
    for stmt in reversed(code):
        if (
            isinstance(stmt, gast.Assign)
            and isinstance(stmt.targets[0], gast.Name)
            and stmt.targets[0].id not in keep
            and stmt.targets[0].id not in live
        ):
            continue
        live |= nodes.names_read(stmt)
        out.append(stmt)
    return out[::-1]
