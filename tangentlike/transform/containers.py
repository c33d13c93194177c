"""Backward code for lists, tuples and dicts: literals, reads by index or key, append.

Assumes: A-normal form and `analyze.containers.structured` (the set `S` of
variables whose adjoint may be a container). Guarantees, for the backward sweep
that `transform.reverse.Backward` builds:
  - a container's adjoint is a list (list or tuple) or dict of per-element
    adjoints, None where zero; adjoints of names in S are added with
    `add(...)`, never `+` (which would concatenate lists);
  - `x[k]` with x in S sends its adjoint with `add_item`, in place for
    containers (O(1) per read, so loops over long lists stay linear);
  - a literal `t = [a, b]` / `(a, b)` / `{'k': a}` hands each element its part
    of the adjoint of t, zeros for variables outside S;
  - `xs.append(v)` pops the last element adjoint of xs into v and, when the
    backward sweep reads xs (container_checks.restored), pops xs itself, so those
    reads see exactly the length they saw in the forward sweep; `xs.extend(ys)`
    likewise for len(ys) elements;
  - `x + y` / `x * y` with an operand that may be a list use `unadd` / `unmul`,
    which tell concatenation and repetition from arithmetic at run time.
Code generators take the Adjoints (transform/adjoints.py) and return (statements, Defined).
"""

from __future__ import annotations

from collections.abc import Iterator

import gast
import numpy as np

from .. import runtime
from ..analyze.containers import mutation
from ..analyze.memory import new_array_subscript
from ..parse.resolve import MISSING
from ..rules.instantiate import BindError, bind_arguments
from ..syntax import nodes
from .adjoints import Adjoints, pop_marker
from .context import Context
from .defined import Defined


def read(adj: Adjoints, value: gast.Subscript, bt: str, defined: Defined, index: gast.expr):
    """`t = x[index]` with x in S: `bx = add_item(bx, x, index, bt)`."""
    ctx = adj.ctx
    x = value.value.id
    if x not in ctx.active:
        return [], defined
    bx = ctx.adjoint[x]
    current = nodes.name(bx) if bx in defined else nodes.const(None)
    call = nodes.call(adj.ctx.helper("add_item"), [current, nodes.name(x), index, nodes.name(bt)])
    return [nodes.assign(bx, call)], defined.assigned(bx)


def literal(adj: Adjoints, value: gast.expr, bt: str, defined: Defined):
    """`t = [a, b]`, `(a, b)` or `{k: a, ...}`: each element gets its part of bt."""
    ctx = adj.ctx
    code: list[gast.stmt] = []
    if isinstance(value, gast.Dict):
        pairs = list(zip(value.keys, value.values, strict=True))
        constant = [k.value for k in value.keys if isinstance(k, gast.Constant)]
        if len(constant) < len(pairs) or len(set(constant)) < len(constant):
            # keys that may repeat: only the last of equal keys is kept, and gets the adjoint
            parts = ctx.namer.temp("b" + bt.lstrip("b_") + "_items")
            keys = gast.List(elts=[nodes.deepcopy(k) for k in value.keys], ctx=gast.Load())
            split = nodes.call(adj.ctx.helper("undict_of"), [nodes.name(bt), keys])
            code.append(nodes.assign(parts, split))
            bt = parts
            pairs = [(nodes.const(i), e) for i, e in enumerate(value.values)]
    else:
        pairs = [(nodes.const(i), e) for i, e in enumerate(value.elts)]
    for key, elt in pairs:
        if not (isinstance(elt, gast.Name) and elt.id in ctx.active):
            continue
        piece = nodes.call(
            adj.ctx.helper("part"), [nodes.name(bt), nodes.deepcopy(key), nodes.name(elt.id)]
        )
        more, defined = adj.accumulate(elt.id, piece, defined)
        code.extend(more)
    return code, defined


