"""Finding or building the gradient a Job asks for.

`gradient` makes the Job (wrt resolved once, job.py), looks it up in the in-memory
cache (per function, weakly, by `Job.memory_key`), and otherwise builds it (build.py:
from the disk cache when an entry holds, else through the pipeline), keeps it current
(live.py) and wraps it (wrapper.py). Bound methods, partials and callable objects, and
functions whose build needs the classes of their arguments, go through specialize.py,
which comes back here with the same options.

Guarantees: one gradient object per (function, Job) while the function lives; a cached
gradient whose guards fail is refreshed or rebuilt before it is returned.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import types
import warnings
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import build as build_module
from . import packed, specialize
from .compile.cache import DiskCache
from .errors import JitError, JitWarning, SourceNotFoundError, UnknownClassError
from .jit import compiled
from .job import CacheOption, Job, Mode, Wrt, resolve_wrt
from .live import Built, Live, refreshed, show
from .parse.source import function_for_rule, peel_bound, unwrap
from .rules.registry import default_registry
from .wrapper import Signature, signature_label, wrap


@dataclass
class _Entry:
    wrapper: Callable
    live: Live | None  # None: a gradient built at each call (specialize.per_call)


_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# ufunc or builtin with a rule -> the Python function calling it that `grad` differentiates
_rule_functions: dict[object, types.FunctionType] = {}
_lock = threading.Lock()


def gradient(
    f: Callable, wrt: Wrt, mode: Mode, verbose: int, checks: bool | None, **options: Any
) -> Callable:
    """The gradient wrapper of `f` for the Job these make (found in the memory cache, or
    built). `options`: the Job's fields beyond wrt and mode (optimize, cache, checkpoint,
    stats, param_types); `checks` None: TANGENTLIKE_CHECKS decides."""
    asked = _asked_key(f, wrt, mode, checks, options)
    if asked is not None:  # the warmest path: this function object, asked this way before
        try:
            entry = _cache.get(f, _NOTHING).get(asked)
        except TypeError:  # an unhashable option value: the Job says what is wrong with it
            entry = asked = None
        if entry is not None:
            return _current(entry, verbose)
    packed.refuse_again(f)
    if checks is None:  # a compiled gradient is built from the plain adjoint (job.Job.jit)
        checks = False if options.get("jit") else checks_from_environment()
    checks = bool(checks)
    if hasattr(f, "__tangentlike_bound__"):  # the derivative of a bound method, partial...
        return specialize.of_bound_derivative(f, wrt, _again(mode, verbose, checks, options))
    if peel_bound(f) is not None:
        return specialize.bound(f, *resolve_wrt(f, wrt), _again(mode, verbose, checks, options))
    func = unwrap(f)
    if not isinstance(func, types.FunctionType):
        func = _function_for(func)
    inside = packed.request(func, wrt)
    if inside is not None:  # positions inside *args: the whole tuple's gradient, picked
        whole = gradient(f, inside.wrt, mode, verbose, checks, **options)
        return packed.picking(whole, inside, mode)
    # the warm path: the request as given, without reading the signature to resolve wrt
    request = _request_key(wrt, mode, checks, options)
    per_func = _cache.get(func, {})
    entry = per_func.get(request) if request is not None else None
    if entry is not None:
        _remember(f, asked, entry)
        return _current(entry, verbose)
    job = Job.of(func, wrt, mode, checks=checks, **options)
    entry = per_func.get(job.memory_key())
    if entry is not None:  # the same Job asked for another way (wrt=1, then wrt="W")
        if request is not None:
            with _lock:
                per_func[request] = entry
        _remember(f, asked, entry)
        return _current(entry, verbose)
    registry = default_registry()
    disk = disk_cache(job.cache)

    # a gradient made by tangentlike stands for the code it runs now (tl.grad(tl.vjp(f)))
    front = f if hasattr(f, "__tangentlike_live__") else None

    def build_job(asked: Job) -> Built:
        now = asked if front is None else dataclasses.replace(asked, func=unwrap(refreshed(front)))
        return build_module.build(now, registry, disk, front)

    build = functools.partial(build_job, job)
    try:
        live: Live | None = Live(build(), build)
    except UnknownClassError as err:
        if job.param_types:
            raise
        again = _again(mode, verbose, checks, options)
        wrapper = specialize.per_call(func, wrt, job.wrt, mode.takes_seed, err, again)
        live = None
    else:
        built = live.built
        wrapper = _wrapped(job, live, build_job, disk)
        show(wrapper, built)
        wrapper.__tangentlike_live__ = live
        live.wrappers.append(wrapper)
    entry = _Entry(wrapper, live)
    with _lock:
        per_func = _cache.setdefault(func, {})
        per_func[job.memory_key()] = entry
        if request is not None:
            per_func[request] = entry
    _remember(f, asked, entry)
    if verbose:
        print(wrapper.source)
    return wrapper


def _wrapped(
    job: Job, live: Live, build_job: Callable[[Job], Built], disk: DiskCache | None
) -> Callable:
    """The user's gradient around `live`: the Python build (specialised per call), or
    with `job.jit` the compiled one (jit/compiled.py), whose lowering is checked here so
    that `grad` itself refuses what cannot be compiled (jit="auto": a warning, and the
    Python gradient)."""
    built = live.built
    if job.jit:
        try:
            compiled.check_lowering(built, job)
        except JitError as err:
            if job.jit != "auto":
                raise
            warnings.warn(
                f"jit='auto': running the Python adjoint of {job.func.__qualname__}: {err}",
                JitWarning,
                stacklevel=4,
            )
        else:
            runner = compiled.JitGradient(job, live, build_job, disk)
            wrapper = wrap(job, runner.generic(), built.source, runner.specialised())
            wrapper.jit_sources = runner.sources
            return wrapper
    python_job = dataclasses.replace(job, jit=False) if job.jit else job
    return wrap(python_job, live.caller(), built.source, _specialiser(job, build_job))


def _specialiser(job: Job, build_job: Callable[[Job], Built]) -> Callable | None:
    """For the wrapper: the generated function of `job` specialised to a signature of the
    arguments (wrapper.signature: the parameters passed Python numbers, Job.scalars, and
    the dimension patterns of those passed arrays, Job.arrays), built on first use by
    `build_job` (disk cache first) and kept current like the generic one; each is
    `df.specialised[label]`'s source (wrapper.signature_label). None where specialising
    does not apply: stats (the measuring stack is the generic build's), debug mode (it
    checks the generic code; a specialised build is a speed feature) and jobs
    specialised already."""
    if job.stats or job.checks or job.scalars or job.arrays:
        return None
    sources = _Sources()

    def specialised(known: Signature, doubles: tuple[str, ...] = ()) -> Callable:
        scalars = tuple(n for n, p in known if p is None)
        arrays = tuple((n, p) for n, p in known if p is not None)
        doubles = tuple(n for n, _ in arrays if n in doubles)
        build = functools.partial(
            build_job, dataclasses.replace(job, scalars=scalars, arrays=arrays, doubles=doubles)
        )
        live = Live(build(), build)
        sources.lives[signature_label(known, doubles)] = live
        return live.caller()

    specialised.sources = sources
    return specialised


class _Sources(Mapping):
    """`df.specialised`: the label of a signature (wrapper.signature_label: `x` for a
    Python number, `x[N1]` for a float64 array, `x[N1,other]` for an array of another
    dtype) -> the current source of the build specialised
    to it (as last refreshed)."""

    def __init__(self) -> None:
        self.lives: dict[tuple[str, ...], Live] = {}

    def __getitem__(self, label: tuple[str, ...]) -> str:
        return self.lives[label].built.source

    def __iter__(self):
        return iter(self.lives)

    def __len__(self) -> int:
        return len(self.lives)


def _current(entry: _Entry, verbose: int) -> Callable:
    """A cached gradient, refreshed or rebuilt in place first if what it was built from
    changed."""
    if entry.live is not None and not entry.live.check():
        entry.live.current()
    if verbose:
        print(entry.wrapper.source)
    return entry.wrapper


def _again(mode: Mode, verbose: int, checks: bool, options: dict[str, Any]) -> Callable:
    """`gradient` with these options, for specialize.py to build a related function's
    gradient (a bound method's plain function, a build per call)."""
    return functools.partial(gradient, mode=mode, verbose=verbose, checks=checks, **options)


def _asked_key(
    f: Callable, wrt: Wrt, mode: Mode, checks: bool | None, options: dict[str, Any]
) -> tuple | None:
    """The in-memory key of a plain Python function asked for exactly so (the function
    object itself, before unwrapping; `checks` as given, with TANGENTLIKE_CHECKS's text
    when it is None), which finds a gradient built before without reading f's wrappers
    or the environment's meaning; None for anything else (wrt other than ints and strs:
    True == 1 as keys). The key may be unhashable (an option): the caller catches that."""
    given = _plain_wrt(wrt) if type(f) is types.FunctionType else None
    if given is None:
        return None
    environment = _checks_text() if checks is None else None
    return ("asked", given, mode.name, checks, environment, *options.values())


_ENVIRON = os.environ
_ENVIRON_DATA = getattr(os.environ, "_data", None)
_CHECKS_KEY = getattr(os.environ, "encodekey", lambda key: None)("TANGENTLIKE_CHECKS")


def _checks_text() -> object:
    """TANGENTLIKE_CHECKS's value, as a key of the warm path: read from CPython's
    os.environ store directly (bytes on POSIX) while os.environ is that mapping, since
    `os.environ.get` of an unset variable raises and catches a KeyError, about a fifth of
    a warm tl.grad; else through `os.environ.get`. The two spellings of one value are
    different keys: a miss, never a wrong hit."""
    if os.environ is _ENVIRON and _ENVIRON_DATA is not None and _CHECKS_KEY is not None:
        return _ENVIRON_DATA.get(_CHECKS_KEY)
    return os.environ.get("TANGENTLIKE_CHECKS")


def _remember(f: Callable, asked: tuple | None, entry: _Entry) -> None:
    if asked is not None:
        with _lock:
            _cache.setdefault(f, {})[asked] = entry


_NOTHING: dict = {}


def _request_key(wrt: Wrt, mode: Mode, checks: object, options: dict[str, Any]) -> tuple | None:
    """The in-memory key of a request as given: wrt unresolved (`wrt=1` and `wrt="W"` are
    two keys of one entry) and every option. None when wrt is not plainly ints and strs
    (True == 1 and 1.0 == 1 as keys: resolve_wrt decides) or an option is unhashable."""
    given = _plain_wrt(wrt)
    if given is None:
        return None
    key = ("request", given, mode, checks, *options.values())
    try:
        hash(key)
    except TypeError:  # an unhashable option value: the Job says what is wrong with it
        return None
    return key


def _plain_wrt(wrt: Wrt) -> Wrt | None:
    """`wrt` as a key (a list as a tuple) when it is plainly ints and strs, else None
    (True == 1 and 1.0 == 1 as keys: resolve_wrt decides what those mean)."""
    kind = type(wrt)
    if kind is list:
        wrt, kind = tuple(wrt), tuple
    if kind is tuple:
        for item in wrt:
            if type(item) is not int and type(item) is not str:
                return None
        return wrt
    return wrt if kind is int or kind is str else None


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


def disk_cache(cache: CacheOption) -> DiskCache | None:
    """The disk cache to use, or None. TANGENTLIKE_DISK_CACHE=0 turns it off everywhere."""
    if cache is False or os.environ.get("TANGENTLIKE_DISK_CACHE", "1").lower() in {"0", "off"}:
        return None
    return DiskCache(None if cache is True else cache)
