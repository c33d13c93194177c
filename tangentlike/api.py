"""The public entry points: grad, value_and_grad, vjp, differentiable, adjoint, source.

A call builds (or finds in the cache) a generated module, then wraps its
entry function so that gradients come back in the structure, shape and float
dtype of their arguments.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import linecache
import logging
import os
import re
import threading
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import build as build_module
from . import specialize, structure
from .checkpoint import Schedule
from .compile.cache import DiskCache
from .errors import (
    CheckError,
    NonScalarOutputError,
    SourceLocation,
    SourceNotFoundError,
    UnknownClassError,
    WrtError,
)
from .job import CacheOption, Job, Mode, Wrt, resolve_wrt
from .live import Built, Live, show
from .parse.source import function_for_rule, peel_bound, unwrap
from .rules.registry import Registry, default_registry
from .runtime.schedule import Tape

log = logging.getLogger("tangentlike")


@dataclass(frozen=True)
class Stats:
    """What the last call of a gradient built with stats=True stored.

    pushes: values pushed on the stack; peak_stack_bytes: the most data the
    stack held at once; peak_snapshot_bytes: the same for checkpoint
    snapshots; peak_bytes: the most of both together; recomputed_steps: loop
    steps the backward sweep ran again (checkpointed loops); snapshots: the
    most loop states one checkpointed loop kept at once. Bytes count array
    data (8 per Python number).
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


@dataclass
class _Entry:
    wrapper: Callable
    live: Live | None  # None: a gradient built at each call (specialize.per_call)


_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# ufunc or builtin with a rule -> the Python function calling it that `grad` differentiates
_rule_functions: dict[object, types.FunctionType] = {}
_lock = threading.Lock()


def grad(
    f: Callable,
    wrt: Wrt = 0,
    *,
    preserve_result: bool = False,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
) -> Callable:
    """The gradient of scalar-valued `f` with respect to the parameter(s) `wrt`.

    `df(*args, **kwargs)` takes f's parameters. An int or str `wrt` gives one
    gradient, a tuple gives a tuple; with `preserve_result=True` the result
    is `(value, gradient)`. `checkpoint=tl.Binomial(snapshots=k)` (or
    `tl.FixedInterval(every=n)`) checkpoints every outermost `for` loop of f
    that has no marker of its own and no `break`/`return`; `stats=True` makes
    `df.stats` report what the last call stored (see `Stats`). `checks=True` (by
    default the environment variable TANGENTLIKE_CHECKS=1) builds the debug-mode
    gradient, which checks at run time that every push is popped by its own pop,
    the stack ends empty, and every adjoint has its value's shape and a real dtype.
    """
    mode = Mode.VALUE_AND_GRAD if preserve_result else Mode.GRAD
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats)
    return _gradient(f, wrt, mode, verbose, checks, **options)


def value_and_grad(
    f: Callable,
    wrt: Wrt = 0,
    *,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
) -> Callable:
    """Like `grad`, returning `(f(*args), gradient)`."""
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats)
    return _gradient(f, wrt, Mode.VALUE_AND_GRAD, verbose, checks, **options)


def vjp(
    f: Callable,
    wrt: Wrt = 0,
    *,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
) -> Callable:
    """The vector-Jacobian product of `f`: `df(*args, seed)` for outputs of any shape.

    The seed has the output's structure (tuple, list, dict; None for a zero part)
    and each part the output's shape: anything else is refused, never broadcast."""
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats)
    return _gradient(f, wrt, Mode.VJP, verbose, checks, **options)


def source(df: Callable) -> str:
    """The text of the module generated for `df`."""
    try:
        return df.source
    except AttributeError:
        raise TypeError(f"{df!r} was not made by tangentlike") from None


def adjoint(primal: Callable, *, registry: Registry | None = None) -> Callable:
    """Decorator registering a derivative template for `primal`:

    @tl.adjoint(my_cube)
    def dcube(result, x):
        d[x] = d[result] * 3.0 * x * x
    """
    return (registry or default_registry()).adjoint(primal, origin="user")


# ---------------------------------------------------------------------------


