"""Run tangentlike on a program and sort it: ok, refused, wrong, crash or skipped.

- refused: a tangentlike.TangentlikeError whose location names the program's file
  and a line in it. An error without a location, or pointing elsewhere, is a crash.
- crash: any other exception while building or running the gradient (also inside
  generated code), or a timeout.
- wrong: f's value, a gradient's shape, or the gradient differs from the reference.
- skipped: no reference (the primal raises, is non-finite, or every point tried was
  near a branch boundary) and tangentlike neither crashed, refused, nor computed
  another value of f where f's value is known.

Only the public API is used: tangentlike.value_and_grad and tangentlike.errors.
"""

from __future__ import annotations

import re
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import tangentlike as tl
from tangentlike.errors import TangentlikeError

from .limits import Timeout, time_limit
from .oracle import Reference, Skip, reference
from .program import ENTRY, Program, copy_args, load, unload

KINDS = ("ok", "refused", "wrong", "crash", "skipped")
PACKAGE = Path(tl.__file__).resolve().parent

Differentiate = Callable[..., Callable]


@dataclass(frozen=True)
class Outcome:
    kind: str
    reason: str  # one line
    signature: str = ""  # what makes two failures "the same kind", for grouping and shrinking
    detail: str = ""  # expected vs actual, or the end of the traceback
    args: list | None = None


def evaluate(
    program: Program,
    workdir: Path,
    differentiate: Differentiate | None = None,
    use_autograd: bool = True,
    timeout: float = 0.0,
) -> Outcome:
    """Classify `program`; `differentiate(f, wrt)` builds value-and-gradient (tangentlike
    by default; tests pass deliberately broken ones). Without autograd (the shrinker's
    cheaper check) only finite differences judge the gradient. A reference taking over
    `timeout` seconds skips the program; tangentlike taking over `timeout` is a crash."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with time_limit(timeout):
                ref = reference(program, use_autograd=use_autograd)
        except Timeout:
            return Outcome("skipped", "the reference takes too long", "skipped: too long")
        return _evaluate(program, workdir, differentiate or _tangentlike, ref, timeout)


def _evaluate(
    program: Program,
    workdir: Path,
    differentiate: Differentiate,
    ref: Reference | Skip,
    timeout: float,
) -> Outcome:
    if isinstance(ref, Skip) and ref.args is None:
        return Outcome("skipped", ref.reason, f"skipped: {ref.reason}")
    args = ref.args
    module, path = load(program.source, workdir)
    try:
        with time_limit(timeout):
            ran = _run(program, getattr(module, ENTRY), path, args, differentiate)
    except Timeout as e:
        ran = crash(e, args)
    finally:
        unload(module)
    if isinstance(ran, Outcome):
        return ran
    if isinstance(ref, Skip):
        assert ref.value is not None
        wrong = _wrong_value(ref.value, ran[0], args)
        return wrong or Outcome("skipped", ref.reason, f"skipped: {ref.reason}", args=args)
    return _compare(program, ref, *ran)


def _tangentlike(f: Callable, wrt: tuple[str, ...]) -> Callable:
    return tl.value_and_grad(f, wrt=wrt, cache=False)


def forward_mode(f: Callable, wrt: tuple[str, ...]) -> Callable:
    """value-and-gradient from forward mode: `tl.jvp` in vector mode, one direction per
    entry of the wrt arguments (tl.jacobian's forward mode), the value from its primal."""
    jacobian = tl.jacobian(f, wrt=wrt, mode="forward")
    plain = tl.jvp(f, wrt=wrt)

    def value_and_grad(*args):
        value, _ = plain(*copy_args(list(args)), tuple(_zero_like(args, f, p) for p in wrt))
        return value, jacobian(*copy_args(list(args)))

    return value_and_grad


def _zero_like(args: tuple, f: Callable, param: str):
    import inspect

    value = args[list(inspect.signature(f).parameters).index(param)]
    return np.zeros_like(value) if isinstance(value, np.ndarray) else 0.0


MODES: dict[str, Differentiate | None] = {"reverse": None, "forward": forward_mode}


def _run(program: Program, f, path: Path, args: list, differentiate: Differentiate):
    """(value, gradients) from tangentlike, or the refusal / crash Outcome."""
    try:
        df = differentiate(f, program.wrt)
        value, grads = df(*copy_args(args))
    except TangentlikeError as e:
        loc = e.location
        lines = program.source.count("\n") + 1
        first = str(e).splitlines()[0]
        if loc is not None and _same_file(loc.filename, path) and 1 <= loc.line <= lines:
            message = first.split(": ", 1)[-1]
            return Outcome("refused", first, f"refused: {normalize(message)}", args=args)
        where = "without a location" if loc is None else f"located at {loc}"
        return Outcome(
            "crash",
            f"{type(e).__name__} {where}: {first}",
            f"crash: {type(e).__name__} {where.split(' at ')[0]}: {normalize(first)}",
            _traceback(e),
            args,
        )
    except Exception as e:
        return crash(e, args)
    return value, grads


def crash(e: BaseException, args: list | None) -> Outcome:
    first = (str(e).splitlines() or [""])[0]
    site = _site(e)
    return Outcome(
        "crash",
        f"{type(e).__name__} {site}: {first}"[:300],
        f"crash: {type(e).__name__} {site}: {normalize(first)}",
        _traceback(e),
        args,
    )


def _same_file(name: str, path: Path) -> bool:
    try:
        return Path(name).resolve() == path.resolve()
    except OSError:
        return False


def _site(e: BaseException) -> str:
    """Where an exception was raised: generated code, a tangentlike module, or elsewhere."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return "(no frame)"
    last = frames[-1]
    if last.filename.startswith("<tangentlike"):
        return "in generated code"
    path = Path(last.filename).resolve()
    if PACKAGE in path.parents:
        return f"in tangentlike/{path.relative_to(PACKAGE)}:{last.name}"
    return f"in {path.name}:{last.name}"


def _traceback(e: BaseException) -> str:
    return "".join(traceback.format_exception(e)[-12:])


def normalize(message: str) -> str:
    """A message without its particulars (names, numbers, quoted text), for grouping."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", message)
    text = re.sub(r"\b[A-Za-z_]*\d+[A-Za-z_\d]*\b", "N", text)
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    text = re.sub(r"\(in [^)]*\)", "", text)
    return text.strip()[:120]


