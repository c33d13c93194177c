"""The boundary between the caller and a generated function.

`wrap` gives the generated entry function the differentiated function's signature:
it checks the arguments differentiated are real floating-point values (or containers
of them), passes a vjp's seed by name, turns the generated code's run-time checks into
located tangentlike errors (CheckError, NonScalarOutputError), and, with stats=True,
runs it on a measuring stack and stores what it held as `df.stats` (`Stats`). The
generated code itself returns each gradient in its argument's structure, shape and
float dtype.
"""

from __future__ import annotations

import copy
import functools
import inspect
import linecache
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import structure
from .errors import CheckError, NonScalarOutputError, SourceLocation, WrtError
from .job import Job, Mode
from .parse import origins
from .runtime.schedule import Tape


@dataclass(frozen=True)
class Stats:
    """What the last call of a gradient built with stats=True stored.

    pushes: values pushed on the stack; peak_stack_bytes: the most data the
    stack held at once; peak_snapshot_bytes: the same for checkpoint
    snapshots; peak_bytes: the most of both together; recomputed_steps: loop
    steps the backward sweep ran again (checkpointed loops); snapshots: the
    most loop states one checkpointed loop kept at once. Bytes count array
    data (8 per Python number), each array once however often the stack holds it.
    """

    pushes: int
    peak_stack_bytes: int
    peak_snapshot_bytes: int
    peak_bytes: int
    recomputed_steps: int
    snapshots: int

    @classmethod
    def of(cls, tape: Tape) -> Stats:
        return cls(
            pushes=tape.pushes,
            peak_stack_bytes=tape.peak_stack_bytes,
            peak_snapshot_bytes=tape.peak_snapshot_bytes,
            peak_bytes=tape.peak_bytes,
            recomputed_steps=sum(p.advances for p in tape.plans),
            snapshots=max((p.peak_saved for p in tape.plans), default=0),
        )


