"""Typed stacks: the one Python stack of a generated function as one list per save site,
and split variants' saves passed as values.

Assumes: a generated function (lower.py checked its constructs). Guarantees: each value
saved is restored where the generated code restores it: `_push(x)` ... `x = _pop()`
becomes `_s_x.append(x)` ... `x = _s_x.pop()` (the generated code pairs each pop with a
push of the same variable, which debug mode checks, and LIFO order per site follows
from LIFO order of the one stack); a variable that is None only before its first
assignment skips saving that None and restoring it (see `_unbound_first`); a split
variant `_fwd_f` returns what it saved beside its result and `_bwd_f` takes it; a
`reversed(r)` loop over a range runs over the descending range.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..syntax.nodes import walk
from .context import (
    Module,
    assign,
    is_call_of,
    is_method,
    is_name,
    is_variant,
    load,
    method,
    names_in,
    store,
)

# ---------------------------------------------------------------------------
# split variants: saved values travel as a return value and an argument


def _stack_param(fn: ast.FunctionDef, module: Module) -> str:
    if not fn.args.args:
        raise module.refuse(fn, "a split variant without its stack")
    return fn.args.args[0].arg


def lower_forward_variant(fn: ast.FunctionDef, module: Module) -> None:
    """`_fwd_f(_stack, ...)` saving one value or tuple at its top level becomes
    `_fwd_f(...)` returning `(result, saved)`; one saving nothing just loses `_stack`."""
    stack = _stack_param(fn, module)
    fn.args.args = fn.args.args[1:]
    saved = None
    body = []
    for stmt in fn.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if is_method(call, stack, "append") and saved is None:
            saved = module.fresh("_saved")
            body.append(ast.copy_location(assign(saved, call.args[0]), stmt))
            continue
        body.append(stmt)
    fn.body = body
    _refuse_stack_uses(fn, stack, module)
    if saved is not None:
        module.saves[fn.name[len("_fwd_") :]] = ""  # the entry names its stack
        for node in walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                node.value = ast.Tuple([node.value, load(saved)], ast.Load())
    lower_body(fn, module, entry=False)


def lower_backward_variant(fn: ast.FunctionDef, module: Module) -> None:
    """`_bwd_f(_stack, b)` popping at its top level becomes `_bwd_f(saved, b)`."""
    stack = _stack_param(fn, module)
    base = fn.name[len("_bwd_") :]
    if base not in module.saves:
        fn.args.args = fn.args.args[1:]
    else:
        saved = module.fresh("_saved")
        fn.args.args[0] = ast.arg(saved)
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and is_method(stmt.value, stack, "pop"):
                stmt.value = load(saved)
                break
    _refuse_stack_uses(fn, stack, module)
    lower_body(fn, module, entry=False)


def _refuse_stack_uses(fn: ast.FunctionDef, stack: str, module: Module) -> None:
    for node in walk(fn):
        if isinstance(node, ast.Name) and node.id == stack:
            raise module.refuse(node, "a value saved inside a loop or branch of a helper")


# ---------------------------------------------------------------------------
# function bodies


def lower_body(fn: ast.FunctionDef, module: Module, entry: bool) -> None:
    """Typed stacks, variant calls, kernels and descending ranges in `fn`'s body."""
    stack, push, pop, rest = _stack_names(fn.body)
    lists: dict[tuple[str, ...], str] = {}
    unbound = _unbound_first(fn)
    low = _Lowering(module, stack, push, pop, lists, entry, unbound)
    fn.body = _statements(rest, low)
    unpaired = sorted(set(lists) - low.popped) or sorted(low.popped - set(lists))
    if unpaired:  # each site's pops must restore what its own pushes saved
        raise module.refuse(fn, f"a save of {', '.join(unpaired[0])} without its restore")
    made = [assign(name, ast.List([], ast.Load())) for name in lists.values()]
    made += [
        assign(name, ast.List([], ast.Load()))
        for base, name in module.saves.items()
        if entry and name and name in names_in(fn)
    ]
    fn.body = made + fn.body


def _unbound_first(fn: ast.FunctionDef) -> frozenset[str]:
    """Variables that hold None only before their first assignment: every `v = None` of
    the function is a statement of its top level (the generated declarations). A save of
    such a variable stores None at most once per call, and first; the lowering skips that
    save and its restore (the restored None is never read: no code before a variable's
    first assignment reads it), so its stack holds one type."""
    top = {id(s) for s in fn.body}
    nones: dict[str, bool] = {}
    for node in walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and _is_none_constant(node.value):
                nones[target.id] = nones.get(target.id, True) and id(node) in top
    return frozenset(name for name, only_top in nones.items() if only_top)


def _is_none_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _stack_names(body: list[ast.stmt]) -> tuple[str | None, str | None, str | None, list]:
    """(stack, push, pop) bound at the top of a body, and the body without them."""
    stack = push = pop = None
    rest = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            target, value = stmt.targets[0].id, stmt.value
            if isinstance(value, ast.List) and not value.elts and stack is None:
                stack = target
                continue
            if stack and isinstance(value, ast.Attribute) and is_name(value.value, stack):
                if value.attr == "append":
                    push = target
                    continue
                if value.attr == "pop":
                    pop = target
                    continue
        rest.append(stmt)
    return stack, push, pop, rest


