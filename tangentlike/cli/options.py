"""Reading the command line's options: --wrt (through the API's one reading of wrt,
job.resolve_wrt), --inputs and --checkpoint. Every bad value is a CliError saying what
to write instead."""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable

from ..checkpoint import Binomial, FixedInterval
from ..errors import TangentlikeError
from ..job import resolve_wrt

PROG = "tangentlike"
# reverse: the AD mode, which is grad; forward: a jvp module (tl.jvp); hvp: H v (tl.hvp)
MODES = ("grad", "vjp", "value_and_grad", "reverse", "forward", "hvp")


class CliError(TangentlikeError):
    """A bad command line: unknown file or function, bad --wrt or --inputs, unwritable output."""


def parameters(func: Callable) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError) as err:
        raise CliError(f"cannot read the parameters of {func!r}: {err}") from err


def parse_wrt(text: str | None, func: Callable, name: str) -> tuple[tuple[str, ...], bool]:
    """Parameter names from `--wrt a,b` (names or positions); the first parameter by default.

    Returns the names and whether one gradient (not a tuple) is asked for: what
    `job.resolve_wrt` (the API's reading of `wrt`) makes of the same items.
    """
    if text is None:
        return resolve_wrt(func, 0, name)
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise CliError(f"--wrt {text!r}: empty name; write names or positions like W,b or 0,1")
    wrt = [int(item) if re.fullmatch(r"-?\d+", item) else item for item in items]
    return resolve_wrt(func, wrt[0] if len(wrt) == 1 else wrt, name)


MAX_INPUT_ELEMENTS = 10_000_000  # 80 MB of float64 for one random input of `check`


def parse_inputs(text: str | None) -> dict[str, tuple[int, ...]]:
    """Shapes from `--inputs W=3x4,b=4,c=()`: `()` or `scalar` means a Python float."""
    shapes: dict[str, tuple[int, ...]] = {}
    if text is None:
        return shapes
    for item in text.split(","):
        name, equals, shape = (part.strip() for part in item.partition("="))
        if not equals or not name.isidentifier():
            raise CliError(f"--inputs: {item.strip()!r} is not NAME=SHAPE (e.g. W=3x4, b=4, c=())")
        if name in shapes:
            raise CliError(f"--inputs gives {name!r} twice")
        if shape in ("()", "scalar"):
            shapes[name] = ()
        elif re.fullmatch(r"\d+(\s*x\s*\d+)*", shape):
            shapes[name] = tuple(int(n) for n in shape.split("x"))
            elements = math.prod(shapes[name])
            if elements > MAX_INPUT_ELEMENTS:
                raise CliError(
                    f"--inputs: {name}={shape} has {elements:,} elements; check makes its "
                    f"inputs in memory and takes at most {MAX_INPUT_ELEMENTS:,} per parameter "
                    "(a smaller shape checks the same code)"
                )
        else:
            raise CliError(
                f"--inputs: bad shape {shape!r} for {name!r}; write sizes joined by x "
                "(3x4), one size (4), or () for a float"
            )
    return shapes


def parse_checkpoint(spec: str | None) -> Binomial | FixedInterval | None:
    """`snapshots=K` (binomial schedule) or `every=N` (fixed interval), as in tl.checkpointed."""
    if spec is None:
        return None
    key, _, value = spec.partition("=")
    try:
        number = int(value)
        if key.strip() == "snapshots":
            return Binomial(number)
        if key.strip() == "every":
            return FixedInterval(number)
    except ValueError:
        pass
    raise CliError(
        f"--checkpoint {spec!r}: expected snapshots=K (binomial schedule keeping K loop "
        "states) or every=N (a snapshot every N steps), with a positive integer"
    )
