"""Seeded random programs of nested control flow, for differential gradient tests.

`program(seed)` writes the source of `f(x, y, n)` (x, y floats or arrays, n an int):
assignments that compute with x and y, `if`/`elif`/`else` on conditions built from
comparisons of active values with `and`/`or`/`not` (also as values: `a or b`,
ternaries), `for` loops over ranges and lists, `while` loops, `else` blocks on loops,
and `break`, `continue` and `return` under such conditions, nested a few levels.
Every loop terminates (a while loop counts its passes). References: autograd (which
follows the path Python takes) and central differences.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

CONSTANTS = ("0.5", "1.5", "-0.5", "2.0", "-1.25", "0.0", "3.0")


@dataclass
class _Gen:
    rng: random.Random
    arrays: bool
    counter: int = 0
    budget: int = 14  # statements left

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def const(self) -> str:
        return self.rng.choice(CONSTANTS)

    def active(self) -> str:
        return self.rng.choice(["s", "t", "x", "y", "s * x", "t - y", "np.sin(s)", "x * y"])

    def scalar(self, e: str) -> str:
        return f"np.sum({e})" if self.arrays else e

    def comparison(self) -> str:
        op = self.rng.choice(["<", ">", "<=", ">=", "!="])
        if self.rng.random() < 0.2:
            return f"n {op} {self.rng.choice(['1', '2', '3'])}"
        return f"{self.scalar(self.active())} {op} {self.const()}"

    def condition(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth >= 2 or r < 0.35:
            return self.comparison()
        if r < 0.5:
            return f"not {self.comparison()}"
        if r < 0.65:
            return self.chained()
        op = self.rng.choice(["and", "or"])
        left, right = self.condition(depth + 1), self.condition(depth + 1)
        if self.rng.random() < 0.3:
            right = f"not ({right})"
        return f"({left}) {op} ({right})"

    def chained(self) -> str:
        low, high = sorted([float(self.const()), float(self.const())])
        return f"{low} < {self.scalar(self.active())} < {high + 1.0}"

    def value(self) -> str:
        """An expression of active values, sometimes with `and`/`or` or a ternary."""
        r = self.rng.random()
        base = f"{self.active()} * {self.const()} + {self.active()}"
        if r < 0.15:
            return f"{self.active()} if {self.condition(1)} else {self.active()} * {self.const()}"
        if r < 0.25 and not self.arrays:
            op = self.rng.choice(["and", "or"])
            return f"({self.active()} {op} {self.active()}) + {self.const()}"
        if r < 0.3 and not self.arrays:
            return f"({self.comparison()}) and {self.active()} or {self.const()}"
        return base

    def assignment(self, pad: str) -> list[str]:
        target = self.rng.choice(["s", "t"])
        return [f"{pad}{target} = {self.value()}"]

    def block(self, pad: str, depth: int, loops: int, in_loop: bool) -> list[str]:
        out: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            if self.budget <= 0:
                break
            self.budget -= 1
            out += self.statement(pad, depth, loops, in_loop)
        return out or self.assignment(pad)

    def statement(self, pad: str, depth: int, loops: int, in_loop: bool) -> list[str]:
        r = self.rng.random()
        inner = pad + "    "
        if depth >= 3 or r < 0.35:
            return self.assignment(pad)
        if r < 0.55:
            lines = [f"{pad}if {self.condition()}:"]
            lines += self.block(inner, depth + 1, loops, in_loop)
            if self.rng.random() < 0.3:
                lines.append(f"{pad}elif {self.condition()}:")
                lines += self.block(inner, depth + 1, loops, in_loop)
            if self.rng.random() < 0.5:
                lines.append(f"{pad}else:")
                lines += self.block(inner, depth + 1, loops, in_loop)
            return lines
        if r < 0.8 and loops < 2:
            return self.loop(pad, depth, loops)
        if r < 0.9 and in_loop:
            jump = self.rng.choice(["break", "continue"])
            return [f"{pad}if {self.condition()}:", f"{inner}{jump}"]
        if r < 1.0:
            return [f"{pad}if {self.condition()}:", f"{inner}return {self.scalar('s * x + t')}"]
        return self.assignment(pad)

    def loop(self, pad: str, depth: int, loops: int) -> list[str]:
        inner = pad + "    "
        kind = self.rng.choice(["range", "list", "while"])
        lines: list[str] = []
        if kind == "range":
            lines.append(f"{pad}for {self.fresh('i')} in range({self.rng.choice(['2', 'n'])}):")
        elif kind == "list":
            v = self.fresh("v")
            lines.append(f"{pad}for {v} in [{self.const()}, {self.const()}, {self.const()}]:")
            lines.append(f"{inner}s = s + {v} * x")
        else:
            k = self.fresh("k")
            lines.append(f"{pad}{k} = 0")
            cond = f"{k} < 3" if self.rng.random() < 0.5 else f"{k} < 3 and ({self.condition(1)})"
            lines.append(f"{pad}while {cond}:")
            lines.append(f"{inner}{k} = {k} + 1")
        lines += self.block(inner, depth + 1, loops + 1, in_loop=True)
        if self.rng.random() < 0.4:
            lines.append(f"{pad}else:")
            lines += self.block(inner, depth + 1, loops, in_loop=loops > 0)
        return lines


def program(seed: int, arrays: bool = False) -> str:
    """The source of `f(x, y, n)` for this seed (deterministic)."""
    gen = _Gen(random.Random(seed), arrays)
    body = gen.block("    ", 0, 0, in_loop=False)
    result = gen.scalar("s * x + t * y")
    return (
        "import numpy as np\n\n\ndef f(x, y, n):\n"
        "    s = x * 1.0\n    t = y * 0.5\n" + "\n".join(body) + f"\n    return {result}\n"
    )