def mutate(adj: Adjoints, stmt: gast.Expr, defined: Defined):
    """The backward code of `xs.append(v)` / `xs.extend(ys)`. Putting xs back is a
    Restore (transform/sweep.py): kept only when the backward sweep reads xs."""
    ctx = adj.ctx
    xs, method, arg = mutation(stmt)
    code: list[gast.stmt] = []
    bxs = ctx.adjoint.get(xs)
    live = bxs is not None and bxs in defined
    receiver = isinstance(arg, gast.Name) and arg.id in ctx.active
    if live and receiver:
        piece = ctx.namer.temp("b" + arg.id.lstrip("_"))
        target = nodes.tuple_([nodes.name(bxs, store=True), nodes.name(piece, store=True)], True)
        if method == "append":
            call = nodes.call(adj.ctx.helper("unappend"), [nodes.name(bxs), nodes.name(arg.id)])
        else:
            count = nodes.call(nodes.name(adj.builtin("len")), [nodes.name(arg.id)])
            call = nodes.call(adj.ctx.helper("unextend"), [nodes.name(bxs), count])
        code.append(nodes.assign(target, call))
        more, defined = adj.accumulate(arg.id, nodes.name(piece), defined)
        code.extend(more)
    elif live:  # the appended value is constant: drop its element adjoint(s)
        if method == "append":
            drop = nodes.call(adj.ctx.helper("unappend"), [nodes.name(bxs), nodes.const(None)])
        else:
            count = nodes.call(nodes.name(adj.builtin("len")), [nodes.deepcopy(arg)])
            drop = nodes.call(adj.ctx.helper("unextend"), [nodes.name(bxs), count])
        code.append(nodes.expr_stmt(drop))
    # put xs back as it was before the mutation, for the backward code that reads it
    if method == "append":
        restore = nodes.call(nodes.attribute(nodes.name(xs), "pop"), [])
        code.append(pop_marker(stmt, nodes.expr_stmt(restore)))
    else:
        count = nodes.call(nodes.name(adj.builtin("len")), [nodes.deepcopy(arg)])
        start = nodes.binop(
            nodes.call(nodes.name(adj.builtin("len")), [nodes.name(xs)]), gast.Sub(), count
        )
        cut = gast.Subscript(
            value=nodes.name(xs),
            slice=gast.Slice(lower=start, upper=None, step=None),
            ctx=gast.Del(),
        )
        code.append(pop_marker(stmt, gast.Delete(targets=[cut])))
    return code, defined


def assignments(stmts: list[gast.stmt]) -> Iterator[gast.Assign]:
    """Every Assign in stmts, nested blocks included."""
    for stmt in stmts:
        if isinstance(stmt, gast.Assign):
            yield stmt
        for field in ("body", "orelse"):
            yield from assignments(getattr(stmt, field, []) or [])


def statements(stmts: list[gast.stmt]) -> Iterator[gast.stmt]:
    """Every statement in stmts, nested blocks included, in source order."""
    for stmt in stmts:
        yield stmt
        for field in ("body", "orelse"):
            yield from statements(getattr(stmt, field, []) or [])


def may_hold_container(
    ctx: Context, operand: gast.expr, seen: frozenset[str] = frozenset()
) -> bool:
    """Whether an operand of `+` or `*` may be a list or tuple at run time."""
    if not (isinstance(operand, gast.Name) and operand.id in ctx.structured):
        return False
    if operand.id in seen:
        return False  # around a cycle of copies: the other bindings decide
    bindings = [
        a.value
        for a in assignments(ctx.fn.body)
        if isinstance(a.targets[0], gast.Name) and a.targets[0].id == operand.id
    ]
    if operand.id in nodes.param_names(ctx.fn) or not bindings:
        return True
    if _ndarray(ctx, operand, frozenset()):
        return False
    return not all(_makes_array(ctx, v, seen | {operand.id}) for v in bindings)


def binds_array(ctx: Context, value: gast.expr, name: str) -> bool:
    """Whether `name = value` certainly binds an array or a number (no list, tuple or
    dict), by the rules may_hold_container applies to each binding."""
    return _makes_array(ctx, value, frozenset({name}))


def _makes_array(ctx: Context, value: gast.expr, seen: frozenset[str]) -> bool:
    if isinstance(value, (gast.UnaryOp, gast.Compare)):
        return True
    if isinstance(value, gast.Constant) and value.value is None:
        return True  # no container: None is neither added to nor written into (TypeError)
    if isinstance(value, gast.Name):  # a copy: what the copied name holds
        return not may_hold_container(ctx, value, seen)
    if isinstance(value, gast.BinOp):  # no list can be divided, or multiplied by 1.0
        operands = (value.left, value.right)
        if not isinstance(value.op, (gast.Add, gast.Mult)) or any(
            isinstance(o, gast.Constant) and type(o.value) in (float, complex) for o in operands
        ):
            return True
        if any(_ndarray(ctx, o, frozenset()) for o in operands):
            return True  # an ndarray times or plus a list is an array
        arrays = [not may_hold_container(ctx, o, seen) for o in operands if _local(ctx, o)]
        # a list plus anything else fails; a list times an int repeats it
        added = isinstance(value.op, gast.Add) and any(arrays)
        return len(arrays) == 2 and (all(arrays) or added)
    if isinstance(value, gast.Call):
        callee = ctx.scope.resolve(value.func)
        if callee in (runtime.entry_copy, runtime.popped_array):  # raise for a list
            return True
        if callee is runtime.updated and len(value.args) == 2:  # `z op v`, kept an array
            return _makes_array(ctx, value.args[1], seen)
        return isinstance(callee, np.ufunc) or ctx.registry.makes_new_array(callee)
    if isinstance(value, gast.Subscript) and isinstance(value.value, (gast.Name, gast.Attribute)):
        return new_array_subscript(ctx.scope.resolve(value.value))  # np.r_[a, b]
    return False