@dataclass
class _Lowering:
    module: Module
    stack: str | None
    push: str | None
    pop: str | None
    lists: dict[tuple[str, ...], str]
    entry: bool
    unbound: frozenset[str]
    popped: set[tuple[str, ...]] = field(default_factory=set)  # sites with a restore

    def stack_of(self, node: ast.expr, stmt: ast.stmt, restore: bool = False) -> str:
        """The list holding the values of one save site (a variable or a tuple of them);
        `restore`: for a pop (every site's list must have both)."""
        if isinstance(node, ast.Name):
            key = (node.id,)
        elif isinstance(node, ast.Tuple) and all(isinstance(e, ast.Name) for e in node.elts):
            key = tuple(e.id for e in node.elts)
        else:
            raise self.module.refuse(stmt, "a value saved in a form the jit path does not know")
        if key not in self.lists:
            self.lists[key] = self.module.fresh("_s_" + "_".join(key).lstrip("_"))
        if restore:
            self.popped.add(key)
        return self.lists[key]

    def variant_stack(self, base: str, node: ast.AST) -> str:
        if not self.entry:
            raise self.module.refuse(node, "a helper calling a helper that saves values")
        if not self.module.saves.get(base):
            self.module.saves[base] = self.module.fresh(f"_s_{base}")
        return self.module.saves[base]


def _statements(body: list[ast.stmt], low: _Lowering) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        out.extend(_statement(stmt, low))
    return out


def _statement(stmt: ast.stmt, low: _Lowering) -> list[ast.stmt]:
    module = low.module
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if isinstance(stmt, ast.Expr) and is_call_of(call, low.push, low.stack, "append"):
        target = low.stack_of(call.args[0], stmt)
        save = ast.copy_location(ast.Expr(method(target, "append", call.args)), stmt)
        saved = call.args[0]
        if isinstance(saved, ast.Name) and saved.id in low.unbound:
            bound = ast.Compare(saved, [ast.IsNot()], [ast.Constant(None)])  # `if v is not None:`
            return [ast.copy_location(ast.If(bound, [save], []), stmt)]
        return [save]
    if isinstance(stmt, ast.Assign) and is_call_of(call, low.pop, low.stack, "pop"):
        target = low.stack_of(stmt.targets[0], stmt, restore=True)
        stmt.value = method(target, "pop", [])
        restored = stmt.targets[0]
        if isinstance(restored, ast.Name) and restored.id in low.unbound:
            saved = ast.Call(load("len"), [load(target)], [])  # `if len(_s_v): v = ...`
            return [ast.copy_location(ast.If(saved, [stmt], []), stmt)]
        return [stmt]
    if isinstance(call, ast.Call) and is_variant(call, "_fwd_"):
        return _forward_call(stmt, call, low)
    if isinstance(stmt, (ast.For, ast.While, ast.If)):
        if isinstance(stmt, ast.For):
            stmt.iter = _descending(stmt.iter, stmt, module)
        else:
            stmt.test = _truth(stmt.test, low)
        stmt.body = _statements(stmt.body, low)
        stmt.orelse = _statements(stmt.orelse, low)
        _expressions(stmt, low, skip_bodies=True)
        return [stmt]
    _expressions(stmt, low)
    for node in walk(stmt):
        if isinstance(node, ast.Name) and node.id in {low.stack, low.push, low.pop} - {None}:
            raise module.refuse(stmt, "the stack used in a form the jit path does not know")
    return [stmt]


def _truth(test: ast.expr, low: _Lowering) -> ast.expr:
    """A condition on a variable that may hold None (`unbound`: restored before its first
    assignment) as `truth(v)`, which numba can type (it has no bool of an optional)."""
    if isinstance(test, ast.Name) and test.id in low.unbound:
        return ast.Call(load(low.module.numpy_kernel("truth")), [test], [])
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return ast.UnaryOp(ast.Not(), _truth(test.operand, low))
    if isinstance(test, ast.BoolOp):
        return ast.BoolOp(test.op, [_truth(v, low) for v in test.values])
    return test


def _forward_call(stmt: ast.stmt, call: ast.Call, low: _Lowering) -> list[ast.stmt]:
    """`r = _fwd_f(_stack, ...)`: the stack argument dropped; when `_fwd_f` saves, its
    saved values pushed on the entry's stack of `f`."""
    base = call.func.id[len("_fwd_") :]
    call.args = call.args[1:]
    if base not in low.module.saves:
        return [stmt]
    stack = low.variant_stack(base, stmt)
    saved = low.module.fresh("_sv")
    if isinstance(stmt, ast.Assign):
        stmt.targets = [ast.Tuple([stmt.targets[0], store(saved)], ast.Store())]
        stmt.value = call
        first: ast.stmt = stmt
    else:
        pair = ast.Tuple([store(low.module.fresh("_r")), store(saved)], ast.Store())
        first = ast.copy_location(ast.Assign([pair], call), stmt)
    return [first, ast.Expr(method(stack, "append", [load(saved)]))]


def _expressions(stmt: ast.stmt, low: _Lowering, skip_bodies: bool = False) -> None:
    """Backward variants given their saves."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        for name, value in ast.iter_fields(node):
            if skip_bodies and node is stmt and name in ("body", "orelse"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    todo.append(child)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if is_variant(node, "_bwd_"):
            base = func.id[len("_bwd_") :]
            if base in low.module.saves:
                stack = low.variant_stack(base, stmt)
                node.args = [method(stack, "pop", []), *node.args[1:]]
            else:
                node.args = node.args[1:]


def _descending(it: ast.expr, stmt: ast.stmt, module: Module) -> ast.expr:
    """`reversed(r)` of a range `r` as `range(last, first - step, -step)`."""
    if not (isinstance(it, ast.Call) and is_name(it.func, "reversed")):
        return it
    (r,) = it.args
    if not isinstance(r, ast.Name):
        raise module.refuse(stmt, "reversed() of something other than a range variable")
    text = f"range({r.id}.start + (len({r.id}) - 1) * {r.id}.step, {r.id}.start - {r.id}.step, "
    text += f"-{r.id}.step)"
    return ast.parse(text, mode="eval").body
