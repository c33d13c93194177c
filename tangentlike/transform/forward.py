"""Forward mode: tangent statements beside each primal statement, no stack.

Assumes: A-normal form (normalize.anf.check) with in-place updates lowered
(transform.in_place: writes through views are writes into their base, the view read
again after), and the activity analysis of that form. Guarantees: every statement
assigning an active name `x` is followed by statements assigning its tangent `dx`
(tangents of names that are not active are zero and never named); so wherever the
primal `x` is bound, `dx` is its tangent, through branches and loops alike. A tangent
an item write or a list mutation changes in place is owned by this code (copied
where it is defined from another's). Every operation on an active value has a rule
with a forward form, a source to differentiate, or is refused with a located error:
never a zero.

`transform(ctx)` returns the sweep form (transform/sweep.py, the records reverse mode
returns too): Steps with the primal statement and its tangent statements, Branches
and Loops holding the records of their bodies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import gast

from .. import runtime
from ..analyze import containers as container_analysis
from ..analyze.activity import Activity, data_operands, user_function
from ..analyze.calls import active_parameters, bind_call
from ..errors import UnknownFunctionError, UnsupportedSyntaxError
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..rules.instantiate import BindError, bind_arguments
from ..rules.registry import Registry
from ..rules.tangent import NoForwardFormError
from ..runtime import forward as fw
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from . import complex_gate, forward_rules
from .sweep import Block, Branch, Loop, Node, Step


@dataclass(frozen=True)
class Callee:
    """The forward variant of a user function for one set of active parameters:
    `value, tangent = name(<the call's arguments>, <keyword>=<tangent>, ...)`."""

    name: str
    keywords: tuple[tuple[str, str], ...]  # (parameter, the keyword taking its tangent)


@dataclass(frozen=True)
class ForwardContext:
    """What the forward transform of one function reads; nothing here changes per visit."""

    parsed: ParsedFunction
    fn: gast.FunctionDef
    scope: Scope
    registry: Registry
    namespace: Namespace
    namer: Namer
    activity: Activity
    tangent: dict[str, str]  # active name -> the name of its tangent
    variant: Callable[[object, tuple[str, ...]], Callee]
    width: str | None = None  # vector mode: the name holding k, the number of directions
    owned: frozenset[str] = field(default=frozenset())  # names whose tangent changes in place
    complex_values: frozenset[str] = field(default=frozenset())  # may be complex (complex_gate)

    @property
    def active(self) -> frozenset[str]:
        return self.activity.active

    def error(self, node: gast.AST, what: str, hint: str) -> UnsupportedSyntaxError:
        return self.parsed.error(node, what, hint)

    def helper(self, func: object) -> gast.Name:
        return nodes.name(self.namespace.bind(func.__name__, func, self.namer))


def owned_names(fn: gast.FunctionDef) -> frozenset[str]:
    """Names written by index or grown by append/extend: their tangents change in place."""
    found = set()
    for stmt in walk(fn):
        if isinstance(stmt, gast.stmt) and nodes.is_item_write(stmt):
            found.add(nodes.assigned_name(stmt))
        elif isinstance(stmt, gast.stmt):
            mutation = container_analysis.mutation(stmt)
            if mutation is not None:
                found.add(mutation[0])
    return frozenset(found)


def transform(ctx: ForwardContext, stmts: list[gast.stmt]) -> Block:
    """The records of `stmts` (the function body without its final return)."""
    return tuple(_node(ctx, stmt) for stmt in stmts)


def _node(ctx: ForwardContext, stmt: gast.stmt) -> Node:
    if isinstance(stmt, gast.If):
        return Branch(stmt, (), transform(ctx, stmt.body), transform(ctx, stmt.orelse))
    if isinstance(stmt, (gast.For, gast.While)):
        if stmt.orelse:
            raise ctx.error(stmt, "a loop with an else clause", "move the else part after the loop")
        return Loop(stmt, (), transform(ctx, stmt.body))
    if nodes.is_item_write(stmt):
        return Step(stmt, tuple(_item_write(ctx, stmt)))
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0].id
        if target not in ctx.active:
            return Step(stmt)
        primal, tangent = _assign(ctx, stmt)
        return Step(primal, tuple(tangent))
    if isinstance(stmt, gast.Expr):
        return Step(stmt, tuple(_expression(ctx, stmt)))
    return Step(stmt)


# -- values and zeros ------------------------------------------------------------------


def tangent_of(ctx: ForwardContext, atom: gast.expr) -> gast.expr | None:
    """The tangent of an atom (a name, a literal, a global), None when it is zero."""
    if isinstance(atom, gast.Name) and atom.id in ctx.active:
        return nodes.name(ctx.tangent[atom.id])
    if isinstance(atom, (gast.Tuple, gast.List)):  # a list literal passed to np.stack
        parts = [tangent_of(ctx, e) for e in atom.elts]
        if all(p is None for p in parts):
            return None
        elts = [zero_of(ctx, e) if p is None else p for e, p in zip(atom.elts, parts, strict=True)]
        return type(atom)(elts=elts, ctx=gast.Load())
    if nodes.names_read(atom) & ctx.active:
        raise ctx.error(
            atom,
            "differentiating through this expression is not supported",
            "assign it to a variable first",
        )
    return None


def zero_of(ctx: ForwardContext, value: gast.expr) -> gast.expr:
    """The zero tangent of `value`'s value, as an expression."""
    if isinstance(value, gast.Constant) and ctx.width is None:
        v = value.value
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return nodes.const(0.0)
        if v is None or isinstance(v, (str, bytes, bool)):
            return nodes.const(None)
    args = [nodes.deepcopy(value)] + ([nodes.name(ctx.width)] if ctx.width else [])
    return nodes.call(ctx.helper(fw.zero_tangent), args)