def _ndarray(ctx: Context, operand: gast.expr, seen: frozenset[str]) -> bool:
    """Whether a local certainly holds a float array or a NumPy float (never an int, a
    list, nor a 0-d int array whose product is an np.int64: np.int64(2) * xs repeats a
    list): every binding is `np.zeros(n)`-like or `np.array([...])`, or elementwise
    arithmetic with such a value, a copy or a slice of it; names around a cycle count if
    the rest do (the greatest fixpoint: a cycle's first value comes from outside it).
    A binding to None counts too, for what this decides (no list, and nothing that makes
    one: None + xs, None * xs and None[k] fail): a differentiable form prebinds saved
    names to None (higher/form_pairs.py)."""
    if not _local(ctx, operand) or operand.id in nodes.param_names(ctx.fn):
        return False
    if operand.id in seen:
        return True
    bindings = [
        a.value
        for a in assignments(ctx.fn.body)
        if isinstance(a.targets[0], gast.Name) and a.targets[0].id == operand.id
    ]
    inner = seen | {operand.id}

    def makes(value: gast.expr) -> bool:
        if isinstance(value, gast.Constant) and value.value is None:
            return True  # no container either (a form's prebinding): None[k] = v fails
        if isinstance(value, gast.Call):
            callee, args = ctx.scope.resolve(value.func), value.args
            if callee is runtime.updated and len(args) == 2:  # `z op v`, kept an array
                return _ndarray(ctx, args[1], inner)
            if args and isinstance(args[0], gast.List):  # np.array([a, b]): rank >= 1
                return ctx.registry.makes_array_of_list(callee)
            if len(args) == 1 and not value.keywords and ctx.registry.keeps_kind(callee):
                return _ndarray(ctx, args[0], inner)  # np.copy(x)
            simple = len(args) <= 1 and not value.keywords  # no dtype
            return simple and ctx.registry.makes_float_array(callee)
        if isinstance(value, gast.Subscript) and isinstance(value.slice, gast.Slice):
            return _ndarray(ctx, value.value, inner)  # a float, or rank >= 1: a slice of it
        if isinstance(value, gast.Name):
            return _ndarray(ctx, value, inner)
        if isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
            return _ndarray(ctx, value.operand, inner)
        if isinstance(value, gast.BinOp) and not isinstance(value.op, gast.MatMult):
            return any(_ndarray(ctx, o, inner) for o in (value.left, value.right))
        return False

    return bool(bindings) and all(makes(v) for v in bindings)


def _local(ctx: Context, operand: gast.expr) -> bool:
    return isinstance(operand, gast.Name) and ctx.scope.resolve(operand) is MISSING


def arithmetic(adj: Adjoints, value: gast.BinOp, bt: str, defined: Defined):
    """`t = x + y` / `x * y` where an operand may be a list: `unadd` / `unmul` decide at
    run time between concatenation (repetition) and elementwise arithmetic."""
    ctx = adj.ctx
    name = "unadd" if isinstance(value.op, gast.Add) else "unmul"
    operands = [value.left, value.right]
    targets = [
        ctx.namer.temp("b" + o.id.lstrip("_")) if _receives(ctx, o) else "_" for o in operands
    ]
    if targets == ["_", "_"]:
        return [], defined
    pair = nodes.tuple_([nodes.name(t, store=True) for t in targets], store=True)
    call = nodes.call(
        adj.ctx.helper(name),
        [nodes.name(bt), nodes.deepcopy(operands[0]), nodes.deepcopy(operands[1])],
    )
    code: list[gast.stmt] = [nodes.assign(pair, call)]
    for operand, temp in zip(operands, targets, strict=True):
        if temp != "_":
            more, defined = adj.accumulate(operand.id, nodes.name(temp), defined)
            code.extend(more)
    return code, defined


def _receives(ctx: Context, operand: gast.expr) -> bool:
    return isinstance(operand, gast.Name) and operand.id in ctx.active


def sequence_arguments(ctx: Context, call: gast.Call) -> list[str]:
    """Names a rule-backed call takes whole as a list whose adjoint is a list."""
    callee = ctx.scope.resolve(call.func)
    params = ctx.registry.sequence_params_of(callee)
    rule = ctx.registry.lookup(callee) if params else None
    if rule is None:
        return []
    try:
        bound = bind_arguments(rule, call.args, {k.arg: k.value for k in call.keywords})
    except BindError:
        return []
    return [bound[p].id for p in params if isinstance(bound.get(p), gast.Name)]


# runtime helpers whose result has the structure of some of their arguments (positions)
_SHARING = {
    runtime.add: (0, 1),
    runtime.ungradient_like: (1,),
    runtime.no_object_zero: (0,),
    runtime.kept_apart: (0,),  # x itself or x's copy
    runtime.updated: (1,),  # the new value `z op v`
}


def shared_structure(ctx: Context, call: gast.Call) -> list[str]:
    """Names whose structure a call's result has: the arguments of `add(a, b)` (an adjoint
    sum is a container where its terms are), the `b` of `ungradient_like(g, b)`."""
    try:
        positions = _SHARING.get(ctx.scope.resolve(call.func), ())
    except TypeError:
        return []
    return [
        call.args[i].id
        for i in positions
        if i < len(call.args) and isinstance(call.args[i], gast.Name)
    ]
