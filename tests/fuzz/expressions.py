"""Random expressions of a requested shape over the names in scope, and conditions.

Every production returns an atomic text (a name, a call, or a parenthesized
form), so templates compose without precedence mistakes; the generator then
parses and unparses the module, which leaves only the parentheses Python needs
(`y * (-1.1) ** 2`, `-x ** 2`, `2.0 ** (-x)`). Values stay in safe domains:
log and sqrt see `e ** 2 + c`, divisors are nonzero literals or `e ** 2 + c`,
negative bases have integer exponents.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from . import shapes
from .scope import Helper, Int, Names, Scope, Shape, pick

LITERALS = ["0", "1", "2", "3", "-1", "-2", "0.0", "0.5", "-0.5", "1.5", "-1.1", "2.0", "-3.0"]
EXTREME = ["0.001", "1000.0", "1e-08", "-1e-08", "250"]
NONZERO = ["2", "-1", "3", "0.5", "-0.5", "1.5", "-1.1", "2.0", "-3.0", "0.001", "1000.0"]

# Shape-preserving one-operand forms; {} is an atomic operand.
UNARY: list[tuple[float, str]] = [
    (3, "(-{})"),
    (0.8, "(+{})"),
    (2, "np.sin({})"),
    (1.2, "np.cos({})"),
    (2, "np.tanh({})"),
    (1, "np.exp(np.sin({}))"),
    (1, "np.exp(-{} ** 2)"),
    (1, "np.log(1.0 + {} ** 2)"),
    (0.6, "np.log1p({} ** 2)"),
    (1, "np.sqrt({} ** 2 + 0.5)"),
    (0.6, "np.square({})"),
    (1.5, "({} ** 2)"),
    (1, "({} ** 3)"),
    (0.8, "(({} ** 2 + 0.5) ** -1)"),
    (0.8, "(({} ** 2 + 0.25) ** 0.5)"),
    (0.7, "(2.0 ** {})"),
    (0.7, "(2.0 ** -{})"),
    (0.5, "np.arctan({})"),
    (1.2, "((-1.1) ** 2 * {})"),
    (1.2, "({} * (-1.1) ** 2)"),
    (0.5, "((-2) ** 3 * {})"),
    (0.6, "({} * -1 ** 2)"),
    (0.5, "(-(-{}))"),
]

# Shape-preserving forms with a kink, a jump or a zero derivative.
KINKS: list[tuple[float, str]] = [
    (1.5, "np.abs({})"),
    (1, "abs({})"),
    (1.2, "np.maximum({}, 0.0)"),
    (0.8, "np.minimum({}, 0.5)"),
    (0.8, "np.clip({}, -1.0, 1.0)"),
    (0.6, "np.floor({})"),
    (0.5, "np.sign({})"),
    (1.2, "({} % 1.5)"),
    (0.8, "({} // 0.7)"),
    (0.8, "np.mod({}, 2.0)"),
    (0.8, "np.fmod({}, 1.3)"),
]

COMPARE = ["<", "<=", ">", ">=", "!=", "<", ">"]


class ExprGen:
    """Expressions over `scope`, calling `helpers` (all defined before the code using
    them). `depth` bounds nesting; depth 0 gives a leaf."""

    def __init__(
        self, rng: random.Random, scope: Scope, helpers: Sequence[Helper], names: Names
    ) -> None:
        self.rng = rng
        self.scope = scope
        self.helpers = helpers
        self.names = names

    def with_scope(self, scope: Scope) -> ExprGen:
        return ExprGen(self.rng, scope, self.helpers, self.names)

    # -- literals and leaves ------------------------------------------------

    def literal(self, pool: Sequence[str] | None = None) -> str:
        if pool is None:
            pool = EXTREME if self.rng.random() < 0.08 else LITERALS
        text = self.rng.choice(pool)
        return f"({text})" if text.startswith("-") else text

    def ints(self) -> list[str]:
        return self.scope.of(Int)

    def leaf(self, shape: Shape) -> str:
        names = self.scope.arrays(shape)
        options: list[tuple[float, Callable[[], str]]] = [(3.0, lambda n=n: n) for n in names[-6:]]
        options.append((0.8 if names else 3.0, lambda: shapes.derive(self, shape, 0)))
        if shape == ():
            options.append((1.5, lambda: self.literal()))
            options += [(0.3, lambda k=k: k) for k in self.ints()]
        return pick(self.rng, options)()

    # -- expressions ----------------------------------------------------------

    def scalar(self, depth: int) -> str:
        return self.expr((), depth)

    def expr(self, shape: Shape, depth: int) -> str:
        if depth <= 0:
            return self.leaf(shape)
        d = depth - 1
        options: list[tuple[float, Callable[[], str]]] = [
            (6.0, lambda: self.leaf(shape)),
            (3.0, lambda: self.unary(shape, d)),
            (4.0, lambda: self.binary(shape, d)),
            (2.0, lambda: self.kink(shape, d)),
            (1.0, lambda: self.ternary(shape, d)),
            (0.7, lambda: self.where(shape, d)),
            (1.0, lambda: self.int_power(shape, d)),
        ]
        if shape == ():
            options.append((0.3, lambda: self.bool_value(d)))
        options += [(w, f) for w, f in shapes.options(self, shape, d)]
        options += [(1.5, f) for f in self.calls(shape, d)]
        return pick(self.rng, options)()

    def operands(self, shape: Shape, d: int) -> tuple[str, str]:
        """Two operands for an elementwise operation of result `shape`: one may be a
        scalar or a literal (broadcast), on either side."""
        a, b = self.expr(shape, d), self.expr(shape, d)
        r = self.rng.random()
        if r < 0.25:
            b = self.literal()
        elif r < 0.4:
            a = self.literal()
        elif shape != () and r < 0.55:
            b = self.expr((), d)
        return (a, b) if self.rng.random() < 0.8 else (b, a)

    def unary(self, shape: Shape, d: int) -> str:
        template = pick(self.rng, UNARY)
        if "** -1" in template or self.rng.random() < 0.08:
            params = [n for n in self.scope.arrays(shape) if n in ("x", "w", "y", "A")]
            if params and self.rng.random() < 0.5:
                return f"({self.rng.choice(params)} ** {self.rng.choice(['-2', '-1', '-3'])})"
        return template.format(self.expr(shape, d))

    def binary(self, shape: Shape, d: int) -> str:
        a, b = self.operands(shape, d)
        kind = pick(self.rng, [(6, "arith"), (1.2, "div-lit"), (1, "div-expr"), (0.5, "lit-div")])
        if kind == "arith":
            return f"({a} {self.rng.choice('+-*')} {b})"
        if kind == "div-lit":
            return f"({self.expr(shape, d)} / {self.literal(NONZERO)})"
        if kind == "div-expr":
            return f"({self.expr(shape, d)} / ({b} ** 2 + 1.0))"
        return f"({self.literal(NONZERO)} / ({self.expr(shape, d)} ** 2 + 0.5))"

    def kink(self, shape: Shape, d: int) -> str:
        r = self.rng.random()
        if r < 0.55:
            return pick(self.rng, KINKS).format(self.expr(shape, d))
        a, b = self.expr(shape, d), self.expr(shape, d)
        if r < 0.75:
            return f"np.{self.rng.choice(['maximum', 'minimum'])}({a}, {b})"
        if r < 0.85 or shape != ():
            return f"({a} % ({b} ** 2 + 0.5))"
        if self.rng.random() < 0.5:
            return f"np.{self.rng.choice(['fmax', 'fmin'])}({a}, {b})"
        c = self.expr(shape, d)
        return self.rng.choice([f"max({a}, {b})", f"min({a}, {b}, {c})", f"max([{a}, {b}, {c}])"])

    def int_power(self, shape: Shape, d: int) -> str:
        ints = self.ints()
        e = self.expr(shape, d)
        if not ints:
            return f"({e} * (-1.0) ** 2)" if self.rng.random() < 0.5 else f"((-0.5) ** 3 * {e})"
        k = self.rng.choice(ints)
        return self.rng.choice([f"((-1.0) ** {k} * {e})", f"({e} ** {k})", f"({e} * {k})"])

    def ternary(self, shape: Shape, d: int) -> str:
        return f"({self.expr(shape, d)} if {self.cond(d)} else {self.expr(shape, d)})"

    def where(self, shape: Shape, d: int) -> str:
        a, b = self.operands(shape, d)
        c = self.expr(shape, d)
        return f"np.where({c} {self.rng.choice(COMPARE[:4])} {self.literal()}, {a}, {b})"

    def bool_value(self, d: int) -> str:
        a, b = self.scalar(d), self.scalar(d)
        return self.rng.choice(
            [f"({a} or {b})", f"({a} and {b})", f"({self.cond(d)} and {a} or {b})"]
        )

    def calls(self, shape: Shape, d: int) -> list[Callable[[], str]]:
        found = []
        for h in self.helpers:
            for i, r in enumerate(h.returns):
                if r == shape:
                    suffix = f"[{i}]" if len(h.returns) > 1 else ""
                    found.append(lambda h=h, s=suffix: f"{self.call(h, d)}{s}")
        return found

    def call(self, helper: Helper, d: int) -> str:
        """A call with positional arguments, keywords, or a default left out."""
        args, keyword = [], False
        for name, shape, default in helper.params:
            if default is not None and self.rng.random() < 0.4:
                keyword = True
                continue
            keyword = keyword or self.rng.random() < 0.2
            value = self.expr(shape, d) if default is None else self.literal(NONZERO)
            nested = self.calls(shape, d)
            if default is None and nested and self.rng.random() < 0.25:
                value = self.rng.choice(nested)()
            args.append(f"{name}={value}" if keyword else value)
        return f"{helper.name}({', '.join(args)})"

    # -- conditions -------------------------------------------------------------

    def cond(self, depth: int) -> str:
        d = max(depth - 1, 0)
        options: list[tuple[float, Callable[[], str]]] = [
            (4.0, lambda: self.compare(d)),
            (1.2, lambda: self.chained(d)),
            (0.6, lambda: self.scalar(d)),
            (0.6, lambda: self.any_all(d)),
        ]
        if self.ints():
            options.append((1.0, self.int_cond))
        if depth > 0:
            options += [
                (1.5, lambda: f"({self.cond(d)} and {self.cond(d)})"),
                (1.5, lambda: f"({self.cond(d)} or {self.cond(d)})"),
                (0.8, lambda: f"(not {self.cond(d)})"),
            ]
        return pick(self.rng, options)()

    def compare(self, d: int) -> str:
        a = self.scalar(d)
        b = self.literal() if self.rng.random() < 0.6 else self.scalar(d)
        op = "==" if self.rng.random() < 0.03 else self.rng.choice(COMPARE)
        return f"({a} {op} {b})" if self.rng.random() < 0.8 else f"({b} {op} {a})"

    def chained(self, d: int) -> str:
        if self.rng.random() < 0.5:
            lo, hi = sorted(self.rng.sample([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], 2))
            return f"({lo} < {self.scalar(d)} <= {hi})"
        a, b, c = self.scalar(d), self.scalar(d), self.scalar(d)
        return f"({a} {self.rng.choice(COMPARE)} {b} {self.rng.choice(COMPARE)} {c})"

    def int_cond(self) -> str:
        k = self.rng.choice(self.ints())
        return self.rng.choice([f"({k} > 0)", f"({k} % 2 == 0)", f"({k} >= 2)", f"({k} < 1)"])

    def any_all(self, d: int) -> str:
        vec = self.rng.choice([(4,), (3,), (2,)])
        e = self.expr(vec, d)
        fn = self.rng.choice(["any", "all"])
        return f"np.{fn}({e} {self.rng.choice(COMPARE[:4])} {self.literal()})"