def _tangent_or_zero(ctx: ForwardContext, atom: gast.expr) -> gast.expr:
    found = tangent_of(ctx, atom)
    return zero_of(ctx, atom) if found is None else found


# -- statements --------------------------------------------------------------------------


def _assign(ctx: ForwardContext, stmt: gast.Assign) -> tuple[gast.stmt, list[gast.stmt]]:
    """(primal statement, tangent statements) of `t = value` with t active."""
    target, value = stmt.targets[0].id, stmt.value
    dt = ctx.tangent[target]
    if isinstance(value, gast.Call):
        callee = ctx.scope.resolve(value.func)
        if ctx.registry.lookup(callee) is None and user_function(callee, ctx.registry):
            return _call_variant(ctx, stmt, callee)
    if not set(data_operands(value, ctx.scope, ctx.registry)) & ctx.active:
        return stmt, [nodes.assign(dt, zero_of(ctx, nodes.name(target)))]
    code = _tangent_code(ctx, stmt, target, value, dt)
    if target in ctx.owned and _new_value(ctx, value) and not _allocates(code):
        code.append(nodes.assign(dt, nodes.call(ctx.helper(fw.fresh_tangent), [nodes.name(dt)])))
    return stmt, code


def _new_value(ctx: ForwardContext, value: gast.expr) -> bool:
    """Whether `value` is certainly a new array (an operator, an elementwise function),
    whose tangent may still be another's (`x + 0.0`: dx itself). A plain copy `y = x`,
    a view `y = x[i]` or another call share memory as their tangents do: mirrored. An
    argument's own copy (runtime.entry_copy) is new: its tangent, the caller's, is not."""
    if isinstance(value, (gast.BinOp, gast.UnaryOp)):
        return True
    if isinstance(value, gast.Call):
        callee = ctx.scope.resolve(value.func)
        if callee is runtime.entry_copy:
            return True
        if not ctx.registry.has_tangent(callee):
            return False
        return ctx.registry.lookup_tangent(callee).kind == "elementwise"
    return False


