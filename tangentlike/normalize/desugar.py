"""Lower augmented assignment, chained and tuple assignment, tuple loop targets.

Assumes: the fence passed. Guarantees: every Assign has exactly one target, a
Name or `name[index]`; every For target is a Name; no docstring statement.
`y[i] += v` becomes `y[i] = y[i] + v` (the index is read twice); `z += v` stays:
it changes the array z refers to, which normalize.in_place decides how to treat.
Invalidates: every analysis.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable

import gast

from ..checkpoint import checkpointed
from ..parse.resolve import Scope
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.nodes import walk
from . import builtin_calls
from .strict_zips import StrictZips, strict_zip


def run(
    fn: gast.FunctionDef,
    namer: Namer,
    scope: Scope | None = None,
    strict: StrictZips | None = None,
) -> gast.FunctionDef:
    """`strict`: how loops over zip(..., strict=True) end (normalize/strict_zips.py);
    without it such a loop stays as written (and zip, which has no rule, is refused)."""
    if scope is not None:
        builtin_calls.run(fn, scope)
        fn.body = _iterators(fn.body, namer, scope, strict)
    fn.body = _block(fn.body, namer)
    return fn


def _iterators(
    stmts: list[gast.stmt], namer: Namer, scope: Scope, strict: StrictZips | None
) -> list[gast.stmt]:
    """`for i, a in enumerate(s)`, `for a, b in zip(s, t)`, `for a in reversed(s)` become
    loops over a range of positions that index the sequences (what the transform handles).
    A loop over `zip(s, t, strict=True)` (or enumerate of it) runs over the positions both
    have, and its `else:` (what runs when the loop ends without break or return) begins
    with `end(len(s), len(t))`: Python's ValueError when the lengths differ, raised
    where the strict zip raises, after the last step of the loop."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        for field in ("body", "orelse"):
            if isinstance(getattr(stmt, field, None), list):
                setattr(stmt, field, _iterators(getattr(stmt, field), namer, scope, strict))
        lowered = (
            _lower_iterator(stmt, namer, scope, strict) if isinstance(stmt, gast.For) else None
        )
        out.extend(nodes.located(s, stmt) for s in (lowered or [stmt]))
    return out


def _lower_iterator(
    stmt: gast.For, namer: Namer, scope: Scope, strict: StrictZips | None
) -> list[gast.stmt] | None:
    call = stmt.iter
    if isinstance(call, gast.Call) and scope.resolve(call.func) is checkpointed and call.args:
        # tl.checkpointed(enumerate(xs), ...): lower the inner iterator, keep the marker
        stmt.iter = call.args[0]
        lowered = _lower_iterator(stmt, namer, scope, strict)
        loop = lowered[-1] if lowered else stmt
        loop.iter = gast.Call(func=call.func, args=[loop.iter], keywords=call.keywords)
        return lowered
    lowered_strict = strict is not None and strict_zip(call, scope) is not None
    kind = builtins.zip if lowered_strict else _iterator_kind(call, scope)
    if kind is None:
        return None
    pre: list[gast.stmt] = []
    checks: list[gast.stmt] = []
    if kind is builtins.reversed and _iterator_kind(call.args[0], scope) is None:
        # for a in reversed(s): the positions backwards, s indexed directly
        seq = namer.temp("seq")
        pre.append(nodes.assign(seq, call.args[0]))
        index = namer.temp("i")
        value: gast.expr = nodes.subscript(nodes.name(seq), nodes.name(index))
        last = nodes.binop(
            nodes.call(nodes.name("len"), [nodes.name(seq)]), gast.Sub(), nodes.const(1)
        )
        bounds = [last, nodes.const(-1), nodes.const(-1)]
    else:
        length, item = _indexable(call, namer, scope, pre, strict, checks)
        index = namer.temp("i")
        value = item(nodes.name(index))
        bounds = [length]
    rng = nodes.call(nodes.name("range"), bounds)
    head = nodes.located(nodes.assign(stmt.target, value), stmt)
    loop = nodes.for_(index, rng, [head, *stmt.body])
    loop.orelse = [nodes.located(c, stmt) for c in checks] + stmt.orelse
    return [*pre, loop]


def _iterator_kind(call: gast.expr, scope: Scope) -> object | None:
    """enumerate, zip or reversed when `call` is one this pass lowers, else None."""
    if not (isinstance(call, gast.Call) and not call.keywords and call.args):
        return None
    if any(isinstance(a, gast.Starred) for a in call.args):
        return None
    kind = scope.resolve(call.func)
    if kind is builtins.enumerate and len(call.args) <= 2:
        return kind
    if kind is builtins.zip or (kind is builtins.reversed and len(call.args) == 1):
        return kind
    return None


