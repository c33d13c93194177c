"""Random `for` and `while` loops: over ranges with constant and argument trip counts,
arrays, matrix rows, lists, dicts, enumerate and zip (a range loop's position sometimes
rebound by its body); with break, continue and
return under data-dependent conditions, loop `else`, and data-dependent `while`
exits (always bounded by a counter, so every program terminates).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .scope import Arr, Dct, Int, Lst, Scope, pick

if TYPE_CHECKING:
    from .statements import Ctx, Lines, StmtGen


def _indent(lines: Lines) -> Lines:
    return ["    " + line for line in lines]


def _header(gen: StmtGen, scope: Scope, inner: Scope) -> tuple[str, list[str]]:
    """The `for` line and any first body lines; binds the loop names in `inner`."""
    rng, names = gen.rng, gen.names
    g = gen.exprs(scope)
    vecs = scope.arrays((4,)) + scope.arrays((3,)) + scope.arrays((2,))
    mats = [n for n in scope.arrays() if len(scope.shape(n)) == 2]
    ints = [n for n in scope.of(Int) if n == "n"]
    lists = scope.of(Lst)
    dicts = scope.of(Dct)
    kinds = [
        (2.5, "range"),
        (3.0 * bool(ints), "range-arg"),
        (2.0 * bool(vecs), "array"),
        (1.5 * bool(mats), "rows"),
        (1.2 * bool(vecs), "enumerate"),
        (1.2 * bool(vecs), "zip"),
        (2.5 * bool(lists), "list"),
        (2.0 * bool(dicts), "dict"),
    ]
    kind = pick(rng, kinds)
    if kind in ("range", "range-arg"):
        i = names.new("i")
        if kind == "range-arg":
            inner.add(i, Int(4))
            form = rng.choice(["range(n)", "range(n)", "range(1, n)", "range(n - 1, -1, -1)"])
            return f"for {i} in {form}:", _rebound(rng, i, 4)
        k = rng.choice([0, 1, 2, 3, 3, 4, 4])
        inner.add(i, Int(max(k, 1)))
        form = rng.choice(
            [f"range({k})", f"range({k})", f"range(1, {k})", f"range({k} - 1, -1, -1)"]
        )
        return f"for {i} in {form}:", _rebound(rng, i, max(k, 1))
    if kind == "array":
        e = names.new("e")
        inner.add(e, Arr(()))
        seq = rng.choice(vecs) if rng.random() < 0.7 else g.expr(scope.shape(rng.choice(vecs)), 1)
        return f"for {e} in {seq}:", []
    if kind == "rows":
        m = rng.choice(mats)
        r = names.new("r")
        inner.add(r, Arr(scope.shape(m)[1:]))
        return f"for {r} in {m}:", []
    if kind == "enumerate":
        v = rng.choice(vecs)
        i, e = names.new("i"), names.new("e")
        inner.add(i, Int(scope.shape(v)[0]))
        inner.add(e, Arr(()))
        return f"for {i}, {e} in enumerate({v}):", []
    if kind == "zip":
        v = rng.choice(vecs)
        shape = scope.shape(v)
        a, b = names.new("e"), names.new("e")
        inner.add(a, Arr(()))
        inner.add(b, Arr(()))
        other = rng.choice([f"{v}[::-1]", g.expr(shape, 1), *scope.arrays(shape)])
        return f"for {a}, {b} in zip({v}, {other}):", []
    if kind == "list":
        lst = rng.choice(lists)
        t = names.new("t")
        inner.add(t, Arr(scope.shape(lst)))
        del inner.names[lst]  # appending to the list iterated over would never end
        return f"for {t} in {lst}:", []
    d = rng.choice(dicts)
    key, t = names.new("key"), names.new("t")
    inner.add(t, Arr(scope.shape(d)))
    if rng.random() < 0.5:
        return f"for {key}, {t} in {d}.items():", []
    return f"for {key} in {d}:", [f"{t} = {d}[{key}]"]


def _rebound(rng: random.Random, i: str, bound: int) -> list[str]:
    """Sometimes a first body line rebinding the loop's position within [0, bound)
    (`i = 3 - i`): the backward sweep must use the rebound value, not the position.
    Decided by a generator seeded from rng's state, which it leaves as it was, so the
    programs of a seed stay what they were without this line."""
    state = rng.getstate()[1]  # Mersenne Twister words and position (hash(None) varies)
    if random.Random(sum(state[:8]) ^ state[-1]).random() >= 0.15:
        return []
    return [f"{i} = {bound - 1} - {i}"]


def _jumps(gen: StmtGen, entry: Scope, ctx: Ctx, body: Lines, after: int = 0) -> tuple[Lines, bool]:
    """Maybe insert `if c: break` / `continue` / `return ...` between the statements of a
    loop body (not before its first `after` lines). `entry` holds the names bound when
    the body starts, so the jump reads nothing the body binds later."""
    rng = gen.rng
    broke = False
    r = rng.random()
    if r < 0.45:
        g = gen.exprs(entry)
        jump = pick(rng, [(3, "break"), (2, "continue"), (1.2, "return")])
        broke = jump == "break"
        stmt = jump if jump != "return" else f"return {gen.return_value(entry, ctx)}"
        starts = [i for i, line in enumerate(body) if not line.startswith(" ") and i >= after]
        at = rng.choice([*starts, len(body)])
        body = [*body[:at], f"if {g.cond(gen.depth())}:", f"    {stmt}", *body[at:]]
    return body, broke


def for_stmt(gen: StmtGen, scope: Scope, ctx: Ctx) -> Lines:
    inner = scope.child()
    header, first = _header(gen, scope, inner)
    entry = Scope(dict(inner.names), scope)
    body = first + gen.block(inner, ctx.nested(loop=True), gen.rng.choice([1, 1, 2, 2, 3]))
    body, broke = _jumps(gen, entry, ctx, body, after=len(first))
    lines = [header, *_indent(body)]
    if gen.rng.random() < (0.35 if broke else 0.08):
        lines += ["else:", *_indent(gen.block(scope.child(), ctx.nested(), 1))]
    return lines


def while_stmt(gen: StmtGen, scope: Scope, ctx: Ctx) -> Lines:
    """A counter-bounded while loop whose exit depends on the data. The counter goes up
    first in the body, so a `continue` cannot skip it."""
    rng = gen.rng
    g = gen.exprs(scope)
    k = gen.names.new("k")
    bound = rng.choice([2, 3, 4, 5])
    inner = scope.child()
    inner.add(k, Int(bound + 1))
    entry = Scope(dict(inner.names), scope)
    cond = g.cond(gen.depth())
    body = gen.block(inner, ctx.nested(loop=True), rng.choice([1, 2, 2, 3]))
    form = rng.choice(["and", "and", "first", "not", "or", "break"])
    test = {
        "and": f"{cond} and {k} < {bound}",
        "first": f"{k} < {bound} and {cond}",
        "not": f"not {cond} and {k} < {bound}",
        "or": f"({cond} or {k} < 1) and {k} < {bound}",
        "break": f"{k} < {bound}",
    }[form]
    if form == "break":
        body = [*body, f"if {cond}:", "    break"]
    elif rng.random() < 0.4:
        body, _ = _jumps(gen, entry, ctx, body)
    lines = [f"{k} = 0", f"while {test}:", f"    {k} += 1", *_indent(body)]
    if rng.random() < 0.12:
        lines += ["else:", *_indent(gen.block(scope.child(), ctx.nested(), 1))]
    scope.add(k, Int(bound + 1))
    return lines