def _allocates(code: list[gast.stmt]) -> bool:
    """Whether the last statement certainly assigns a new array or container."""
    last = code[-1] if code else None
    if not isinstance(last, gast.Assign):
        return False
    value = last.value
    return isinstance(value, (gast.BinOp, gast.List, gast.Dict)) or (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id.startswith(("zero_tangent", "stacked"))
    )


def _tangent_code(ctx, stmt, target, value, dt) -> list[gast.stmt]:
    if isinstance(value, gast.Name):
        return [nodes.assign(dt, _tangent_or_zero(ctx, value))]
    if isinstance(value, (gast.Tuple, gast.List)):
        elts = [_tangent_or_zero(ctx, e) for e in value.elts]
        return [nodes.assign(dt, type(value)(elts=elts, ctx=gast.Load()))]
    if isinstance(value, gast.Dict):
        values = [_tangent_or_zero(ctx, v) for v in value.values]
        keys = [nodes.deepcopy(k) if k is not None else None for k in value.keys]
        return [nodes.assign(dt, gast.Dict(keys=keys, values=values))]
    if isinstance(value, gast.Subscript):
        return _read(ctx, value, dt)
    if isinstance(value, (gast.BinOp, gast.UnaryOp, gast.Call)):
        return _rule(ctx, stmt, target, value, dt)
    raise ctx.error(
        value,
        f"forward mode does not differentiate through {type(value).__name__} values",
        "compute the value with NumPy operations on arrays, or use tangentlike.vjp",
    )


def _read(ctx: ForwardContext, value: gast.Subscript, dt: str) -> list[gast.stmt]:
    """`t = p[index]`: `dt = dp[index]`."""
    base = value.value
    if ctx.registry.concatenates(ctx.scope.resolve(base)):
        return [nodes.assign(dt, _concatenated(ctx, value))]
    if not isinstance(base, gast.Name):
        raise ctx.error(
            value,
            "forward mode does not differentiate through this subscript",
            "index a local array, list, tuple or dict (np.concatenate for np.r_/np.c_)",
        )
    dp = tangent_of(ctx, base)
    if dp is None:
        return [nodes.assign(dt, zero_of(ctx, nodes.deepcopy(value)))]
    if ctx.width is None:
        return [
            nodes.assign(
                dt, gast.Subscript(value=dp, slice=nodes.deepcopy(value.slice), ctx=gast.Load())
            )
        ]
    return [nodes.assign(dt, nodes.call(ctx.helper(fw.take), [dp, index_expr(value.slice)]))]


def _concatenated(ctx: ForwardContext, value: gast.Subscript) -> gast.expr:
    """`np.r_[a, 0:3, b]`'s tangent: the same concatenation of the items' tangents."""
    items = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
    tangents = [
        nodes.const(None) if isinstance(e, gast.Slice) else tangent_of(ctx, e) or nodes.const(None)
        for e in items
    ]
    args = [
        nodes.deepcopy(value.value),
        nodes.tuple_([index_expr(e) for e in items]),
        nodes.tuple_(tangents),
    ] + ([nodes.name(ctx.width)] if ctx.width else [])
    return nodes.call(ctx.helper(fw.concatenated_tangent), args)


def _item_write(ctx: ForwardContext, stmt: gast.Assign) -> list[gast.stmt]:
    """`y[index] = v`: `dy[index] = dv` (zero when v does not vary)."""
    target = stmt.targets[0]
    y = target.value.id
    if y not in ctx.active:
        return []
    dv = _tangent_or_zero(ctx, stmt.value)
    dy = nodes.name(ctx.tangent[y])
    if ctx.width is None:
        write = gast.Subscript(value=dy, slice=nodes.deepcopy(target.slice), ctx=gast.Store())
        return [nodes.assign(write, dv)]
    put = nodes.call(ctx.helper(fw.put), [dy, index_expr(target.slice), dv])
    return [nodes.expr_stmt(put)]