def _compare(program: Program, ref: Reference, value: Any, grads: Any) -> Outcome:
    args = ref.args
    wrong = _wrong_value(ref.value, value, args)
    if wrong is not None:
        return wrong
    params = [p for p in program.params if p.differentiable]
    if not isinstance(grads, tuple) or len(grads) != len(params):
        return Outcome("wrong", "gradients of the wrong structure", "wrong: structure", repr(grads))
    for p, g in zip(params, grads, strict=True):
        if np.shape(g) != p.shape or not np.issubdtype(np.asarray(g).dtype, np.floating):
            detail = f"{p.name}: shape {p.shape}, gradient {np.shape(g)} {np.asarray(g).dtype}"
            return Outcome("wrong", "gradient of the wrong shape", "wrong: shape", detail, args)
    slope = sum(
        float(np.sum(np.asarray(g) * u)) for g, u in zip(grads, ref.directions, strict=True)
    )
    if not np.isfinite(slope) or abs(slope - ref.slope) > ref.slope_tolerance():
        detail = _gradients(program, ref, grads) + (
            f"\n<grad, u>: finite differences {ref.slope!r}, tangentlike {slope!r}"
        )
        return Outcome("wrong", "gradient differs from finite differences", "wrong: gradient",
                       detail, args)  # fmt: skip
    if ref.autograd is not None:
        for p, g, a in zip(params, grads, ref.autograd, strict=True):
            scale = 1.0 + float(np.max(np.abs(a)))
            if not np.allclose(g, a, rtol=1e-6, atol=1e-8 * scale):
                detail = _gradients(program, ref, grads)
                return Outcome("wrong", f"gradient of {p.name} differs from autograd",
                               "wrong: gradient", detail, args)  # fmt: skip
    return Outcome("ok", "ok", "ok", args=args)


def _wrong_value(expected: float, value: Any, args: list) -> Outcome | None:
    try:
        number = float(np.asarray(value, dtype=np.float64))
    except (TypeError, ValueError):
        number = float("nan")
    if np.isclose(number, expected, rtol=1e-7, atol=1e-9):
        return None
    detail = f"value: expected {expected!r}, tangentlike {value!r}"
    return Outcome("wrong", "wrong value of f", "wrong: value of f", detail, args)


def _gradients(program: Program, ref: Reference, grads: Any) -> str:
    names = [p.name for p in program.params if p.differentiable]
    lines = []
    for i, name in enumerate(names):
        expected = "?" if ref.autograd is None else repr(ref.autograd[i])
        lines.append(f"d/d{name}: expected {expected}, tangentlike {grads[i]!r}")
    return "\n".join(lines)
