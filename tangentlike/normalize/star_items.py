"""`g(*args)` and `g(*args[a:b])` where args is a local of a length known when the
gradient is built (`fixed_length`): the items spelled out as arguments, `g(args[0],
args[1])`, so that the gradient reaches each (normalize/methods.py calls `spelled`).

Assumes: `fixed_length(name, fn)` is the length of a local bound once to a tuple or list
literal and never changed (else None). Guarantees: `spelled` returns the items' reads in
order, or None where the length or the slice is not known now.
"""

from __future__ import annotations

import gast

from ..syntax import nodes
from ..syntax.nodes import walk


def spelled(seq: gast.expr, fn: gast.FunctionDef) -> list | None:
    """[args[i], ...] for `args` or a slice `args[a:b:c]` with constant bounds (in `fn`)."""
    if isinstance(seq, gast.Name):
        n = fixed_length(seq, fn)
        return None if n is None else [_item(seq, i) for i in range(n)]
    if not (isinstance(seq, gast.Subscript) and isinstance(seq.slice, gast.Slice)):
        return None
    bounds = [_constant(b) for b in (seq.slice.lower, seq.slice.upper, seq.slice.step)]
    if not isinstance(seq.value, gast.Name) or any(b is False for b in bounds):
        return None
    n = fixed_length(seq.value, fn)
    if n is None or bounds[2] == 0:
        return None
    return [_item(seq.value, i) for i in range(n)[slice(*bounds)]]


def fixed_length(seq: gast.expr, fn: gast.FunctionDef) -> int | None:
    """The length of a local bound once, to a tuple or list literal without starred
    items, and never changed (no item write, method call or augmented assignment)."""
    if not isinstance(seq, gast.Name):
        return None
    name, stores, values = seq.id, 0, []
    for node in walk(fn):
        if isinstance(node, gast.Name) and node.id == name and not isinstance(node.ctx, gast.Load):
            stores += 1  # bound (or deleted) here
        if isinstance(node, gast.Assign) and [_plain(t) for t in node.targets] == [name]:
            values.append(node.value)
        written = isinstance(node, gast.Subscript) and not isinstance(node.ctx, gast.Load)
        called = isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute)
        base = node.value if written else node.func.value if called else None
        if base is not None and _plain(base) == name:
            return None  # args[0] = v, args.append(v): its items may change
    if stores != 1 or len(values) != 1 or not isinstance(values[0], (gast.Tuple, gast.List)):
        return None
    if any(isinstance(e, gast.Starred) for e in values[0].elts):
        return None
    return len(values[0].elts)


def _plain(node: gast.AST) -> str | None:
    return node.id if isinstance(node, gast.Name) else None


def _item(name: gast.Name, i: int) -> gast.expr:
    return nodes.subscript(nodes.deepcopy(name), nodes.const(i))


def _constant(bound: gast.expr | None) -> int | bool | None:
    """An integer bound (-1 too), None when left out; False when not known now."""
    if bound is None:
        return None
    if isinstance(bound, gast.UnaryOp) and isinstance(bound.op, gast.USub):
        inner = _constant(bound.operand)
        return -inner if type(inner) is int else False
    if isinstance(bound, gast.Constant) and type(bound.value) is int:
        return bound.value
    return False