def wrap(
    job: Job,
    generated: Callable,
    text: str,
    specialised: Callable[[tuple[str, ...]], Callable] | None = None,
) -> Callable:
    """`generated` with f's signature, its arguments checked first (floats only), its
    run-time checks raising tangentlike errors. The generated code itself returns each
    gradient in its argument's structure, shape and float dtype.

    `specialised(known)`: the generated function of the same job built for calls whose
    arguments have the signature `known` (`signature`: which parameters are passed
    Python numbers, job.Job.scalars, and which arrays of which dimension pattern,
    job.Job.arrays); each call runs the one of its arguments' signature (looked up by
    their types and shapes), so a build specialised to one signature never sees
    another."""
    func = job.func
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    names = tuple(p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    positions = {p.name: i for i, p in enumerate(params)}
    seed_name = [  # the last parameter before **kwargs (and the measuring stack)
        p.name
        for p in inspect.signature(generated).parameters.values()
        if p.kind is not p.VAR_KEYWORD
    ][-2 if job.stats else -1]
    if job.stats:
        generated = _measured(generated, lambda stats: setattr(df, "stats", stats))
    wrt = job.wrt
    index = [positions[n] for n in wrt]
    defaults = [params[i].default for i in index]
    mode = job.mode

    def check(args: tuple, kwargs: dict) -> None:
        for i, n, dflt in zip(index, wrt, defaults, strict=True):
            value = args[i] if i < len(args) else kwargs.get(n, dflt)
            _check_differentiable(value, n, func)

    builds: dict[tuple, Callable] = {}  # the types and shapes of a call's arguments ->
    count = len(names)

    def chosen(args: tuple) -> Callable:
        if specialised is None:
            return generated
        key = tuple(
            [(v.dtype, v.shape) if type(v) is np.ndarray else type(v) for v in args[:count]]
        )
        found = builds.get(key)
        if found is None:
            if len(builds) >= _MAX_SIGNATURES:  # calls of ever new shapes: start again
                builds.clear()
            known = signature(names, args)
            doubles = float64_arrays(names, args)
            found = builds[key] = specialised(known, doubles) if known else generated
        return found

    def run(args: tuple, kwargs: dict) -> Any:
        try:
            found = chosen(args)
            try:
                return found(*args, **kwargs)
            except (ArithmeticError, ValueError) as err:
                if found is generated or not _number_error(err):
                    raise
            return generated(*args, **kwargs)  # computes inf or nan where NumPy does
        except ValueError as err:
            given = {k: v for k, v in kwargs.items() if k != seed_name}
            reraise_primal_error(func, args, given, err)
            _reraise_check(err, func)
            if mode.scalar_output:
                _reraise_nonscalar(err, func, args, kwargs)
                reraise_container_output(func, args, given)
            raise
        except TypeError:
            if mode.scalar_output:
                reraise_container_output(func, args, kwargs)
            raise

    if mode in (Mode.GRAD, Mode.VALUE_AND_GRAD):

        def df(*args, **kwargs):
            check(args, kwargs)
            return run(args, kwargs)

    else:

        def df(*args, **kwargs):
            if not args:
                raise TypeError("vjp: pass the seed (the output's cotangent) last")
            *primal, seed = args
            check(tuple(primal), kwargs)
            return run(tuple(primal), {**kwargs, seed_name: seed})

    functools.update_wrapper(df, func, assigned=("__module__", "__doc__"), updated=())
    df.__name__ = generated.__name__
    df.__qualname__ = generated.__qualname__
    df.__wrapped__ = generated
    df.source = text
    df.specialised = getattr(specialised, "sources", {})  # scalars -> source, as built
    df.wrt = wrt
    df.stats = None
    return df


_MAX_SIGNATURES = 64
_MATH_ERRORS = re.compile(r"math domain error|math range error|expected a (nonnegative|positive)")


def _number_error(err: BaseException) -> bool:
    """Whether a specialised build failed where float arithmetic and `math` raise and
    NumPy returns inf or nan (optimize/numbers.py): division by zero, overflow, a
    math function outside its domain."""
    if isinstance(err, (ZeroDivisionError, OverflowError)):
        return True
    return type(err) is ValueError and _MATH_ERRORS.search(str(err)) is not None


Signature = tuple[tuple[str, "str | None"], ...]


def signature(names: tuple[str, ...], args: tuple) -> Signature:
    """(parameter, pattern) for the positional parameters (of `names`) that `args` passes
    a Python float or int (pattern None) or an ndarray (the pattern of its dimensions:
    "1" where one is 1, "0" where empty, "N" where longer, analyze/shapes.py).
    Arguments passed by name or left to their defaults, and other values (NumPy
    scalars, containers) are unknown."""
    known = []
    for n, v in zip(names, args, strict=False):  # args past the parameters: a seed, *args
        if type(v) is float or type(v) is int:
            known.append((n, None))
        elif type(v) is np.ndarray and v.dtype.kind in "biufc":  # not arrays of objects
            known.append((n, "".join(_DIMENSION.get(d, "N") for d in v.shape)))
    return tuple(known)


_DIMENSION = {1: "1", 0: "0"}  # a dimension's pattern; "N" for 2 elements or more


def float64_arrays(names: tuple[str, ...], args: tuple) -> tuple[str, ...]:
    """The positional parameters (of `names`) that `args` passes a float64 ndarray
    (job.Job.doubles): a build for them may take their items for floats."""
    given = zip(names, args, strict=False)
    return tuple(n for n, v in given if type(v) is np.ndarray and v.dtype == np.float64)


def signature_label(known: Signature, doubles: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """How `df.specialised` names a signature: `x` for a number, `x[N1]` for an array
    (of float64, or of any dtype when `doubles` is None), `x[N1,other]` for an array of
    another dtype than float64."""
    return tuple(
        n if p is None else f"{n}[{p}]" if doubles is None or n in doubles else f"{n}[{p},other]"
        for n, p in known
    )


def scalar_signature(names: tuple[str, ...], args: tuple) -> tuple[str, ...]:
    """The positional parameters (of `names`) that `args` passes a Python float or int
    (not a bool, not a NumPy value): the build specialised to them is sound for exactly
    these calls. Arguments passed by name or left to their defaults count as unknown."""
    given = zip(names, args, strict=False)  # args past the parameters: a seed, *args
    return tuple(n for n, v in given if type(v) is float or type(v) is int)


def _measured(generated: Callable, report: Callable[[Stats], None]) -> Callable:
    """Call `generated` with a measuring stack and report what it held."""
    # the measuring stack is the last keyword-only parameter (f's own come before it)
    stack = [
        p.name for p in inspect.signature(generated).parameters.values() if p.kind == p.KEYWORD_ONLY
    ][-1]

    def call(*args, **kwargs):
        tape = Tape()
        try:
            return generated(*args, **kwargs, **{stack: tape})
        finally:
            report(Stats.of(tape))

    return call


_NONSCALAR = "grad needs a scalar output"
_CHECK = "tangentlike: "  # how the checks of boundary.py (and runtime helpers) begin


_WHERE = re.compile(r"(?P<file>[^\s:]+\.py):(?P<line>\d+): ")


def reraise_primal_error(
    func: Callable, args: tuple, kwargs: dict, cause: BaseException | None = None
) -> None:
    """Raise what `func` itself raises on these arguments, if it raises: a derivative
    that failed on shapes (`cause`: a check of a gradient's shape, a broadcast in the
    backward sweep) on arguments the function cannot take either reports the
    function's own error, at its own line, chained to `cause` (a build specialised to a
    call's signature knows which dimensions are 1, not their sizes, and may skip a
    forward operation whose error that was). Run on copies of the arguments, only
    after such a failure; nothing for other failures, arguments that do not copy, a
    function that runs, or a derivative differentiated again."""
    if not _about_shapes(cause):
        return  # the derivative's own refusal or check says what failed
    code = getattr(func, "__code__", None)
    if code is None or code.co_filename.startswith("<tangentlike"):
        return  # a derivative differentiated again: its own checks say what failed
    try:
        args, kwargs = copy.deepcopy((args, kwargs))
    except Exception:  # objects that do not copy: no second run
        return
    try:
        func(*args, **kwargs)
    except Exception as err:  # whatever the function raises is its answer
        err.add_note(
            f"(tangentlike: {getattr(func, '__qualname__', func)} raises this on these "
            "arguments, so its derivative cannot be computed there)"
        )
        raise err from cause


_SHAPE_ERRORS = re.compile(
    r"could not be broadcast|not aligned|mismatch in its core dimension"
    r"|has shape .*, but the argument has shape"
)


def _about_shapes(err: BaseException | None) -> bool:
    """Whether a derivative's error is one of arrays whose shapes do not fit (NumPy's
    broadcast or matmul error, the final check of a gradient's shape)."""
    return err is not None and _SHAPE_ERRORS.search(str(err)) is not None


def _reraise_check(err: ValueError, func: Callable) -> None:
    """A failed run-time check of the generated code, as a CheckError. A check that names
    a line of f's own file (`m.py:7: ...`) gets that line as its location."""
    message = str(err)
    if not message.startswith(_CHECK):
        return
    what, _, hint = message[len(_CHECK) :].partition("\n")
    if _WHERE.match(what) is None:  # a rule's helper refused: the statement it ran for
        origin = _generated_origin(err.__traceback__)
        what = f"{origin}: {what}" if origin else what
    raise CheckError(*_located(what, func), hint=hint) from None


@functools.cache
def _boundary_names() -> frozenset[str]:
    """The names of the boundary checks' functions (runtime/boundary.py), nested ones too."""
    from .runtime import boundary

    names, todo = set(), [f.__code__ for f in vars(boundary).values() if inspect.isfunction(f)]
    while todo:
        code = todo.pop()
        names.add(code.co_name)
        todo.extend(c for c in code.co_consts if inspect.iscode(c))
    return frozenset(names)


def _generated_origin(tb) -> str | None:
    """`file.py:LINE` of the user's statement whose generated code raised: the innermost
    frame of generated code (a `<tangentlike ...>` module) that parse/origins traces to
    the user's source (its line's, or the nearest above's, `# file.py:LINE` comment),
    passing over tangentlike's own files (a runtime helper differentiated through its
    source). None when no such frame is found (e.g. a written module)."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_frame.f_code.co_name))
        tb = tb.tb_next
    if frames and frames[-1][2] in _boundary_names():
        return None  # a seed or gradient check: about the whole function, it says so
    for filename, lineno, _ in reversed(frames):
        if not origins.is_generated(filename):
            continue
        found = origins.origin(filename, lineno)
        if found is not None and not _in_package(found[0]):
            return f"{os.path.basename(found[0])}:{found[1]}"
    return None


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _in_package(path: str) -> bool:
    """Whether `path` is a file of tangentlike itself: a runtime helper read through its
    source (e.g. cumprod_vjp, differentiated for second order), whose line the user
    never wrote; the user's statement that called it is further out."""
    return os.path.abspath(path).startswith(_PACKAGE + os.sep)


def _located(what: str, func: Callable) -> tuple[str, SourceLocation | None]:
    """(message, location) for a check message that may begin with `file.py:LINE: `."""
    where = _WHERE.match(what)
    if where is None:
        return what, None
    try:
        path = inspect.getsourcefile(inspect.unwrap(func))
    except TypeError:
        path = None
    if path is None or Path(path).name != where["file"]:
        # a derivative of a derivative (tl.hvp): func is generated code; the line is in
        # the user's file that was read for it, if exactly one file read has that name
        read = {p for p in linecache.cache if Path(p).name == where["file"]}
        if len(read) != 1:
            return what, None
        path = read.pop()
    line = int(where["line"])
    text = linecache.getline(path, line)
    col = len(text) - len(text.lstrip())
    return what[where.end() :], SourceLocation(path, line, col, text)


def _reraise_nonscalar(err: ValueError, func: Callable, args: tuple, kwargs: dict) -> None:
    """Turn the generated code's scalar check into a NonScalarOutputError with the shape."""
    message = str(err)
    if _NONSCALAR not in message:
        return
    where = message.partition(": ")[0]
    try:
        out = func(*args, **kwargs)
    except Exception:  # the shape is a courtesy; the error stands without it
        shape = "a non-scalar output"
    else:  # np.shape of a dict is (): name a container by its kind
        kind = type(out).__name__
        container = f"a {kind} (an output of several values)"
        shape = (
            container
            if isinstance(out, (tuple, list, dict))
            else f"an output of shape {np.shape(out)}"
        )
    raise NonScalarOutputError(
        f"grad needs a scalar output, but {func.__qualname__} returned {shape} "
        f"(the return statement at {where})",
        hint="What to do: use tangentlike.vjp(f)(*args, seed) for non-scalar outputs, "
        "or reduce the output to a scalar (e.g. np.sum).",
    ) from None


def reraise_container_output(
    func: Callable, args: tuple, kwargs: dict, err: Exception | None = None
) -> None:
    """After a failure of a derivative that needs a scalar output (grad, hvp, hessian):
    a NonScalarOutputError if `func` returns a tuple, list or dict on these arguments
    (run on copies). The generated check, `np.ndim(out)`, passes a dict (0) and fails
    on a ragged tuple with NumPy's own error; nothing here when `func` returns anything
    else or raises. Given the failure `err`, the generated check's own ValueError for an
    array output (a derivative of the gradient raises it as is) becomes one too."""
    try:
        at, named = structure.call_arguments(args, kwargs, last=False)
        out = func(*at, **named)
    except Exception:  # the original failure stands
        return
    if isinstance(out, (tuple, list, dict)):
        raise NonScalarOutputError(
            f"grad needs a scalar output, but {getattr(func, '__qualname__', func)} returned "
            f"a {type(out).__name__} of {len(out)} items",
            hint="What to do: use tangentlike.vjp(f)(*args, seed) with a seed of the "
            "output's structure, or return one scalar (e.g. the sum of the parts).",
        ) from None
    if err is not None and np.ndim(out) > 0 and _NONSCALAR in str(err):
        raise NonScalarOutputError(
            f"grad needs a scalar output, but {getattr(func, '__qualname__', func)} returned "
            f"an output of shape {np.shape(out)} (the return statement at "
            f"{str(err).partition(': ')[0]})",
            hint="What to do: use tangentlike.vjp(f)(*args, seed) for non-scalar outputs, "
            "or reduce the output to a scalar (e.g. np.sum).",
        ) from None


def _check_differentiable(value: Any, name: str, func: Callable) -> None:
    if type(value) is float or (type(value) is np.ndarray and value.dtype.kind == "f"):
        return  # the common cases first: a float, a float array
    if isinstance(value, structure.CONTAINERS):
        for path, leaf in structure.leaves(value):
            if not isinstance(leaf, (float, complex, int, np.ndarray, np.generic)):
                raise WrtError(
                    f"cannot differentiate {func.__qualname__} with respect to "
                    f"{name + path!r}: it is a {type(leaf).__name__}, not a number or array",
                    hint="Keep configuration values out of the differentiated argument "
                    "(pass them as another argument).",
                )
            _check_differentiable(leaf, name + path, func)
        return
    dtype = getattr(value, "dtype", None)
    if isinstance(value, complex) or (dtype is not None and dtype.kind == "c"):
        raise WrtError(
            f"cannot differentiate {func.__qualname__} with respect to {name!r}: it is "
            f"complex ({'complex' if dtype is None else dtype}), and tangentlike "
            "differentiates real floating-point values only (no complex convention)",
            hint="Pass real values: for instance the real and imaginary parts as two float "
            "arguments, or leave it out of wrt.",
        )
    if isinstance(value, (bool, int, np.integer, np.bool_)) or (
        dtype is not None and not np.issubdtype(dtype, np.inexact)
    ):
        raise WrtError(
            f"cannot differentiate {func.__qualname__} with respect to {name!r}: "
            f"it is {'an integer or boolean' if dtype is None else f'an array of {dtype}'}, "
            "and only floating-point values are differentiable",
            hint="Pass a float (e.g. 3.0) or a float array (x.astype(float)), "
            "or leave it out of wrt.",
        )
