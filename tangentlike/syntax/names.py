"""Deterministic fresh names: `_<base><n>` temporaries and `b<name>` adjoints."""

from __future__ import annotations

from collections.abc import Iterable


class Namer:
    """Hands out names that clash with no reserved name and with no earlier answer.

    Seed it with every name the user's function reads or writes. Answers depend
    only on the order of requests, never on hashing or randomness.
    """

    def __init__(self, reserved: Iterable[str] = (), locals_: Iterable[str] = ()) -> None:
        self._locals: set[str] = set(locals_)
        self._taken: set[str] = set(reserved) | self._locals
        self._counters: dict[str, int] = {}

    def is_local(self, name: str) -> bool:
        """Whether `name` is a local of the function (a user local or a generated one)."""
        return name in self._locals

    def reserve(self, *names: str) -> None:
        self._taken.update(names)

    def taken(self, name: str) -> bool:
        return name in self._taken

    def temp(self, base: str) -> str:
        """`_<base><n>` with the smallest n >= 1 not taken yet."""
        base = base.lstrip("_") or "t"
        n = self._counters.get(base, 0)
        while True:
            n += 1
            candidate = f"_{base}{n}"
            if candidate not in self._taken:
                break
        self._counters[base] = n
        self._taken.add(candidate)
        self._locals.add(candidate)
        return candidate

    def exact(self, preferred: str) -> str:
        """`preferred` itself if free, else `preferred_2`, `preferred_3`, ..."""
        candidate, k = preferred, 1
        while candidate in self._taken:
            k += 1
            candidate = f"{preferred}_{k}"
        self._taken.add(candidate)
        self._locals.add(candidate)
        return candidate

    def snapshot(self) -> tuple[frozenset[str], frozenset[str], dict[str, int]]:
        return frozenset(self._taken), frozenset(self._locals), dict(self._counters)

    def restore(self, state: tuple[frozenset[str], frozenset[str], dict[str, int]]) -> None:
        self._taken, self._locals, self._counters = set(state[0]), set(state[1]), dict(state[2])