def _expression(ctx: ForwardContext, stmt: gast.Expr) -> list[gast.stmt]:
    """`xs.append(v)` / `xs.extend(ys)`: the same on the tangents; a call of a user
    function for its effects on a differentiated argument is refused."""
    mutation = container_analysis.mutation(stmt)
    if mutation is not None:
        xs, method, arg = mutation
        if xs not in ctx.active:
            return []
        grow = nodes.attribute(nodes.name(ctx.tangent[xs]), method)
        return [nodes.expr_stmt(nodes.call(grow, [_tangent_or_zero(ctx, arg)]))]
    value = stmt.value
    if isinstance(value, gast.Call) and ctx.scope.resolve(value.func) is runtime.untouched:
        return _untouched_tangents(ctx, value)
    if isinstance(value, gast.Call) and nodes.names_read(value) & ctx.active:
        callee = ctx.scope.resolve(value.func)
        if user_function(callee, ctx.registry) and not runtime.owns(callee):
            raise ctx.error(
                value,
                "forward mode does not follow a call made for its effects on a "
                "differentiated argument",
                "return the changed value and assign it",
            )
    return []


def _untouched_tangents(ctx: ForwardContext, call: gast.Call) -> list[gast.stmt]:
    """`untouched(z, (s, ...), what, (b, ...))` asks that the names s share none of z's
    memory; their tangents must share none of the tangents of the arrays b the update is
    written into (a tangent may be a view where its value is a copy: np.reshape)."""
    z, others, what, *rest = call.args
    bases = rest[0].elts if rest else [z]
    keys = rest[1].elts if len(rest) > 1 else [nodes.const(None)] * len(others.elts)
    written = [t for t in (tangent_of(ctx, b) for b in bases) if t is not None]
    pairs = [(tangent_of(ctx, s), k) for s, k in zip(others.elts, keys, strict=True)]
    seen = [(t, k) for t, k in pairs if t is not None]  # at the keys read (analyze.keyed)
    if not written or not seen:
        return []
    args = [nodes.tuple_(written), nodes.tuple_([t for t, _ in seen]), nodes.deepcopy(what)]
    args += [nodes.tuple_([]), nodes.tuple_([nodes.deepcopy(k) for _, k in seen])]
    return [nodes.expr_stmt(nodes.call(ctx.helper(runtime.untouched), args))]


def _rule(ctx, stmt, target, value, dt) -> list[gast.stmt]:
    if isinstance(value, gast.BinOp):
        primal, args, keywords = type(value.op), [value.left, value.right], {}
        what = f"the operator {type(value.op).__name__}"
    elif isinstance(value, gast.UnaryOp):
        primal, args, keywords = type(value.op), [value.operand], {}
        what = f"the operator {type(value.op).__name__}"
    else:
        primal = ctx.scope.resolve(value.func)
        args, keywords = list(value.args), {k.arg: k.value for k in value.keywords}
        what = getattr(primal, "__qualname__", None) or getattr(primal, "__name__", repr(primal))
    rule = ctx.registry.lookup(primal)
    if rule is None:
        raise UnknownFunctionError(
            f"no derivative rule for {what}, and no Python source to differentiate "
            f"(in {ctx.parsed.func.__qualname__})",
            ctx.parsed.location(value),
            hint="What to do: register a rule with @tangentlike.adjoint(<function>) and its "
            "forward form with registry.tangent(<function>)",
        )
    try:
        trule = ctx.registry.lookup_tangent(primal)
        why = ""
    except NoForwardFormError as err:
        trule, why = None, f" ({err.why})" if err.why else ""
    if trule is None:
        raise ctx.error(
            value,
            f"{what} has a reverse-mode rule but no forward form (tangent){why}, so jvp "
            "cannot differentiate it",
            "use tangentlike.vjp / grad (reverse mode) for this function, or register the "
            "forward form with default_registry().tangent(<function>)",
        )
    if any(isinstance(a, gast.Starred) for a in args) or None in keywords:
        raise ctx.error(
            value, "a differentiated call with *args or **kwargs", "pass the arguments explicitly"
        )
    if complex_gate.site(stmt, ctx.complex_values):  # the complex form where there is one
        rule = complex_gate.rule(ctx.registry, primal, rule)
        trule = complex_gate.tangent(ctx.registry, primal) or trule
    try:
        bindings = bind_arguments(rule, args, keywords)
    except BindError as err:
        raise ctx.error(
            value,
            f"this call does not fit the rule for {what}: {err}",
            "pass the arguments the rule names",
        ) from None
    tangents = {}
    for param, binding in bindings.items():
        found = tangent_of(ctx, binding)
        if found is not None:
            if param not in trule.reads and param not in rule.constant:
                raise ctx.error(
                    value,
                    f"the forward form of {what} gives no tangent for its parameter {param!r}, "
                    "which receives a differentiated value",
                    "use tangentlike.vjp / grad (reverse mode) for this call",
                )
            tangents[param] = found
    code = forward_rules.instantiate(
        trule, bindings, tangents, target, dt, ctx.namer, ctx.namespace, ctx.width
    )
    if code is None:
        return [nodes.assign(dt, zero_of(ctx, nodes.name(target)))]
    return code