def _gradient(
    f: Callable, wrt: Wrt, mode: Mode, verbose: int, checks: bool | None, **options: Any
) -> Callable:
    """The gradient wrapper of `f` for the Job these make (found in the memory cache, or
    built). `options`: the Job's fields beyond wrt and mode (optimize, cache, checkpoint,
    stats, param_types); `checks` None: TANGENTLIKE_CHECKS decides."""
    checks = checks_from_environment() if checks is None else bool(checks)
    # to build a related function's gradient with the same options (specialize.py)
    again = functools.partial(_gradient, mode=mode, verbose=verbose, checks=checks, **options)
    if peel_bound(f) is not None:
        return specialize.bound(f, *resolve_wrt(f, wrt), again)
    func = unwrap(f)
    if not isinstance(func, types.FunctionType):
        func = _function_for(func)
    job = Job.of(func, wrt, mode, checks=checks, **options)
    key = job.memory_key()
    per_func = _cache.get(func)
    entry = per_func.get(key) if per_func is not None else None
    if entry is not None:
        if entry.live is not None and not entry.live.check():
            entry.live.current()  # refreshed or rebuilt in place: what it was built from changed
        if verbose:
            print(entry.wrapper.source)
        return entry.wrapper
    registry = default_registry()
    disk = _disk(job.cache)

    # a gradient made by tangentlike stands for the code it runs now (tl.grad(tl.vjp(f)))
    front = f if hasattr(f, "__tangentlike_live__") else None

    def build() -> Built:
        now = job if front is None else dataclasses.replace(job, func=unwrap(front))
        return build_module.build(now, registry, disk, front)

    try:
        live: Live | None = Live(build(), build)
    except UnknownClassError as err:
        if job.param_types:
            raise
        wrapper = specialize.per_call(func, wrt, job.wrt, mode.takes_seed, err, again)
        live = None
    else:
        built = live.built
        wrapper = _wrap(job, live.caller(), built.source)
        show(wrapper, built)
        wrapper.__tangentlike_live__ = live
        live.wrappers.append(wrapper)
    with _lock:
        _cache.setdefault(func, {})[key] = _Entry(wrapper, live)
    if verbose:
        print(wrapper.source)
    return wrapper


def _function_for(primal: Callable) -> types.FunctionType:
    """The Python function `grad` differentiates for a callable without Python source:
    one calling it, when a derivative rule knows it (`grad(np.exp)`); else an error."""
    rule = default_registry().lookup(primal)
    if rule is None:
        raise SourceNotFoundError(
            f"cannot differentiate {primal!r}: it is not a Python function with source "
            "code, and no derivative rule is registered for it",
            hint="What to do: differentiate a Python function that calls it, and register "
            "a rule for it with @tangentlike.adjoint(...) if it is called on "
            "differentiated values.",
        )
    with _lock:
        try:
            found = _rule_functions.get(primal)
        except TypeError:  # unhashable: make one each time
            return function_for_rule(primal, rule.params)
        if found is None:
            found = _rule_functions[primal] = function_for_rule(primal, rule.params)
    return found


def checks_from_environment() -> bool:
    """Whether TANGENTLIKE_CHECKS asks for debug-mode gradients (1, true, yes, on)."""
    return os.environ.get("TANGENTLIKE_CHECKS", "").strip().lower() in {"1", "true", "yes", "on"}


def _disk(cache: CacheOption) -> DiskCache | None:
    """The disk cache to use, or None. TANGENTLIKE_DISK_CACHE=0 turns it off everywhere."""
    if cache is False or os.environ.get("TANGENTLIKE_DISK_CACHE", "1").lower() in {"0", "off"}:
        return None
    return DiskCache(None if cache is True else cache)


