"""`g(*args)` and `g(*args[a:b])` where args is a local of a length known when the
gradient is built (normalize/methods.py `fixed_length`): the items spelled out as
arguments, `g(args[0], args[1])`, so that the gradient reaches each.

Assumes: `fixed_length(name)` is the length of a local bound once to a tuple or list
literal and never changed (else None). Guarantees: `spelled` returns the items' reads in
order, or None where the length or the slice is not known now.
"""

from __future__ import annotations

from collections.abc import Callable

import gast

from ..syntax import nodes


def spelled(seq: gast.expr, fixed_length: Callable[[gast.expr], int | None]) -> list | None:
    """[args[i], ...] for `args` or a slice `args[a:b:c]` with constant bounds."""
    if isinstance(seq, gast.Name):
        n = fixed_length(seq)
        return None if n is None else [_item(seq, i) for i in range(n)]
    if not (isinstance(seq, gast.Subscript) and isinstance(seq.slice, gast.Slice)):
        return None
    bounds = [_constant(b) for b in (seq.slice.lower, seq.slice.upper, seq.slice.step)]
    if not isinstance(seq.value, gast.Name) or any(b is False for b in bounds):
        return None
    n = fixed_length(seq.value)
    if n is None or bounds[2] == 0:
        return None
    return [_item(seq.value, i) for i in range(n)[slice(*bounds)]]


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
