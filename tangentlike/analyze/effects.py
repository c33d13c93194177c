"""What a user function does to the memory of its arguments, as its callers see it.

A helper `def h(v): v += 1.0; return v` changes the caller's array in place and
returns it. Generated code differentiates `v += 1.0` as `v = v + 1.0` (normalize.
in_place), which is the program's meaning only where no one looks at the old
array again: inside h that is decided by h's own analysis, outside it by each
caller, from this summary.

Guarantees: `Effects.mutated` names every parameter whose memory a call may
change in place (with where and how, for messages), `Effects.returned` every
parameter the result may share memory with, `Effects.globals` the global
memories it may share, `Effects.items` what a returned tuple's items are
(analyze.tuple_items), `Effects.array` whether the result certainly is no list,
tuple or dict. `Summaries` computes them once per function, and to a
fixed point for recursive functions (starting from "changes nothing").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import SourceLocation
from .tuple_items import Returned


@dataclass(frozen=True)
class Mutation:
    """An in-place update of a parameter's memory, and what the caller is told about it."""

    where: SourceLocation  # the `+=` inside the function that changes it
    text: str  # that statement, `v += 1.0`
    via: tuple[str, ...] = ()  # the calls it goes through, `h(y) at model.py:12`

    def describe(self) -> str:
        """`v += 1.0` at helpers.py:3 (through h(y) at model.py:12)"""
        place = f"{os.path.basename(self.where.filename)}:{self.where.line}"
        chain = "".join(f", reached through {c}" for c in reversed(self.via))
        return f"`{self.text}` at {place}{chain}"


@dataclass(frozen=True)
class Effects:
    mutated: tuple[tuple[str, Mutation], ...] = ()  # (parameter, how), sorted by parameter
    returned: frozenset[str] = frozenset()  # parameters the result may share memory with
    globals: frozenset[tuple[str, str]] = frozenset()  # global memories it may share
    items: tuple[Returned, ...] = ()  # each item of the tuple every return gives, if so
    array: bool = False  # the result certainly is no list, tuple or dict

    def mutation(self, param: str) -> Mutation | None:
        return dict(self.mutated).get(param)

    def key(self) -> tuple:
        """What callers depend on (messages aside): compared to find the fixed point."""
        mutated = frozenset(p for p, _ in self.mutated)
        return (mutated, self.returned, self.globals, self.items, self.array)


NOTHING = Effects()


@dataclass
class Summaries:
    """Effects per function, computed on demand by `compute(func)` (None: unknown)."""

    done: dict[object, Effects | None] = field(default_factory=dict)
    provisional: dict[object, Effects] = field(default_factory=dict)
    stack: list[object] = field(default_factory=list)  # functions being computed
    # per frame: the outermost frame still being computed that it read (depth + 1: none)
    lowest: list[int] = field(default_factory=list)

    def get(self, func: object, compute: Callable[[object], Effects | None]) -> Effects | None:
        if func in self.done:
            return self.done[func]
        if func in self.stack:  # recursion: the current approximation
            frame = self.stack.index(func)
            self.lowest[-1] = min(self.lowest[-1], frame)
            return self.provisional.get(func, NOTHING)
        depth = len(self.stack)
        self.stack.append(func)
        self.lowest.append(depth + 1)
        try:
            while True:
                self.lowest[-1] = depth + 1
                result = compute(func)
                before = self.provisional.get(func, NOTHING)
                if result is None or self.lowest[-1] > depth or result.key() == before.key():
                    break  # no recursion through func, or its fixed point
                self.provisional[func] = result
        finally:
            lowest = self.lowest.pop()
            self.stack.pop()
        if lowest >= depth:
            self.done[func] = result  # depends on no function still being computed
            self.provisional.pop(func, None)
        else:
            self.lowest[-1] = min(self.lowest[-1], lowest)
            if result is not None:
                self.provisional[func] = result
        return result
