"""Array writes and in-place updates: fresh arrays written by index and slice, and
updates through aliases, views (slices, rows, columns, reshape, .T), loop rows,
aliases held in lists and dicts, and `out=`.

The bases of aliased updates go into `gen.must_use`, so the program's result
reads the array the update changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .scope import Arr, Scope, Shape, pick
from .shapes import index_text

if TYPE_CHECKING:
    from .statements import Lines, StmtGen

VEC_SHAPES: list[tuple[float, Shape]] = [(3, (4,)), (1, (3,)), (0.6, (2,))]


def fresh_array(gen: StmtGen, scope: Scope) -> Lines:
    """A new array (zeros, copy, array of scalars, ...) and a few writes into it."""
    rng = gen.rng
    g = gen.exprs(scope)
    shapes = [*VEC_SHAPES, *[(1.2, s) for s in scope.shapes() if len(s) == 2]]
    shape = pick(rng, shapes)
    name = gen.names.new("v" if len(shape) == 1 else "M")
    sources = scope.arrays(shape)
    dims = str(shape[0]) if len(shape) == 1 else str(shape)
    forms = [
        (2, f"np.zeros({dims})"),
        (1, f"np.ones({dims})"),
    ]
    if sources:
        src = rng.choice(sources)
        forms += [
            (2, f"{src}.copy()"),
            (1, f"np.copy({src})"),
            (1, f"np.zeros_like({src})"),
            (1, f"{src} * 1.0"),
            (0.6, f"np.array({src})"),
        ]
    if len(shape) == 1 and shape[0] <= 4:
        items = ", ".join(g.expr((), 1) for _ in range(shape[0]))
        forms.append((1.5, f"np.array([{items}])"))
    lines = [f"{name} = {pick(rng, forms)}"]
    scope.add(name, Arr(shape, fresh=True))
    for _ in range(rng.choice([1, 1, 2, 3])):
        lines += setitem(gen, scope, [name])
    return lines


def setitem(gen: StmtGen, scope: Scope, targets: list[str]) -> Lines:
    """One write into one of `targets` (or, rarely, into any array: a param, a view)."""
    rng = gen.rng
    g = gen.exprs(scope)
    others = [n for n in scope.arrays() if scope.shape(n) != ()]
    name = rng.choice(others if others and rng.random() < 0.03 else targets)
    shape = scope.shape(name)
    op = pick(rng, [(4, "="), (1.5, "+="), (0.8, "-="), (0.8, "*=")])
    s = lambda: g.expr((), gen.depth())  # noqa: E731
    if len(shape) == 1:
        k = shape[0]
        a = rng.randrange(0, k)
        b = rng.randrange(a + 1, k + 1)
        half = (k + 1) // 2
        forms = [
            (3, lambda: f"{name}[{g_index(gen, scope, k)}] {op} {s()}"),
            (2, lambda: f"{name}[{a}:{b}] {op} {g.expr((b - a,), gen.depth())}"),
            (1, lambda: f"{name}[{a}:{b}] {op} {s()}"),
            (0.8, lambda: f"{name}[::2] {op} {g.expr((half,), 1)}"),
            (0.6, lambda: f"{name}[:] {op} {g.expr(shape, 1)}"),
        ]
    else:
        r, c = shape
        forms = [
            (3, lambda: f"{name}[{g_index(gen, scope, r)}, {g_index(gen, scope, c)}] {op} {s()}"),
            (2, lambda: f"{name}[{g_index(gen, scope, r)}] {op} {g.expr((c,), gen.depth())}"),
            (1.5, lambda: f"{name}[:, {g_index(gen, scope, c)}] {op} {g.expr((r,), 1)}"),
            (0.2, lambda: f"{name}[{g_index(gen, scope, r)}][{g_index(gen, scope, c)}] {op} {s()}"),
        ]
    return [pick(rng, forms)()]


def g_index(gen: StmtGen, scope: Scope, k: int) -> str:
    return index_text(gen.exprs(scope), k)


def alias(gen: StmtGen, scope: Scope) -> Lines:
    """An in-place update through another name for (part of) an array."""
    rng = gen.rng
    arrays = [n for n in scope.arrays() if scope.shape(n) != ()]
    if not arrays:
        return fresh_array(gen, scope)
    base = rng.choice(arrays)
    shape: Shape = scope.shape(base)
    gen.must_use.add(base)
    z = gen.names.new("z")
    patterns: list[tuple[float, str]] = [(2, "name"), (2, "slice"), (0.3, "list"), (0.2, "dict")]
    if len(shape) == 2:
        patterns += [(1.5, "row"), (1.5, "column"), (1.5, "T"), (1.5, "rows"), (1, "flat")]
    elif shape[0] == 4:
        patterns += [(1.5, "reshape")]
    kind = pick(rng, patterns)
    if kind == "rows":
        r = gen.names.new("r")
        return [f"for {r} in {base}:", f"    {r} {gen.aug_rhs(scope, shape[1:])}"]
    if kind in ("list", "dict"):
        holder = gen.names.new("L" if kind == "list" else "D")
        other = rng.choice(arrays)
        if kind == "list":
            return [f"{holder} = [{base}, {other}]", f"{holder}[0] {gen.aug_rhs(scope, shape)}"]
        return [f"{holder} = {{'a': {base}}}", f"{holder}['a'] {gen.aug_rhs(scope, shape)}"]
    view, view_shape = _view(gen, kind, base, shape)
    scope.add(z, Arr(view_shape))
    return [f"{z} = {view}", f"{z} {gen.aug_rhs(scope, view_shape)}"]


def _view(gen: StmtGen, kind: str, base: str, shape: Shape) -> tuple[str, Shape]:
    rng = gen.rng
    if kind == "name":
        return base, shape
    if kind == "row":
        return f"{base}[{rng.randrange(shape[0])}]", shape[1:]
    if kind == "column":
        return f"{base}[:, {rng.randrange(shape[1])}]", shape[:1]
    if kind == "T":
        return rng.choice([f"{base}.T", f"np.transpose({base})"]), shape[::-1]
    if kind == "flat":
        return f"{base}.reshape(-1)", (shape[0] * shape[1],)
    if kind == "reshape":
        return f"{base}.reshape(2, 2)", (2, 2)
    k = shape[0]
    a = rng.randrange(0, k)
    b = rng.randrange(a + 1, k + 1)
    return f"{base}[{a}:{b}]", (b - a, *shape[1:])


def out_call(gen: StmtGen, scope: Scope) -> Lines:
    """A NumPy call writing its result through out= (into a fresh array or a base)."""
    rng = gen.rng
    g = gen.exprs(scope)
    arrays = [n for n in scope.arrays() if scope.shape(n) != ()]
    if not arrays:
        return fresh_array(gen, scope)
    base = rng.choice(arrays)
    shape: Shape = scope.shape(base)
    gen.must_use.add(base)
    other = g.expr(shape, 1)
    kind = pick(rng, [(2, "fresh"), (2, "self"), (1, "unary"), (1, "clip"), (1, "matmul")])
    if kind == "fresh":
        c = gen.names.new("v" if len(shape) == 1 else "M")
        scope.add(c, Arr(shape))
        fn = rng.choice(["multiply", "add", "subtract"])
        return [f"{c} = np.zeros_like({base})", f"np.{fn}({base}, {other}, out={c})"]
    if kind == "self":
        fn = rng.choice(["multiply", "add", "subtract"])
        return [f"np.{fn}({base}, {other}, out={base})"]
    if kind == "unary":
        fn = rng.choice(["sin", "tanh", "exp", "negative"])
        return [f"np.{fn}({other}, out={base})"]
    if kind == "clip":
        return [f"np.clip({base}, -1.0, 1.0, out={base})"]
    mats = [n for n in arrays if len(scope.shape(n)) == 2]
    if not mats:
        return [f"np.multiply({base}, {base}, out={base})"]
    m = rng.choice(mats)
    r, c = scope.shape(m)
    out = gen.names.new("v")
    scope.add(out, Arr((r,), fresh=True))
    vec = g.expr((c,), 1)
    return [f"{out} = np.zeros({r})", f"np.matmul({m}, {vec}, out={out})"]
