"""The adjoint of a concatenation of vectors as slices, where the pieces' lengths allow.

`unconcatenate(g, parts, axis)` (runtime/numpy.py) cuts g at the pieces' lengths, read
at run time: the backward sweep reads every piece, so the forward sweep saves each one
that a loop overwrites (a constant list `[0.0]` pushed at every step), and pays a
helper call. In a build specialised to the arguments' signature, the shape analysis
often knows that the result is a vector and how long the list literals among the
pieces are: each piece's adjoint is then a slice of g with constant bounds, counted
from the front (`g[:1]`) or from the back (`g[1:-1]`, `g[-1:]`).

Assumes: `ctx.shapes` (analyze/shapes.py) holds classes certain at `stmt`. Guarantees:
a call is rewritten only when the result is a vector, the axis is the literal 0 or -1,
and each piece is a list literal of numbers (its length known), or a vector whose
bounds follow from the known lengths of the pieces before it or of those after it;
each slice is the piece unconcatenate gives (a view of g).
"""

from __future__ import annotations

import gast

from .. import runtime
from ..syntax import nodes
from .context import Context


def specialise(ctx: Context, stmt: gast.stmt, stmts: list[gast.stmt]) -> None:
    """Rewrite, in `stmts` (backward code of `stmt`), an unconcatenate call whose pieces'
    slices are known as a tuple of those slices."""
    known = ctx.shapes.before.get(id(stmt), {})
    if ctx.shapes.result.get(id(stmt)) not in (("dims", "N"), ("dims", "1")):
        return
    for s in stmts:
        if isinstance(s, gast.Assign) and isinstance(s.value, gast.Call):
            sliced = _slices(ctx, s.value, known)
            if sliced is not None:
                s.value = sliced


def _slices(ctx: Context, call: gast.Call, known: dict) -> gast.expr | None:
    if not (isinstance(call.func, gast.Name) and len(call.args) == 3 and not call.keywords):
        return None
    if ctx.namespace.objects.get(call.func.id) is not runtime.unconcatenate:
        return None
    g, parts, axis = call.args
    if not (
        isinstance(g, gast.Name)
        and isinstance(parts, gast.Tuple)
        and isinstance(axis, gast.Constant)
        and axis.value in (0, -1)
        and type(axis.value) is int
    ):
        return None
    lengths = [_length(p, known) for p in parts.elts]
    if any(n is False for n in lengths):
        return None  # a piece that is not a vector or list literal of numbers
    pieces = []
    for i, n in enumerate(lengths):
        before, after = lengths[:i], lengths[i + 1 :]
        start = sum(before) if None not in before else None
        rest = sum(after) if None not in after else None
        if start is not None and (n is not None or rest is not None):
            stop = start + n if n is not None else (-rest or None)
        elif rest is not None and n is not None:
            start, stop = -(rest + n), -rest or None
        else:
            return None
        pieces.append(_slice(g, start or None, stop))
    return nodes.tuple_(pieces)


def _length(piece: gast.expr, known: dict) -> int | bool | None:
    """A piece's length (None: a vector of unknown length; False: not a vector)."""
    if isinstance(piece, gast.List):
        simple = all(
            isinstance(e, gast.Constant) and type(e.value) in (int, float) for e in piece.elts
        )
        return len(piece.elts) if simple else False
    if not isinstance(piece, gast.Name):
        return False
    shape = known.get(piece.id)
    if shape is None:
        return False
    if shape[0] == "list":
        return shape[1]
    if shape[0] != "dims" or len(shape[1]) != 1:
        return False
    return {"1": 1, "0": 0}.get(shape[1])


def _slice(g: gast.Name, start: int | None, stop: int | None) -> gast.expr:
    bounds = gast.Slice(lower=_int(start), upper=_int(stop), step=None)
    return gast.Subscript(value=nodes.name(g.id), slice=bounds, ctx=gast.Load())


def _int(value: int | None) -> gast.expr | None:
    if value is None:
        return None
    if value < 0:
        return gast.UnaryOp(op=gast.USub(), operand=nodes.const(-value))
    return nodes.const(value)