def _indexable(
    expr: gast.expr,
    namer: Namer,
    scope: Scope,
    pre: list[gast.stmt],
    strict: StrictZips | None = None,
    checks: list[gast.stmt] | None = None,
) -> tuple[gast.expr, Callable[[gast.expr], gast.expr]]:
    """(length, item at a position) of what iterating `expr` visits, in any nesting of
    enumerate, zip and reversed (`enumerate(zip(a, b))`, `zip(reversed(a), b)`): each
    sequence is bound once in `pre` and indexed; a zip stops at its shortest sequence.
    `checks`, when `expr` is what the loop runs to its end (the loop's iterable or
    enumerate's argument there): where a strict zip's check goes (strict_zips.py); a
    strict zip elsewhere is refused."""
    if strict is not None and strict_zip(expr, scope) is not None:
        if checks is None:
            raise strict.refuse(expr)
        parts = [_indexable(a, namer, scope, pre, strict) for a in expr.args]
        lengths: list[gast.expr] = []
        for n, _ in parts:
            lengths.append(nodes.name(namer.temp("n")))
            pre.append(nodes.assign(lengths[-1].id, n))
        checks.append(strict.end(lengths))
        length = nodes.call(nodes.name("min"), [nodes.deepcopy(n) for n in lengths])
        return length, lambda i: nodes.tuple_([item(nodes.deepcopy(i)) for _, item in parts])
    kind = _iterator_kind(expr, scope)
    if kind is None:
        name = namer.temp("seq")
        pre.append(nodes.assign(name, expr))
        length = nodes.call(nodes.name("len"), [nodes.name(name)])
        return length, lambda i: nodes.subscript(nodes.name(name), i)
    if kind is builtins.zip:
        parts = [_indexable(a, namer, scope, pre, strict) for a in expr.args]
        lengths = [n for n, _ in parts]
        length = nodes.call(nodes.name("min"), lengths) if len(lengths) > 1 else lengths[0]
        return length, lambda i: nodes.tuple_([item(nodes.deepcopy(i)) for _, item in parts])
    ends_with_it = checks if kind is builtins.enumerate else None  # enumerate(zip(...))
    inner_length, inner = _indexable(expr.args[0], namer, scope, pre, strict, ends_with_it)
    if kind is builtins.reversed:

        def backwards(i: gast.expr) -> gast.expr:
            last = nodes.binop(nodes.deepcopy(inner_length), gast.Sub(), nodes.const(1))
            return inner(nodes.binop(last, gast.Sub(), i))

        return inner_length, backwards
    start = expr.args[1] if len(expr.args) == 2 else None

    def counted(i: gast.expr) -> gast.expr:
        position = i if start is None else nodes.binop(i, gast.Add(), nodes.deepcopy(start))
        return nodes.tuple_([position, inner(nodes.deepcopy(i))])

    return inner_length, counted


def _block(stmts: list[gast.stmt], namer: Namer) -> list[gast.stmt]:
    out: list[gast.stmt] = []
    for stmt in stmts:
        out.extend(nodes.located(s, stmt) for s in _stmt(stmt, namer))
    return out


def _stmt(stmt: gast.stmt, namer: Namer) -> list[gast.stmt]:
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant):
        return []  # docstrings and bare literals do nothing
    if isinstance(stmt, gast.AugAssign) and not isinstance(stmt.target, gast.Name):
        load = nodes.deepcopy(stmt.target)
        load.ctx = gast.Load()
        # `L[k] op= v` updates a mutable item of a list or dict in place: transform/in_place
        # checks at run time that the item is a number there
        stmt.target.augmented = True
        return _assign(stmt.target, nodes.binop(load, stmt.op, stmt.value), namer)
    chained = isinstance(stmt, gast.Assign) and len(stmt.targets) > 1
    if chained and not all(isinstance(t, gast.Name) for t in stmt.targets):
        # Python evaluates the value once, then assigns the targets left to right: an
        # element target written first may be read by a later one (`y[:2] = y[1:] = v`)
        out = []
        value = stmt.value
        if not isinstance(value, gast.Constant):
            temp = namer.temp("v")
            out.append(nodes.assign(temp, value))
            value = nodes.name(temp)
        for target in stmt.targets:
            out.extend(_assign(target, nodes.deepcopy(value), namer))
        return out
    if isinstance(stmt, gast.Assign):
        *outer, last = stmt.targets
        out = _assign(last, stmt.value, namer)
        source = nodes.deepcopy(last)
        for target in reversed(outer):
            _set_load(source)
            out.extend(_assign(target, source, namer))
        return out
    if isinstance(stmt, gast.For):
        body = stmt.body
        if not isinstance(stmt.target, gast.Name):
            item = namer.temp("item")
            body = [
                nodes.located(nodes.assign(stmt.target, nodes.name(item)), stmt),
                *body,
            ]
            stmt.target = nodes.name(item, store=True)
        stmt.body = _block(body, namer)
        stmt.orelse = _block(stmt.orelse, namer)
        return [stmt]
    if isinstance(stmt, (gast.If, gast.While)):
        stmt.body = _block(stmt.body, namer)
        stmt.orelse = _block(stmt.orelse, namer)
        return [stmt]
    return [stmt]


