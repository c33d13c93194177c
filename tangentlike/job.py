"""What one gradient is asked for: the function, the parameters, the mode and the options.

A `Job` is made once per request (`Job.of`, by `tl.grad`, `tl.value_and_grad`, `tl.vjp`
and the command line) and is read-only from then on. It is the one place options live:
it gives the key of the in-memory cache (`memory_key`), the option part of the disk
cache's key (`disk_options`) and the header of the generated module (`header`), and it
is handed to the builder (build.py, pipeline.ModuleBuilder) whole, never as a list of
flags. `resolve_wrt` is the one reading of `wrt` (positions and names), shared by the
API and the command line, so both accept and refuse the same requests with the same
messages.

Room to grow: a new option (a jit flag, a forward mode's vector width, a nesting level)
is one more field with a default. `memory_key` and `disk_options` include every field
but `func` and `cache`, and `header` names every field that differs from its default,
so a new option can never be left out of a key; a new differentiation mode is one more
`Mode` member with its properties.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .checkpoint import Binomial, FixedInterval, Schedule
from .errors import WrtError

Wrt = int | str | Sequence[int | str]
# True: the disk cache in its default directory; False: memory only; a path: that directory.
CacheOption = bool | str | os.PathLike


class Mode(enum.Enum):
    """What the generated function returns."""

    GRAD = "grad"  # the gradient of a scalar output
    VALUE_AND_GRAD = "value_and_grad"  # (value, gradient) of a scalar output
    VJP = "vjp"  # takes a seed shaped like the output (any shape), returns its pullback
    JVP = "jvp"  # forward mode: takes tangents of the wrt arguments, returns (value, J t)
    VECTOR_JVP = "vector jvp (k directions)"  # the same with k tangents on a leading axis

    @property
    def forward(self) -> bool:
        """Forward mode (pipeline_forward.ForwardBuilder), not a reverse sweep."""
        return self in (Mode.JVP, Mode.VECTOR_JVP)

    @property
    def returns_value(self) -> bool:
        """The generated function returns the function's value beside the derivative."""
        return self in (Mode.VALUE_AND_GRAD, Mode.JVP, Mode.VECTOR_JVP)

    @property
    def scalar_output(self) -> bool:
        """The function must return a scalar: the seed is 1.0, checked at run time."""
        return self in (Mode.GRAD, Mode.VALUE_AND_GRAD)

    @property
    def takes_seed(self) -> bool:
        """The caller passes the seed, last."""
        return self is Mode.VJP


