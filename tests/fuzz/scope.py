"""Types and scopes of the generator: what each generated name holds, so every
expression it writes has a known shape and every statement is valid.

Names follow conventions that `constructs` relies on: scalars s*, x, w; vectors
v*, y; matrices M*, A; ints k*, i*, n; lists L*; dicts D*; loop elements e*, r*.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Arr:
    """A float (shape ()) or float array; `fresh` arrays were created in this function
    (np.zeros, .copy(), ...) and alias nothing, so writing into them is ordinary."""

    shape: Shape
    fresh: bool = False


@dataclass(frozen=True)
class Int:
    """A Python int in [0, bound)."""

    bound: int


@dataclass(frozen=True)
class Lst:
    """A list of floats or same-shape arrays; length None when appends made it unknown
    (such lists start non-empty, so they can be summed and stacked)."""

    shape: Shape
    length: int | None


@dataclass(frozen=True)
class Dct:
    shape: Shape
    keys: tuple[str, ...]


Type = Arr | Int | Lst | Dct


@dataclass(frozen=True)
class Helper:
    """A generated helper: parameters (name, shape, default literal or None) and the
    shapes it returns (two for a tuple-returning helper)."""

    name: str
    params: tuple[tuple[str, Shape, str | None], ...]
    returns: tuple[Shape, ...]


@dataclass
class Scope:
    """The names visible at a point of a generated body. A child scope (a block) sees
    its parent's names; names it creates vanish when the block ends, and rebinding
    an outer name with a less fresh value updates the outer scope too."""

    names: dict[str, Type] = field(default_factory=dict)
    parent: Scope | None = None

    def child(self) -> Scope:
        return Scope(dict(self.names), self)

    def add(self, name: str, typ: Type) -> None:
        self.names[name] = typ

    def rebind(self, name: str, typ: Type) -> None:
        """`name` now holds `typ` here; outer scopes keep the name with what holds on
        every path (an array is fresh only if it is fresh on all of them)."""
        self.names[name] = typ
        scope = self.parent
        while scope is not None and name in scope.names:
            old = scope.names[name]
            if isinstance(old, Arr) and isinstance(typ, Arr):
                scope.names[name] = replace(old, fresh=old.fresh and typ.fresh)
            elif isinstance(old, Lst) and isinstance(typ, Lst):
                scope.names[name] = replace(
                    old, length=None if old.length != typ.length else typ.length
                )
            scope = scope.parent

    def of(self, kind: type) -> list[str]:
        return [n for n, t in self.names.items() if isinstance(t, kind)]

    def arrays(self, shape: Shape | None = None, fresh: bool | None = None) -> list[str]:
        return [
            n
            for n, t in self.names.items()
            if isinstance(t, Arr)
            and (shape is None or t.shape == shape)
            and (fresh is None or t.fresh == fresh)
        ]

    def shape(self, name: str) -> Shape:
        """The shape of an array, or of the items of a list or dict."""
        typ = self.names[name]
        assert not isinstance(typ, Int), name
        return typ.shape

    def bound(self, name: str) -> int:
        typ = self.names[name]
        assert isinstance(typ, Int), name
        return typ.bound

    def shapes(self) -> list[Shape]:
        return sorted({t.shape for t in self.names.values() if isinstance(t, Arr)})


@dataclass
class Names:
    """Fresh names by prefix: s1, s2, v1, ... unique in the whole module."""

    counts: dict[str, int] = field(default_factory=dict)

    def new(self, prefix: str) -> str:
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}{self.counts[prefix]}"


def prefix_of(shape: Shape) -> str:
    return {0: "s", 1: "v"}.get(len(shape), "M")


def pick(rng: random.Random, weighted: Sequence[tuple[float, object]]):
    """One item of (weight, item) pairs; pairs with weight 0 never come out."""
    items = [(w, item) for w, item in weighted if w > 0]
    total = sum(w for w, _ in items)
    r = rng.random() * total
    for w, item in items:
        r -= w
        if r <= 0:
            return item
    return items[-1][1]
