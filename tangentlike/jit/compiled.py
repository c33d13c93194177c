"""Compile lowered gradient modules with numba and run them.

`JitGradient` is what a `jit=True` gradient calls (gradients.py hands it to wrapper.wrap
as the generated function and the specialiser): per argument signature (the parameters
passed Python numbers, job.Job.scalars, and arrays of which dimension patterns,
job.Job.arrays: wrapper.signature) it takes the build of that signature, kept
current by its Live, lowers its text (lower.py), writes it as a real file
`<cache>/jit/<sha256 of the text>.py` (once, atomically: numba's `cache=True` keys its
entries on the file's path and time stamp, so a rewrite would void them), imports it and
runs its entry. numba compiles the entry for the argument types at the first call; a
refusal there becomes a JitError located at the user's line (the lowered module maps its
lines to them). With jit="auto" a refusal, at `grad` or at a first call, warns once
(JitWarning) and the Python adjoint runs from then on.

Guarantees: no silent fallback with jit=True; the Python adjoint's guards still decide
when a gradient is rebuilt (a rebuilt text is lowered and compiled again).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import inspect
import linecache
import pathlib
import re
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable
from typing import Any

from ..compile.atomic import write_atomic
from ..compile.cache import DiskCache
from ..errors import JitError, JitWarning, SourceLocation
from ..job import Job
from ..live import Built, Live
from . import available
from .lower import Lowered, lower

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# numba's frames: `File "<path>", line <n>:` and `typing of call at <path> (<n>)`
_FILE_LINE = re.compile(r'(?:File "(?P<file>[^"]+)", line |at (?P<at>\S+\.py) \()(?P<line>\d+)')
_lock = threading.Lock()
_scratch: list[pathlib.Path] = []  # a per-process directory when there is no disk cache


class Compiled:
    """One lowered module, imported: call it with the entry's arguments."""

    def __init__(
        self,
        lowered: Lowered,
        path: pathlib.Path,
        external: dict,
        where: Callable[[str, int], SourceLocation | None],
        where_defined: SourceLocation | None,
    ) -> None:
        name = f"tangentlike_jit_{path.stem[:16]}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        module.__dict__.update(external)
        sys.modules[name] = module  # numba's cache finds the module of what it compiles
        spec.loader.exec_module(module)
        self.module = module
        self.path = path
        self.lowered = lowered
        self.entry = getattr(module, lowered.entry)
        self.finish = getattr(module, lowered.finish)
        self.start = getattr(module, lowered.start) if lowered.start else None
        self.where = where
        self.where_defined = where_defined
        params = inspect.signature(self.entry.py_func).parameters.values()
        self.signature = inspect.Signature(list(params))
        self.defaults = tuple(p.default for p in params)
        self.count = len(self.defaults)

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) > self.count:
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        elif len(args) < self.count:
            missing = self.defaults[len(args) :]
            if any(d is inspect.Parameter.empty for d in missing):
                self.signature.bind(*args)  # the TypeError naming the missing argument
            args = args + missing
        if self.start is not None:
            args = self.start(*args)
        try:
            out = self.entry(*args)
        except Exception as err:
            if _is_numba_error(err):
                raise self.untyped(args) or self.refusal(err) from None
            raise
        return self.finish(*args, out)

    def untyped(self, args: tuple) -> JitError | None:
        """The refusal naming the first argument numba has no type for (a dict, an object
        of a user's class...), or None."""
        from numba import typeof

        for name, value in zip(self.signature.parameters, args, strict=True):
            try:
                typeof(value)
            except ValueError:
                return JitError(
                    f"jit=True cannot compile this gradient: its argument {name} is a "
                    f"{type(value).__name__}, a type numba's nopython mode does not take",
                    self.where_defined,
                    hint="What to do: pass numbers and NumPy arrays (tuples of them) to a "
                    'compiled gradient, or leave jit out (jit="auto" falls back to the '
                    "Python adjoint with a warning).",
                )
        return None

    def refusal(self, err: Exception) -> JitError:
        """numba's refusal as a JitError at the user's line its innermost frame in the
        compiled module stands for."""
        text = _ANSI.sub("", str(err))
        location = None
        what = _reason(text)
        for found in _FILE_LINE.finditer(text):
            if pathlib.Path(found["file"] or found["at"]).name != self.path.name:
                continue
            line = int(found["line"])
            origin = self.lowered.origins.get(line)
            if origin is not None:
                location = self.where(*origin)
                generated = linecache.getline(str(self.path), line).split("  #")[0].strip()
                what += f" (in the compiled adjoint: `{generated[:100]}`)"
                break
        return JitError(
            f"jit=True cannot compile this gradient for these arguments: {what}",
            location,
            hint='What to do: leave jit out for this function, or use jit="auto" to fall '
            "back to the Python adjoint with a warning.",
        )