def _wrap(job: Job, generated: Callable, text: str) -> Callable:
    """`generated` with f's signature, its arguments checked first (floats only), its
    run-time checks raising tangentlike errors. The generated code itself returns each
    gradient in its argument's structure, shape and float dtype."""
    func = job.func
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
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
    one_of_a_tuple = not job.single and len(wrt) == 1  # wrt=(0,): a tuple of one
    mode = job.mode

    def check(args: tuple, kwargs: dict) -> None:
        for i, n, dflt in zip(index, wrt, defaults, strict=True):
            value = args[i] if i < len(args) else kwargs.get(n, dflt)
            _check_differentiable(value, n, func)

    def run(args: tuple, kwargs: dict) -> Any:
        try:
            return generated(*args, **kwargs)
        except ValueError as err:
            _reraise_check(err, func)
            if mode.scalar_output:
                _reraise_nonscalar(err, func, args, kwargs)
            raise

    def finish(grads: Any) -> Any:
        return (grads,) if one_of_a_tuple else grads

    if mode is Mode.GRAD:

        def df(*args, **kwargs):
            check(args, kwargs)
            return finish(run(args, kwargs))

    elif mode is Mode.VALUE_AND_GRAD:

        def df(*args, **kwargs):
            check(args, kwargs)
            value, grads = run(args, kwargs)
            return value, finish(grads)

    else:

        def df(*args, **kwargs):
            if not args:
                raise TypeError("vjp: pass the seed (the output's cotangent) last")
            *primal, seed = args
            check(tuple(primal), kwargs)
            return finish(run(tuple(primal), {**kwargs, seed_name: seed}))

    functools.update_wrapper(df, func, assigned=("__module__", "__doc__"), updated=())
    df.__name__ = generated.__name__
    df.__qualname__ = generated.__qualname__
    df.__wrapped__ = generated
    df.source = text
    df.wrt = wrt
    df.stats = None
    return df


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


def _reraise_check(err: ValueError, func: Callable) -> None:
    """A failed run-time check of the generated code, as a CheckError. A check that names
    a line of f's own file (`m.py:7: ...`) gets that line as its location."""
    message = str(err)
    if not message.startswith(_CHECK):
        return
    what, _, hint = message[len(_CHECK) :].partition("\n")
    raise CheckError(*_located(what, func), hint=hint) from None


def _located(what: str, func: Callable) -> tuple[str, SourceLocation | None]:
    """(message, location) for a check message that may begin with `file.py:LINE: `."""
    where = _WHERE.match(what)
    try:
        path = inspect.getsourcefile(inspect.unwrap(func))
    except TypeError:
        path = None
    if where is None or path is None or Path(path).name != where["file"]:
        return what, None
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
        shape = f"an output of shape {np.shape(func(*args, **kwargs))}"
    except Exception:  # the shape is a courtesy; the error stands without it
        shape = "a non-scalar output"
    raise NonScalarOutputError(
        f"grad needs a scalar output, but {func.__qualname__} returned {shape} "
        f"(the return statement at {where})",
        hint="What to do: use tangentlike.vjp(f)(*args, seed) for non-scalar outputs, "
        "or reduce the output to a scalar (e.g. np.sum).",
    ) from None


def _check_differentiable(value: Any, name: str, func: Callable) -> None:
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


# ---------------------------------------------------------------------------


class differentiable:
    """Decorator: the function stays callable as is and gains .grad, .value_and_grad, .vjp.

    @tl.differentiable                  # wrt the first parameter
    @tl.differentiable(wrt=("W", "b"))  # wrt several: .grad returns a tuple
    """

    def __new__(cls, func: Callable | None = None, *, wrt: Wrt = 0):
        if func is None:
            return lambda f: cls(f, wrt=wrt)
        return super().__new__(cls)

    def __init__(self, func: Callable | None = None, *, wrt: Wrt = 0) -> None:
        functools.update_wrapper(self, func)
        self.__tangentlike_primal__ = func
        self._wrt = wrt

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        # a method: model.loss(x) calls it, model.loss.grad(x) differentiates it
        bound = differentiable(types.MethodType(self.__wrapped__, obj), wrt=self._wrt)
        bound.__tangentlike_primal__ = types.MethodType(self.__wrapped__, obj)
        return bound

    def grad(self, *args, **kwargs):
        return grad(self.__wrapped__, self._wrt)(*args, **kwargs)

    def value_and_grad(self, *args, **kwargs):
        return value_and_grad(self.__wrapped__, self._wrt)(*args, **kwargs)

    def vjp(self, *args, **kwargs):
        return vjp(self.__wrapped__, self._wrt)(*args, **kwargs)
