"""Which adjoints the backward sweep has assigned so far, and which of their arrays it owns.

A value of the backward transform's visits (transform/reverse.py): a visit takes the
`Defined` after the statements that follow it in the program and returns the one
before them. An adjoint is *defined* once a contribution assigned it (later ones
accumulate out of place); it is *owned* when its array belongs to the generated code
alone (a new array no other name refers to), so a rule may update it in place where
it dies. At a join an adjoint is owned only if both branches own it; at the start of
a loop's step (transform/reverse.py), only if it is owned before the loop, or zeroed
there as a float parameter's adjoint, and at the end of every step (a fixpoint), so
each step starts with the ownership the step before ended with (checkpointed loops
start with none).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Defined:
    """Adjoint names assigned so far; `owned` ⊆ `adjoints`."""

    adjoints: frozenset[str] = frozenset()
    owned: frozenset[str] = frozenset()

    def __contains__(self, adjoint: object) -> bool:
        return adjoint in self.adjoints

    def assigned(self, adjoint: str, owned: bool = False) -> Defined:
        """After `adjoint = <value>`: defined, and owned if the value is a new array."""
        held = self.owned | {adjoint} if owned else self.owned - {adjoint}
        return Defined(self.adjoints | {adjoint}, held)

    def owning(self, adjoint: str) -> Defined:
        """`adjoint` (already defined) now holds a new array."""
        return Defined(self.adjoints, self.owned | {adjoint})

    def without(self, adjoint: str) -> Defined:
        """Before the statement that first contributes to `adjoint`: not defined."""
        return Defined(self.adjoints - {adjoint}, self.owned - {adjoint})

    def unowned(self) -> Defined:
        """The same adjoints, none owned (around loops)."""
        return Defined(self.adjoints)

    def join(self, other: Defined) -> Defined:
        """Where two branches meet: defined in either, owned in both."""
        return Defined(self.adjoints | other.adjoints, self.owned & other.owned)

    def union(self, other: Defined) -> Defined:
        """Defined in either, owned in neither (a loop's entry grown by its end)."""
        return Defined(self.adjoints | other.adjoints)
