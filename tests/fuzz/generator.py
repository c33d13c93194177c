"""Seeded random modules: `import numpy as np`, up to two helpers, and `def f(...)`.

`generate(seed, index)` is a pure function: program i of seed s is always the
same text (the random stream is seeded by the string "s:i"). The text is parsed
and unparsed, so it is valid Python with minimal parentheses.
"""

from __future__ import annotations

import ast
import random

from .constructs import constructs
from .program import ENTRY, Param, Program
from .scope import Arr, Dct, Helper, Int, Lst, Names, Scope, Shape, pick
from .statements import Ctx, Lines, StmtGen, indent

HELPER_SHAPES: list[tuple[float, Shape]] = [(4, ()), (3, (4,)), (0.7, (3,))]


def generate(seed: int, index: int) -> Program:
    rng = random.Random(f"{seed}:{index}")
    names = Names()
    helpers: list[Helper] = []
    chunks: list[str] = []
    for _ in range(pick(rng, [(5, 0), (3.5, 1), (2, 2)])):
        text, helper = _helper(rng, names, helpers)
        chunks.append(text)
        helpers.append(helper)
    params = _params(rng)
    chunks.append(_entry(rng, names, helpers, params))
    source = normalize("import numpy as np\n\n\n" + "\n\n\n".join(chunks))
    return Program(seed, index, source, params, frozenset(constructs(source)))


def normalize(source: str) -> str:
    """Parse and unparse each top-level statement: minimal parentheses, one style."""
    tree = ast.parse(source)
    parts = [ast.unparse(node) for node in tree.body]
    imports = [p for p, n in zip(parts, tree.body, strict=True) if isinstance(n, ast.Import)]
    rest = [p for p, n in zip(parts, tree.body, strict=True) if not isinstance(n, ast.Import)]
    return "\n".join(imports) + "\n\n\n" + "\n\n\n".join(rest) + "\n"


def _params(rng: random.Random) -> tuple[Param, ...]:
    params = [Param("x", ())]
    if rng.random() < 0.85:
        params.append(Param("y", (4,)))
    if rng.random() < 0.35:
        params.append(Param("w", ()))
    if rng.random() < 0.35:
        params.append(Param("A", (3, 4)))
    if rng.random() < 0.45:
        params.append(Param("n", None))
    return tuple(params)


def _entry(rng: random.Random, names: Names, helpers: list[Helper], params) -> str:
    scope = Scope()
    for p in params:
        scope.add(p.name, Int(5) if p.shape is None else Arr(p.shape))
    gen = StmtGen(rng, names, helpers)
    lines: Lines = []
    gen.budget = rng.choice([3, 5, 7, 9, 12, 15])
    while gen.budget > 0:
        lines += gen.statement(scope, Ctx())
    lines.append(f"return {_result(gen, scope)}")
    signature = ", ".join(p.name for p in params)
    return "\n".join([f"def {ENTRY}({signature}):", *indent(lines)])


def _result(gen: StmtGen, scope: Scope) -> str:
    """A scalar reading the must-use names and a few others, most recent first."""
    rng = gen.rng
    candidates = [n for n, t in scope.names.items() if not isinstance(t, Int)]
    chosen = [n for n in candidates if n in gen.must_use]
    recent = [n for n in reversed(candidates) if n not in chosen]
    chosen += recent[: rng.choice([1, 2, 2, 3])]
    if rng.random() < 0.3:
        chosen.append(rng.choice(candidates))
    terms = [_summary(rng, scope, n) for n in dict.fromkeys(chosen)]
    text = terms[0]
    for term in terms[1:]:
        op = pick(rng, [(4, "+"), (1.5, "-"), (1, "*")])
        coef = rng.choice(["", "", "0.5 * ", "2.0 * ", "(-1.5) * "])
        text = f"{text} {op} {coef}{term}"
    return text


def _summary(rng: random.Random, scope: Scope, name: str) -> str:
    typ = scope.names[name]
    if isinstance(typ, Arr):
        if typ.shape == ():
            return name
        return rng.choice([f"np.sum({name})", f"np.sum({name} ** 2)", f"np.mean(np.sin({name}))"])
    if isinstance(typ, Lst):
        if typ.shape == ():
            return f"sum({name})"
        return rng.choice([f"np.sum({name}[-1])", f"sum((np.sum(t) for t in {name}))"])
    assert isinstance(typ, Dct)
    return f"np.sum({name}[{typ.keys[0]!r}])"


def _helper(rng: random.Random, names: Names, helpers: list[Helper]) -> tuple[str, Helper]:
    """A helper over scalars and vectors: maybe an unused parameter, a keyword default,
    parameters rebound in its body, one or two results."""
    name = f"h{len(helpers) + 1}"
    count = rng.choice([1, 2, 2, 3])
    params = [(p, pick(rng, HELPER_SHAPES), None) for p in "abq"[:count]]
    scope = Scope()
    for p, shape, _ in params:
        scope.add(p, Arr(shape))
    if rng.random() < 0.3:
        params.append(("u", pick(rng, HELPER_SHAPES), None))  # never read
    if rng.random() < 0.35:
        params.append(("c", (), rng.choice(["0.5", "2", "-1.0", "1e-3"])))
        scope.add("c", Arr(()))
    returns = tuple(pick(rng, HELPER_SHAPES) for _ in range(rng.choice([1, 1, 1, 2])))
    gen = StmtGen(rng, names, helpers)
    ctx = Ctx(returns=returns)
    gen.budget = rng.choice([1, 2, 3, 5])
    body: Lines = []
    while gen.budget > 0:
        body += gen.statement(scope, ctx)
    body.append(f"return {gen.return_value(scope, ctx)}")
    signature = ", ".join(p if d is None else f"{p}={d}" for p, _, d in params)
    helper = Helper(name, tuple((p, s, d) for p, s, d in params), returns)
    return "\n".join([f"def {name}({signature}):", *indent(body)]), helper
