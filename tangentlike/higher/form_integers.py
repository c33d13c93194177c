"""Integer arguments of NumPy calls restored from the stack chain, in the differentiable
form of a generated derivative module (higher/forms.py).

A helper whose `axis` parameter keeps its default (`def _lse(z, axis=-1)`) has a
gradient that pushes `axis` beside the helper's arrays (`_stack = ((axis, z), _stack)`)
and pops them together in the backward sweep (`axis, z = _stack[0]`), where it reads
`np.sum(g, axis=axis)` or `np.expand_dims(g, axis)`. The chain holds differentiated
values, so the popped `axis` looks differentiated to the next differentiation, whose
rules refuse a differentiated axis ("the gradient with respect to argument 'axis' of
expand_dims is not implemented").

Assumes: the form of a generated function (pushes and pops as stack-chain pairs), and
`external` its module's names. Guarantees: a name bound only by pops (`X = S[0]`, or
unpacked from one, `X, Y = S[0]`) whose every read is an argument of a NumPy function
at a parameter NumPy takes integers, booleans, tuples of them or None at (`axis`,
`axes`, `keepdims`: NumPy raises a TypeError for a float there), or an operand of an
identity or equality test (`X is None`), is bound through stop_gradient at each of its
pops (`X = stop_gradient(S[0])`; `_popped_X, Y = S[0]` then `X = stop_gradient(_popped_X)`:
activity is per name): the identity on values, differentiated as a constant. Its derivative would be
zero anyway: nothing the function computes moves with it. Any other read (a runtime
helper's argument, arithmetic, an index) leaves the name as it is.
"""

from __future__ import annotations

import ast
import inspect

from ..runtime import stop_gradient

NAME = "stop_gradient"
PREFIX = "_popped_"  # the popped object, before stop_gradient (no generated name starts so)
INTEGER_PARAMETERS = frozenset({"axis", "axes", "keepdims"})


def integer_pops_as_constants(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rebind the pops of fn's integer-only names with stop_gradient (bound in `external`)."""
    if external.get(NAME, stop_gradient) is not stop_gradient:
        return
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    pops: dict[str, list[ast.Assign]] = {}
    other: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            owner = parents.get(id(node))
            while isinstance(owner, ast.Tuple):
                owner = parents.get(id(owner))
            if isinstance(owner, ast.Assign) and _is_pop(owner):
                pops.setdefault(node.id, []).append(owner)
            else:
                other.add(node.id)
    for arg in fn.args.args + fn.args.kwonlyargs:
        other.add(arg.arg)
    used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {
        a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)
    }
    names = {
        n
        for n in pops
        if n not in other
        and PREFIX + n not in used  # the name the rewrite binds must be free
        and _all_reads_integer(fn, n, parents, external)
    }
    if not names:
        return
    for body in _bodies(fn):
        i = 0
        while i < len(body):
            stmt = body[i]
            if isinstance(stmt, ast.Assign) and _is_pop(stmt):
                if isinstance(stmt.targets[0], ast.Name):  # X = stop_gradient(S[0])
                    if stmt.targets[0].id in names:
                        stmt.value = _constant(stmt.value)
                else:  # X, Y = S[0] -> _popped_X, Y = S[0]; X = stop_gradient(_popped_X)
                    for target in _flat(stmt.targets[0]):
                        if target.id in names:
                            name, target.id = target.id, f"{PREFIX}{target.id}"
                            value = _constant(ast.Name(id=target.id, ctx=ast.Load()))
                            store = ast.Name(id=name, ctx=ast.Store())
                            new = ast.Assign(targets=[store], value=value)
                            body.insert(i + 1, ast.copy_location(new, stmt))
                            i += 1
            i += 1
    ast.fix_missing_locations(fn)
    external[NAME] = stop_gradient


def _constant(value: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(id=NAME, ctx=ast.Load()), args=[value], keywords=[])


def _bodies(fn: ast.FunctionDef):
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _is_pop(node: ast.Assign) -> bool:
    """`X = S[0]` or `X, Y = S[0]`, a pop from a stack chain (`S` named like a stack)."""
    value = node.value
    return (
        len(node.targets) == 1
        and isinstance(node.targets[0], (ast.Name, ast.Tuple))
        and all(isinstance(n, ast.Name) for n in _flat(node.targets[0]))
        and isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id.startswith("_stack")
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )


def _flat(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple):
        return [n for e in target.elts for n in _flat(e)]
    return [target]


def _all_reads_integer(fn: ast.FunctionDef, name: str, parents: dict, external: dict) -> bool:
    reads = [
        n
        for n in ast.walk(fn)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    return all(_integer_read(n, parents, external) for n in reads)


def _integer_read(node: ast.Name, parents: dict, external: dict) -> bool:
    parent = parents.get(id(node))
    if isinstance(parent, ast.Compare):
        return all(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in parent.ops)
    if isinstance(parent, ast.keyword):
        call = parents.get(id(parent))
        return (
            parent.arg in INTEGER_PARAMETERS
            and isinstance(call, ast.Call)
            and _numpy_function(call.func, external) is not None
        )
    if isinstance(parent, ast.Call) and node in parent.args:
        primal = _numpy_function(parent.func, external)
        if primal is None or any(isinstance(a, ast.Starred) for a in parent.args):
            return False
        try:
            params = list(inspect.signature(primal).parameters)
        except (TypeError, ValueError):
            return False
        position = parent.args.index(node)
        return position < len(params) and params[position] in INTEGER_PARAMETERS
    return False


def _numpy_function(func: ast.expr, external: dict) -> object | None:
    """The NumPy function `np.f` / `np.linalg.f` names (through the module's names)."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    obj = external.get(func.id)
    for part in reversed(parts):
        obj = getattr(obj, part, None)
    module = getattr(obj, "__module__", None) or ""
    if callable(obj) and (module == "numpy" or module.startswith("numpy.")):
        return obj
    return None