def _reason(text: str) -> str:
    """What numba's message says blocks it, in a line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("Failed in")]
    if not lines:
        return "numba refused it"
    if lines[0].startswith("No implementation of function"):
        call = next((line[3:].strip() for line in lines if line.startswith(">>>")), "")
        return f"numba has no implementation of {call}"[:300]
    return f"numba refused it: {lines[0]}"[:300]


def _is_numba_error(err: Exception) -> bool:
    from numba.core.errors import NumbaError

    return isinstance(err, NumbaError)


def compile_built(built: Built, job: Job, disk: DiskCache | None) -> Compiled:
    """Lower, write and import the module of `built` (the build of `job`)."""
    where = locator(job.func)
    lowered = lower(built.source, built.generated.__name__, where, cache=not built.external)
    digest = hashlib.sha256(lowered.source.encode()).hexdigest()
    path = _directory(disk) / f"{digest}.py"
    data = lowered.source.encode()
    with _lock:
        try:
            current = path.read_bytes()
        except OSError:
            current = None
        if current != data:
            write_atomic(path, data)
    return Compiled(lowered, path, dict(built.external), where, _defined(job))


def check_lowering(built: Built, job: Job) -> None:
    """Raise the JitError lowering `built` would raise (no numba needed, nothing written)."""
    if not available():
        raise JitError(
            "jit=True needs numba, which is not installed here",
            hint="What to do: pip install 'tangentlike[jit]' (numba>=0.60), or leave jit "
            'out; jit="auto" uses numba when it is there.',
        )
    lower(built.source, built.generated.__name__, locator(job.func))


def _directory(disk: DiskCache | None) -> pathlib.Path:
    if disk is not None:
        found = disk.subdirectory("jit")
        if found is not None:
            return found
    with _lock:
        if not _scratch:
            _scratch.append(pathlib.Path(tempfile.mkdtemp(prefix="tangentlike-jit-")))
    return _scratch[0]


def _defined(job: Job) -> SourceLocation | None:
    """The `def` line of the differentiated function."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(job.func))
        line = inspect.unwrap(job.func).__code__.co_firstlineno
    except (TypeError, AttributeError):
        return None
    if path is None:
        return None
    text = linecache.getline(path, line)
    return SourceLocation(path, line, len(text) - len(text.lstrip()), text)


def locator(func: Callable) -> Callable[[str, int], SourceLocation | None]:
    """(basename, line) -> the location of that line of the file of `func` (the
    differentiated function; other files by name only)."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(func))
    except TypeError:
        path = None

    def where(basename: str, line: int) -> SourceLocation | None:
        if path is not None and pathlib.Path(path).name == basename:
            text = linecache.getline(path, line)
            return SourceLocation(path, line, len(text) - len(text.lstrip()), text)
        return SourceLocation(basename, line, 0, "")

    return where


class JitGradient:
    """The compiled gradient of one Job, per argument signature; `generic` is what
    wrapper.wrap calls as the generated function, `specialised` its specialiser."""

    def __init__(
        self,
        job: Job,
        live: Live,
        build_job: Callable[[Job], Built] | None,  # None: the generic build only (a jvp)
        disk: DiskCache | None,
    ) -> None:
        self.job = job
        self.auto = job.jit == "auto"
        self.python = live.caller()
        self.build_job = build_job
        self.disk = disk
        self.lives: dict[tuple, Live] = {(): live}  # signature -> its build
        self.compiled: dict[tuple, tuple[Built, Compiled]] = {}
        self.fallen = False
        self.sources: dict[tuple, str] = {}  # df.jit_sources

    def run(self, known: tuple, args: tuple, kwargs: dict) -> Any:
        if self.fallen:
            return self.python(*args, **kwargs)
        try:
            return self.current(known)(*args, **kwargs)
        except JitError as err:
            refusal = err
        # the Python adjoint first: an error it raises for these arguments (an output
        # that is not a scalar, a bad seed) is the caller's, and numba's typing saw it
        result = self.python(*args, **kwargs)
        if not self.auto:
            raise refusal
        self.fall_back(refusal)
        return result

    def fall_back(self, err: JitError) -> None:
        self.fallen = True
        warnings.warn(
            f"jit='auto': running the Python adjoint of {self.job.func.__qualname__}: {err}",
            JitWarning,
            stacklevel=6,  # the caller of the gradient (through wrapper.py's layers)
        )

    def current(self, known: tuple) -> Compiled:
        """The compiled build for calls of the signature `known` (wrapper.signature:
        (parameter, None) for a Python number, (parameter, pattern) for an array; () for
        the generic build)."""
        live = self.lives.get(known)
        if live is None:
            scalars = tuple(n for n, p in known if p is None)
            arrays = tuple((n, p) for n, p in known if p is not None)
            job = dataclasses.replace(self.job, scalars=scalars, arrays=arrays)
            build = functools.partial(self.build_job, job)
            live = self.lives[known] = Live(build(), build)
        built = live.built if live.check() else live.current()
        found = self.compiled.get(known)
        if found is None or found[0] is not built:
            found = self.compiled[known] = (built, compile_built(built, self.job, self.disk))
            self.sources[known] = found[1].lowered.source
        return found[1]

    def generic(self) -> Callable:
        """The function standing for the generated one (its signature, for wrap)."""

        def call(*args, **kwargs):
            return self.run((), args, kwargs)

        call.__name__ = self.python.__name__
        call.__qualname__ = self.python.__qualname__
        call.__wrapped__ = self.python.__wrapped__
        return call

    def specialised(self) -> Callable[[tuple], Callable]:
        def for_signature(known: tuple, doubles: tuple[str, ...] = ()) -> Callable:
            # a compiled build types its arguments itself (numba): no float64 facts
            return lambda *args, **kwargs: self.run(known, args, kwargs)

        return for_signature