@dataclass(frozen=True)
class Job:
    """One gradient request, with `wrt` resolved to parameter names.

    func: the plain Python function differentiated (wrappers peeled, see api.py);
    single: `wrt` was one int or str, so one gradient comes back, not a tuple;
    checks: debug mode (the environment already consulted);
    param_types: (parameter, class or function) pairs the build is specialised for;
    scalars: the parameters passed a Python float or int at the call this build is
        specialised for (their shape is (): no unbroadcast, no saved shape where they
        meet other scalars); the wrapper dispatches on it (wrapper.signature);
    arrays: (parameter, pattern) for the parameters passed an ndarray at that call, the
        pattern saying which of its dimensions are 1 ("N1": two dimensions, the second
        1; analyze/shapes.py), so that shapes are known to agree;
    doubles: the parameters of `arrays` passed float64 arrays at that call (their items
        are NumPy float64 numbers, which `math` takes as floats: optimize/numbers.py);
    jit: the gradient runs the build compiled by numba in nopython mode (jit/); "auto"
        falls back to the Python build with one warning where numba cannot compile it;
    plain_loops: the loops `tl.checkpointed(...)` marks (and `checkpoint`'s) run as the
        plain loops they are in Python, recorded step by step: the same gradient, whose
        stack the differentiable form of higher/forms.py covers (a second derivative of a
        gradient with checkpointed loops differentiates this one, higher/form_schedules.py);
    cache: where the disk cache lives (True: the default directory, False: none).
    """

    func: Callable
    wrt: tuple[str, ...]
    single: bool
    mode: Mode = Mode.GRAD
    optimize: bool = True
    checkpoint: Schedule | None = None  # a schedule for every outermost for loop of func
    stats: bool = False  # measure the stack on every call (df.stats)
    checks: bool = False
    param_types: tuple[tuple[str, object], ...] = ()
    scalars: tuple[str, ...] = ()
    jit: bool | str = False  # True: compiled by numba (jit/); "auto": that, else Python
    arrays: tuple[tuple[str, str], ...] = ()
    doubles: tuple[str, ...] = ()
    plain_loops: bool = False  # checkpointed loops as plain loops (no schedule)
    cache: CacheOption = True

    def __post_init__(self) -> None:
        if self.checkpoint is not None and not isinstance(
            self.checkpoint, (Binomial, FixedInterval)
        ):
            raise TypeError(
                f"checkpoint= takes tl.Binomial(snapshots=k) or tl.FixedInterval(every=n), "
                f"not {self.checkpoint!r}"
            )
        if not (self.jit is True or self.jit is False or self.jit == "auto"):
            raise TypeError(f'jit= takes True, False or "auto", not {self.jit!r}')
        if self.jit and (self.stats or self.checks):
            raise ValueError(
                "jit= compiles the plain adjoint: stats=True and checks=True measure and "
                "check the Python adjoint; drop jit to use them"
            )

    @classmethod
    def of(cls, func: Callable, wrt: Wrt = 0, mode: Mode = Mode.GRAD, **options) -> Job:
        """The job for `func` with `wrt` resolved (see `resolve_wrt`)."""
        names, single = resolve_wrt(func, wrt)
        return cls(func, names, single, mode, **options)

    def _options(self) -> list[tuple[str, object]]:
        """(field, value) of every option: what keys and headers are made of."""
        return [
            (f.name, getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in ("func", "cache")
        ]

    def memory_key(self) -> tuple:
        """The key of this job's gradient among the gradients of `func` held in memory."""
        return tuple(value for _, value in self._options())

    def disk_options(self) -> tuple[str, ...]:
        """The options as text, for the disk cache's key (equal across processes)."""
        known = (
            self.mode.value,
            ",".join(self.wrt),
            str(self.single),
            str(self.optimize),
            repr(self.checkpoint),
            str(self.stats),
            f"checks={self.checks}",
            *(["plain_loops=True"] if self.plain_loops else []),
        )
        # param_types are roots of the build's manifest (build.py), described there
        return known + tuple(f"{name}={value!r}" for name, value in self._extra())

    def header(self, source: str, entry: str) -> list[str]:
        """The comment lines opening the generated module (without the `# `)."""
        settings = [
            self.checkpoint,
            "stats=True" if self.stats else None,
            "checks=True" if self.checks else None,
            "checkpointed loops run as plain loops" if self.plain_loops else None,
            *(f"{name}={value!r}" for name, value in self._extra()),
        ]
        # what the build found about the function differentiated (higher/form_schedules.py)
        note = getattr(self.func, NOTE, None)
        return [
            f"Generated by tangentlike {_version()}: {self.mode.value} of "
            f"{self.func.__qualname__} with respect to {', '.join(self.wrt)}"
            f"{''.join(f', {what}' for what in settings if what)}.",
            f"Source: {source}",
            *([note] if isinstance(note, str) else []),
            f"{ENTRY}{entry}",
        ]

    def _extra(self) -> list[tuple[str, object]]:
        """Options added after the first ones that differ from their defaults."""
        first = {"wrt", "single", "mode", "optimize", "checkpoint", "stats", "checks"}
        first |= {"plain_loops"}  # named in the header in words
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        return [
            (name, value)
            for name, value in self._options()
            if name not in first and name != "param_types" and value != defaults[name]
        ]


ENTRY = "Entry point: "  # the header line naming the generated entry function
NOTE = "__tangentlike_note__"  # a line of text a function differentiated adds to the header


def _version() -> str:
    from . import __version__

    return __version__


def resolve_wrt(func: Callable, wrt: Wrt, name: str | None = None) -> tuple[tuple[str, ...], bool]:
    """The parameter names `wrt` asks for, and whether it asked for one gradient.

    `wrt` is a position or a name (one gradient), or a tuple or list of them (a tuple
    of gradients, also for one item). Positions count the positional parameters,
    negative ones from the end. The name of a `*args` parameter asks for the gradient
    of the tuple it collects (a tuple of gradients); a position in it is refused (its
    length is known only at a call). `name` is how errors name the function (default: its
    qualified name; the command line passes FILE:FUNC). Raises WrtError for an empty
    `wrt`, an item that is neither an int nor a str, a position out of range, a name
    that is not a positional parameter, and a parameter asked for twice (`("x", 0)`
    for `def f(x)`: one parameter has one gradient).
    """
    name = name or getattr(func, "__qualname__", repr(func))
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as err:
        raise WrtError(f"cannot read the parameters of {name}: {err}") from None
    params = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    packed = [p.name for p in signature.parameters.values() if p.kind is p.VAR_POSITIONAL]
    listing = ", ".join([*params, *(f"*{p}" for p in packed)])
    if not params and not packed:
        raise WrtError(f"{name} has no positional parameter to differentiate with respect to")
    single = isinstance(wrt, (int, str)) and not isinstance(wrt, bool)
    if not single and not isinstance(wrt, (tuple, list)):
        raise WrtError(f"wrt must hold parameter positions or names, not {wrt!r}")
    items = (wrt,) if single else tuple(wrt)
    if not items:
        raise WrtError(f"wrt is empty: name at least one parameter of {name} ({listing})")
    names = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise WrtError(f"wrt must hold parameter positions or names, not {item!r}")
        if isinstance(item, int):
            if packed and item >= len(params):
                raise WrtError(
                    f"wrt: position {item} falls in {name}'s *{packed[0]}, whose length is "
                    f"known only at a call",
                    hint=f"What to do: differentiate with respect to {packed[0]!r} (by "
                    "name): the gradient is a tuple, one item per argument it collects.",
                )
            if not -len(params) <= item < len(params):
                raise WrtError(
                    f"wrt: position {item} is out of range: {name} has {len(params)} "
                    f"parameters ({listing})"
                )
            names.append(params[item])
        elif item in params or item in packed:  # *args: a tuple of gradients
            names.append(item)
        else:
            raise WrtError(
                f"wrt: {item!r} is not a parameter of {name}; its parameters are {listing}"
            )
    repeated = sorted({n for n in names if names.count(n) > 1}, key=names.index)
    if repeated:
        raise WrtError(
            f"wrt names {', '.join(repeated)} more than once ({', '.join(map(repr, items))}): "
            f"a parameter of {name} has one gradient",
            hint="What to do: name each parameter once (by name or by position).",
        )
    return tuple(names), single
