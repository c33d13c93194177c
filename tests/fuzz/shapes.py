"""Expressions that change shape: reductions, element reads, slices, rows and columns,
reshapes, transposes, matrix products, concatenation, stacking, list and dict reads,
and comprehensions.

`options(g, shape, d)` lists (weight, builder) pairs for a result of `shape`
from the shapes in scope; `derive(g, shape, 0)` always finds one (falling back to
`np.array([...])` of scalars and `np.outer`), so a leaf of any shape exists.
Operands at depth 0 are names of an existing shape, so derivation terminates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .scope import Arr, Dct, Int, Lst, Shape, pick

if TYPE_CHECKING:
    from .expressions import ExprGen

Builder = Callable[[], str]
REDUCE = ["sum", "mean", "max", "min", "sum", "prod"]


def derive(g: ExprGen, shape: Shape, d: int) -> str:
    """A value of `shape` made from the names in scope by a shape-changing form."""
    found = options(g, shape, d)
    if found and g.rng.random() < 0.85:
        return pick(g.rng, found)()
    if shape == ():
        return g.rng.choice(g.scope.arrays(()) or ["1.5"])
    if len(shape) == 1:
        items = [g.leaf(()) for _ in range(shape[0])]
        return f"np.array([{', '.join(items)}])"
    return f"np.outer({derive(g, shape[:1], 0)}, {derive(g, shape[1:], 0)})"


def options(g: ExprGen, shape: Shape, d: int) -> list[tuple[float, Builder]]:
    rng = g.rng

    def sub(s: Shape) -> str:
        names = g.scope.arrays(s)
        if d > 0:
            return g.expr(s, d)
        return rng.choice(names) if names else derive(g, s, 0)

    sources = [s for s in g.scope.shapes() if s != ()]
    found = _containers(g, shape, d)
    if not sources:
        return found
    src = rng.choice(sources)
    if shape == ():
        found += _to_scalar(g, src, sub, d)
    elif len(shape) == 1:
        found += _to_vector(g, shape[0], src, sub, d)
    else:
        found += _to_matrix(g, shape, src, sub, d)
    return found


def index_text(g: ExprGen, k: int) -> str:
    """An index valid for length k: a literal (maybe negative) or an int in scope."""
    ints = [n for n in g.scope.of(Int) if g.scope.bound(n) <= k]
    if ints and g.rng.random() < 0.4:
        name = g.rng.choice(ints)
        return g.rng.choice([name, name, f"{name} - 1", f"-1 - {name}"])
    others = g.scope.of(Int)
    if others and g.rng.random() < 0.2:
        return f"{g.rng.choice(others)} % {k}"
    i = g.rng.randrange(-k, k)
    return f"({i})" if i < 0 else str(i)


def _to_scalar(g: ExprGen, src: Shape, sub, d: int) -> list[tuple[float, Builder]]:
    rng = g.rng
    found: list[tuple[float, Builder]] = [
        (2.5, lambda: f"np.{rng.choice(REDUCE)}({sub(src)})"),
        (1.0, lambda: f"{sub(src)}.{rng.choice(['sum', 'max', 'mean', 'min'])}()"),
    ]
    if len(src) == 1:
        k = src[0]
        found += [
            (3.0, lambda: f"{sub(src)}[{index_text(g, k)}]"),
            (1.0, lambda: f"({sub(src)} @ {sub(src)})"),
            (0.7, lambda: f"np.dot({sub(src)}, {sub(src)})"),
            (0.5, lambda: f"sum({sub(src)})"),
            (1.2, lambda: _comprehension(g, src, d)),
        ]
    else:
        r, c = src
        found += [
            (2.0, lambda: f"{sub(src)}[{index_text(g, r)}, {index_text(g, c)}]"),
            (0.7, lambda: f"{sub(src)}[{index_text(g, r)}][{index_text(g, c)}]"),
        ]
    return found


def _comprehension(g: ExprGen, src: Shape, d: int) -> str:
    """sum over a list comprehension or generator expression, with a filter sometimes."""
    seq = g.expr(src, max(d - 1, 0))
    inner = g.scope.child()
    e = g.names.new("e")
    inner.add(e, Arr(()))
    body = g.with_scope(inner)
    term = body.expr((), max(d - 1, 0))
    filt = f" if {body.cond(max(d - 1, 0))}" if g.rng.random() < 0.6 else ""
    if g.rng.random() < 0.7:
        return f"sum([{term} for {e} in {seq}{filt}])"
    return f"sum(({term} for {e} in {seq}{filt}))"


def _to_vector(g: ExprGen, k: int, src: Shape, sub, d: int) -> list[tuple[float, Builder]]:
    rng = g.rng
    found: list[tuple[float, Builder]] = []
    if len(src) == 1 and src[0] > k:
        m = src[0]
        a = rng.randrange(0, m - k + 1)
        found.append((3.0, lambda: f"{sub(src)}[{a}:{a + k}]"))
        found.append((1.0, lambda: f"{sub(src)}[{-k}:]"))
        starts = [s for s in ("", "1") if len(range(int(s or 0), m, 2)) == k]
        if starts:
            start = rng.choice(starts)
            found.append((1.5, lambda: f"{sub(src)}[{start}::2]"))
    if len(src) == 1 and src[0] == k:
        found.append((1.0, lambda: f"{sub(src)}[::-1]"))
        found.append((0.6, lambda: f"np.cumsum({sub(src)})"))
    if len(src) == 2:
        r, c = src
        if c == k:
            found.append((2.0, lambda: f"{sub(src)}[{index_text(g, r)}]"))
            found.append((2.0, lambda: _axis_reduce(g, sub(src), 0)))
            found.append((1.0, lambda: f"({derive(g, (r,), d)} @ {sub(src)})"))
        if r == k:
            found.append((2.0, lambda: f"{sub(src)}[:, {index_text(g, c)}]"))
            found.append((2.0, lambda: _axis_reduce(g, sub(src), 1)))
            mv = rng.choice(["({} @ {})", "np.dot({}, {})", "{}.dot({})"])
            found.append((1.5, lambda mv=mv: mv.format(sub(src), derive(g, (c,), d))))
        if r * c == k:
            form = rng.choice(["{}.reshape(-1)", "{}.ravel()", f"np.reshape({{}}, ({k},))"])
            found.append((1.5, lambda form=form: form.format(sub(src))))
    if k >= 2:
        cut = rng.randrange(1, k)
        form = rng.choice(["np.concatenate([{}, {}])", "np.r_[{}, {}]", "np.append({}, {})"])
        found.append(
            (0.8, lambda form=form: form.format(derive(g, (cut,), d), derive(g, (k - cut,), d)))
        )
    if k <= 4:
        found.append((0.6, lambda: f"np.array([{', '.join(g.expr((), d) for _ in range(k))}])"))
    return found


def _axis_reduce(g: ExprGen, operand: str, axis: int) -> str:
    fn = g.rng.choice(["sum", "mean", "max", "min", "sum"])
    if g.rng.random() < 0.4:
        return f"{operand}.{fn}(axis={axis})"
    return f"np.{fn}({operand}, axis={axis})"


def _to_matrix(g: ExprGen, shape: Shape, src: Shape, sub, d: int) -> list[tuple[float, Builder]]:
    rng = g.rng
    r, c = shape
    found: list[tuple[float, Builder]] = [
        (1.0, lambda: f"np.outer({derive(g, (r,), d)}, {derive(g, (c,), d)})")
    ]
    if src == (r * c,):
        form = rng.choice([f"{{}}.reshape({r}, {c})", f"np.reshape({{}}, ({r}, {c}))"])
        found.append((2.5, lambda form=form: form.format(sub(src))))
    if src == (c, r):
        form = rng.choice(["{}.T", "np.transpose({})", "{}.transpose()"])
        found.append((2.5, lambda form=form: form.format(sub(src))))
    if src == shape:
        found.append((0.8, lambda: f"{sub(src)}[::-1]"))
    if r == 2:
        form = rng.choice(["np.stack([{}, {}])", "np.vstack([{}, {}])"])
        found.append((1.0, lambda form=form: form.format(derive(g, (c,), d), derive(g, (c,), d))))
    if c == 2:
        form = rng.choice(["np.c_[{}, {}]", "np.column_stack([{}, {}])"])
        found.append((0.8, lambda form=form: form.format(derive(g, (r,), d), derive(g, (r,), d))))
    if len(src) == 2 and src[0] == r and d > 0:
        m = src[1]
        found.append((1.2, lambda: f"({sub(src)} @ {derive(g, (m, c), 0)})"))
    return found


def _containers(g: ExprGen, shape: Shape, d: int) -> list[tuple[float, Builder]]:
    """Reads of lists and dicts in scope whose items have `shape`."""
    found: list[tuple[float, Builder]] = []
    for name, typ in g.scope.names.items():
        if isinstance(typ, Lst) and typ.shape == shape:
            if typ.length:
                i = g.rng.randrange(-typ.length, typ.length)
                found.append((1.5, lambda n=name, i=i: f"{n}[{i}]"))
            found.append((1.5, lambda n=name: f"sum({n})"))
        if isinstance(typ, Lst) and shape == () and typ.shape != ():
            found.append((0.8, lambda n=name: f"np.sum({n}[-1])"))
        if isinstance(typ, Dct) and typ.shape == shape:
            key = g.rng.choice(typ.keys)
            found.append((1.5, lambda n=name, k=key: f"{n}[{k!r}]"))
    return found