def _element_of_element(target: gast.Subscript, value: gast.expr, namer: Namer) -> list[gast.stmt]:
    """`y[i][j] = v` as Python runs it: v, then the element `_y1 = y[i]` (a view of an
    array, or the list a list holds), then `_y1[j] = v` written into that element."""
    out: list[gast.stmt] = []
    if not isinstance(value, (gast.Name, gast.Constant)):
        temp = namer.temp("v")
        out.append(nodes.assign(temp, value))
        value = nodes.name(temp)
    element = nodes.deepcopy(target.value)
    _set_load(element)
    root = element
    while isinstance(root, gast.Subscript):
        root = root.value
    holder = namer.temp(root.id if isinstance(root, gast.Name) else "e")
    out.append(nodes.assign(holder, element))
    write = gast.Subscript(value=nodes.name(holder), slice=target.slice, ctx=gast.Store())
    if getattr(target, "augmented", False):
        write.augmented = True
    out.append(nodes.assign(write, value))
    return out


def _set_load(node: gast.AST) -> None:
    for n in walk(node):
        if hasattr(n, "ctx"):
            n.ctx = gast.Load()


def _assign(target: gast.expr, value: gast.expr, namer: Namer) -> list[gast.stmt]:
    if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Subscript):
        return _element_of_element(target, value, namer)
    if isinstance(target, (gast.Name, gast.Subscript)):
        return [nodes.assign(target, value)]
    assert isinstance(target, (gast.Tuple, gast.List))
    elts = target.elts
    starred = any(isinstance(t, gast.Starred) for t in elts)
    if isinstance(value, (gast.Tuple, gast.List)) and len(value.elts) == len(elts) and not starred:
        written = nodes.names_stored(target)
        read = set().union(*(nodes.names_read(v) for v in value.elts))
        # a write into an element changes memory that an item read after it may see (a
        # name or a constant is an object the writes leave as Python's right side holds it)
        into_memory = any(isinstance(t, (gast.Subscript, gast.Attribute)) for t in walk(target))
        held = all(isinstance(v, (gast.Name, gast.Constant)) for v in value.elts)
        if not written & read and (held or not into_memory):
            out = []
            for t, v in zip(elts, value.elts, strict=True):
                out.extend(_assign(t, v, namer))
            return out
        temps = [namer.temp(_base(t)) for t in elts]
        out = [nodes.assign(tmp, v) for tmp, v in zip(temps, value.elts, strict=True)]
        for t, tmp in zip(elts, temps, strict=True):
            out.extend(_assign(t, nodes.name(tmp), namer))
        return out
    whole = namer.temp("tuple")
    out = [nodes.assign(whole, value)]
    star = next((i for i, t in enumerate(elts) if isinstance(t, gast.Starred)), None)
    for i, t in enumerate(elts):
        if i == star:  # a, *rest, z = t: rest = list(t[1:-1])
            after = len(elts) - 1 - i
            stop = gast.UnaryOp(op=gast.USub(), operand=nodes.const(after)) if after else None
            part = gast.Subscript(
                value=nodes.name(whole),
                slice=gast.Slice(lower=nodes.const(i), upper=stop, step=None),
                ctx=gast.Load(),
            )
            out.extend(_assign(t.value, nodes.call(nodes.name("list"), [part]), namer))
            continue
        index = i if star is None or i < star else i - len(elts)  # after the star: from the end
        out.extend(_assign(t, nodes.subscript(nodes.name(whole), nodes.const(index)), namer))
    return out


def _base(target: gast.expr) -> str:
    return target.id if isinstance(target, gast.Name) else "t"