def _call_variant(ctx: ForwardContext, stmt: gast.Assign, callee: object):
    """`t = g(args)` -> `t, dt = _jvp_g(args, da=...)` with g's forward variant."""
    call = stmt.value
    try:
        bound = bind_call(callee, call)
    except TypeError as err:
        raise ctx.error(
            call,
            f"this call to {callee.__qualname__} does not match its signature: {err}",
            "fix the arguments",
        ) from None
    active = active_parameters(bound, ctx.active)
    for p, v in bound.arguments.items():
        parts = list(v.values()) if isinstance(v, dict) else v if isinstance(v, tuple) else [v]
        if p not in active and any(nodes.names_read(e) & ctx.active for e in parts):
            raise ctx.error(
                call,
                f"a differentiated value passed to {callee.__qualname__} inside *args or **kwargs",
                "pass it as an explicit argument",
            )
    target = stmt.targets[0].id
    dt = ctx.tangent[target]
    if not active:
        return stmt, [nodes.assign(dt, zero_of(ctx, nodes.name(target)))]
    variant = ctx.variant(callee, active)
    keywords = dict(variant.keywords)
    new = gast.Call(
        func=nodes.name(variant.name),
        args=[nodes.deepcopy(a) for a in call.args],
        keywords=[nodes.deepcopy(k) for k in call.keywords]
        + [
            gast.keyword(arg=keywords[p], value=_tangent_of(ctx, bound.arguments[p]))
            for p in active
        ],
    )
    pair = nodes.tuple_([nodes.name(target, store=True), nodes.name(dt, store=True)], store=True)
    primal = nodes.located(nodes.assign(pair, new), stmt)
    code: list[gast.stmt] = []
    if target in ctx.owned:
        code.append(nodes.assign(dt, nodes.call(ctx.helper(fw.fresh_tangent), [nodes.name(dt)])))
    return primal, code


def _tangent_of(ctx: ForwardContext, passed: gast.expr | tuple) -> gast.expr:
    """The tangent of an argument: its name's tangent, or for what `*args` collected the
    tuple of the items' tangents (zeros for an item that is not differentiated)."""
    if not isinstance(passed, tuple):
        return nodes.name(ctx.tangent[passed.id])
    items = [
        nodes.name(ctx.tangent[v.id])
        if isinstance(v, gast.Name) and v.id in ctx.active
        else zero_of(ctx, nodes.deepcopy(v))
        for v in passed
    ]
    return nodes.tuple_(items)


def index_expr(index: gast.expr) -> gast.expr:
    """A subscript index as a run-time value (slices become slice(...) calls)."""
    if isinstance(index, gast.Slice):
        parts = [index.lower, index.upper, index.step]
        args = [nodes.deepcopy(p) if p is not None else nodes.const(None) for p in parts]
        return nodes.call(nodes.name("slice"), args)
    if isinstance(index, gast.Tuple):
        return nodes.tuple_([index_expr(e) for e in index.elts])
    return nodes.deepcopy(index)
