"""The checkpoint markers users write: checkpoint, checkpointed, Binomial, FixedInterval.

In plain Python they do nothing: `checkpointed(it, ...)` iterates `it`,
`with checkpoint():` runs its block, `@checkpoint` returns the function
itself. tangentlike reads them in the source of a differentiated function
(normalize/checkpoints.py) and trades memory for recomputation there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

MARK = "__tangentlike_checkpoint__"


@dataclass(frozen=True)
class Binomial:
    """A revolve-style binomial schedule keeping at most `snapshots` loop states."""

    snapshots: int

    def __post_init__(self) -> None:
        _positive("snapshots", self.snapshots)


@dataclass(frozen=True)
class FixedInterval:
    """A snapshot of the loop state every `every` steps."""

    every: int

    def __post_init__(self) -> None:
        _positive("every", self.every)


Schedule = Binomial | FixedInterval


def _positive(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, not {value!r}")


def checkpointed(
    iterable: Iterable, *, snapshots: int | None = None, every: int | None = None
) -> Iterator:
    """Mark a `for` loop for checkpointing; in plain Python, iterate `iterable`.

    `snapshots=k`: a binomial schedule keeping at most k loop states;
    `every=n`: a snapshot every n steps. Give exactly one.
    """
    schedule_of(snapshots, every)
    return iter(iterable)


def schedule_of(snapshots: object, every: object) -> Schedule:
    """The schedule named by checkpointed()'s keywords (validated)."""
    if (snapshots is None) == (every is None):
        raise TypeError("checkpointed() takes exactly one of snapshots=k or every=n")
    return Binomial(snapshots) if snapshots is not None else FixedInterval(every)


class _Block:
    """What `tl.checkpoint()` returns: a context manager that does nothing at run time."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def checkpoint(func: Callable | None = None) -> Any:
    """`@checkpoint` on a helper, or `with checkpoint():` around a block: the forward
    sweep runs it without recording, the backward sweep recomputes it, recording,
    right before differentiating it."""
    if func is None:
        return _Block()
    if not callable(func):
        raise TypeError(f"@checkpoint decorates a function, not {func!r}")
    setattr(func, MARK, True)
    return func


def is_checkpointed(func: object) -> bool:
    return getattr(func, MARK, False) is True
