"""The command-line tool: write, show and check derivative modules.

    tangentlike grad model.py:loss --wrt W,b -o build/dloss.py
    tangentlike show model.py:loss --wrt W,b
    tangentlike check model.py:loss --wrt W,b --inputs W=3x4,b=4,X=5x3

Guarantees: a written module is standalone (no external objects, no import of
tangentlike), deterministic (the same function and options give the same
bytes: no timestamps, no absolute temporary paths) and written atomically (a
failed run leaves no file and an existing one untouched). Every error is one
`tangentlike: error: ...` line on stderr (a tangentlike error adds its
location and hint below it) and exit status 2; `--debug` re-raises instead.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import keyword
import math
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .api import grad, value_and_grad, vjp
from .checkpoint import Binomial, FixedInterval
from .errors import TangentlikeError
from .job import resolve_wrt

PROG = "tangentlike"
MODES = ("grad", "vjp", "value_and_grad", "reverse")  # reverse: the AD mode, which is grad


class CliError(TangentlikeError):
    """A bad command line: unknown file or function, bad --wrt or --inputs, unwritable output."""


# --------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """A function named on the command line, and how the header should name it."""

    func: Callable
    attr: str  # the part after the colon
    source: str  # the file relative to the current directory when possible, or the module
    source_file: str | None  # the file whose text is hashed
    module_name: str  # the name the target's module is registered under
    importable: bool  # False when that name is made up: the written module cannot import it

    @property
    def spec(self) -> str:
        return f"{self.source}:{self.attr}"


def _display_path(path: str) -> str:
    """`path` relative to the current directory when it lies below it, else as given."""
    absolute = os.path.abspath(path)
    with contextlib.suppress(ValueError):  # another drive on Windows
        relative = os.path.relpath(absolute, os.getcwd())
        if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
            return Path(relative).as_posix()
    return Path(path if not os.path.isabs(path) else absolute).as_posix()


def _split_target(spec: str) -> tuple[str, str]:
    where, colon, attr = spec.rpartition(":")
    if not colon or not where or not attr:
        raise CliError(
            f"bad target {spec!r}: write path/to/file.py:function or package.module:function"
        )
    return where, attr


def _is_file_target(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where or os.path.exists(where)


def _module_name_for(path: Path) -> tuple[str, bool]:
    """The file's stem when no loaded or standard module has it, else a unique made-up name."""
    stem = path.stem
    if (
        stem.isidentifier()
        and not keyword.iskeyword(stem)
        and stem not in sys.modules
        and stem not in sys.stdlib_module_names
    ):
        return stem, True
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    return f"_tangentlike_target_{digest}", False


@contextlib.contextmanager
def _on_path(directory: str) -> Iterator[None]:
    added = directory not in sys.path
    if added:
        sys.path.insert(0, directory)
    try:
        yield
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(directory)


def _lookup(module: Any, attr: str, where: str) -> Callable:
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            functions = sorted(
                name
                for name, value in vars(module).items()
                if inspect.isfunction(value) and value.__module__ == module.__name__
            )
            known = f" (functions defined there: {', '.join(functions)})" if functions else ""
            raise CliError(f"{where} has no function {attr!r}{known}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise CliError(f"{where}:{attr} is a {type(obj).__name__}, not a function")
    return obj


def _source_file(func: Callable) -> str | None:
    func = inspect.unwrap(getattr(func, "__tangentlike_primal__", func))
    try:
        return inspect.getsourcefile(func)
    except TypeError:
        return None


def _exec_file(path: Path, where: str) -> tuple[Any, str, bool]:
    """Run the file as a module registered in sys.modules (dataclasses and pickling need it)."""
    name, importable = _module_name_for(path.resolve())
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise CliError(f"cannot load {where} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except SystemExit as exit_:
        raise CliError(_exited(f"importing {where}", exit_)) from None
    except Exception as err:
        raise CliError(f"importing {where} failed: {type(err).__name__}: {err}") from err
    return module, name, importable


def _exited(doing: str, exit_: SystemExit) -> str:
    """What to say when user code calls sys.exit (or raises SystemExit) under us."""
    code = exit_.code
    status = 0 if code is None else code if isinstance(code, int) else 1
    return (
        f"{doing} called sys.exit({'' if code is None else repr(code)}) (exit status "
        f"{status}), so there is nothing to differentiate; keep a script's work under "
        '`if __name__ == "__main__":`'
    )


def _import(where: str) -> Any:
    if not all(part.isidentifier() for part in where.split(".")):
        raise CliError(f"bad target: {where!r} is neither an existing file nor a module name")
    try:
        return importlib.import_module(where)
    except SystemExit as exit_:
        raise CliError(_exited(f"importing module {where!r}", exit_)) from None
    except ModuleNotFoundError as err:
        raise CliError(f"cannot import module {where!r}: {err}") from err
    except Exception as err:
        raise CliError(f"importing module {where!r} failed: {type(err).__name__}: {err}") from err


def _forget(before: set[str], root: str, name: str) -> None:
    """Drop the modules loaded since `before` from under `root`, so a later run reloads them."""
    for added in set(sys.modules) - before:
        file = getattr(sys.modules.get(added), "__file__", None) or ""
        if (name and added == name) or (file and os.path.abspath(file).startswith(root + os.sep)):
            del sys.modules[added]


@contextlib.contextmanager
def load_target(spec: str) -> Iterator[Target]:
    """Import the function `spec` names; undo the sys.path and sys.modules changes afterwards.

    A file is loaded under its stem (so the generated text can import the
    file's own objects by that name) unless the stem is taken, with the file's
    directory on sys.path so its sibling imports work; a module is imported
    with the current directory on sys.path.
    """
    where, attr = _split_target(spec)
    before = set(sys.modules)
    is_file = _is_file_target(where)
    if is_file and not Path(where).is_file():
        raise CliError(f"no such file: {where}")
    root = str(Path(where).resolve().parent) if is_file else os.getcwd()
    name = ""  # the file's module name, once registered
    try:
        with _on_path(root):
            if is_file:
                module, name, importable = _exec_file(Path(where), where)
                source = _display_path(where)
            else:
                module, importable, source = _import(where), True, where
            func = _lookup(module, attr, where)
            source_file = _source_file(func) or (where if is_file else None)
            yield Target(func, attr, source, source_file, name, importable)
    finally:
        _forget(before, root, name)


# --------------------------------------------------------------------------- options


def _parameters(func: Callable) -> list[inspect.Parameter]:
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


# --------------------------------------------------------------------------- generation


def generate(
    target: Target,
    names: tuple[str, ...],
    single: bool,
    mode: str,
    checkpoint=None,
    checks: bool = False,
) -> Callable:
    """The gradient module of the target; `checks`: debug mode (never from the
    environment: a written module says in its header how it was made)."""
    build = {
        "grad": grad,
        "reverse": grad,
        "vjp": vjp,
        "value_and_grad": value_and_grad,
    }[mode]
    wrt = names[0] if single else names
    return build(target.func, wrt=wrt, checkpoint=checkpoint, checks=checks)


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


def _strip_core_header(source: str) -> str:
    """Drop the in-memory header (it names the absolute source path); ours replaces it."""
    lines = source.splitlines(keepends=True)
    if not lines or not lines[0].startswith("# Generated by tangentlike"):
        return source
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return "".join(lines[i:])


def _file_hash(path: str | None) -> str:
    if path is None:
        return "unknown (no source file)"
    try:
        data = Path(path).read_bytes()
    except OSError:
        return "unknown (source file unreadable)"
    return hashlib.sha256(data).hexdigest()[:16]


def module_text(
    target: Target,
    df: Callable,
    names: tuple[str, ...],
    mode: str,
    command: list[str],
    checkpoint: str | None = None,
    checks: bool = False,
) -> str:
    """The header of comment lines followed by the generated module."""
    options = f"wrt={','.join(names)} mode={mode}"
    if checkpoint:
        options += f" checkpoint={checkpoint}"
    if checks:
        options += " checks=on"
    header = [
        "Derivative module generated by tangentlike; do not edit, regenerate it.",
        f"source:      {target.source}",
        f"function:    {target.attr}",
        f"options:     {options}",
        f"source hash: sha256:{_file_hash(target.source_file)} (first 16 hex digits)",
        f"tangentlike: {__version__}",
        f"command:     {shlex.join(command)}",
    ]
    body = _strip_core_header(df.source)
    return "\n".join(f"# {line}" for line in header) + "\n\n\n" + body


def check_standalone(text: str, df: Callable, target: Target) -> None:
    """Refuse text that needs the running program, tangentlike, or a made-up module name."""
    if getattr(df, "built_per_call", ()):
        raise CliError(
            f"the gradient of {target.spec} depends on the classes of its arguments "
            f"{', '.join(df.built_per_call)} (it calls their methods), known only when it is "
            "called: no module can be written ahead of time; differentiate a function whose "
            "objects are globals, or call their methods explicitly (Class.method(obj, ...))"
        )
    external = sorted(getattr(df, "external", {}) or {})
    if external:
        these = "it" if len(external) == 1 else "them"
        raise CliError(
            f"the gradient of {target.spec} is not standalone: it uses {', '.join(external)}, "
            f"which {'exists' if len(external) == 1 else 'exist'} only in the running program "
            f"(closure variables or objects no import can name); pass {these} as parameters "
            f"or build {these} inside the function"
        )
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*(import|from)\s+tangentlike\b", line):
            raise CliError(
                f"the generated module imports tangentlike (line {number}: {line.strip()!r}); "
                "a written module must not; this is a tangentlike bug"
            )
        if not target.importable and re.match(
            rf"\s*(import|from)\s+{re.escape(target.module_name)}\b", line
        ):
            raise CliError(
                f"the generated module imports from {target.source} itself, which cannot be "
                f"imported by its own name (a module {Path(target.source).stem!r} exists "
                "already); rename the file"
            )
    try:
        compile(text, "<generated>", "exec")
    except SyntaxError as err:
        raise CliError(
            f"the generated module is not valid Python ({err}); this is a tangentlike bug"
        ) from err


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same directory and os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        mode = path.stat().st_mode & 0o7777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


# --------------------------------------------------------------------------- colour

_ANSI = {
    "comment": "\033[90m",
    "string": "\033[32m",
    "keyword": "\033[1;34m",
    "number": "\033[36m",
}
_RESET = "\033[0m"
_TOKEN = re.compile(
    r"(?P<comment>\#[^\n]*)"
    r"|(?P<string>(?:\b[rRbBuUfF]{1,2})?"
    r"(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'))"
    r"|(?P<keyword>\b(?:" + "|".join(keyword.kwlist) + r")\b)"
    r"|(?P<number>\b\d+(?:\.\d*)?(?:[eE][+-]?\d+)?\b)"
)


def colorize(text: str) -> str:
    """`text` with ANSI colours on comments, strings, keywords and numbers."""

    def paint(match: re.Match[str]) -> str:
        kind = match.lastgroup or ""
        return f"{_ANSI[kind]}{match.group()}{_RESET}"

    return _TOKEN.sub(paint, text)


def _use_color(choice: str, stream: Any) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


# --------------------------------------------------------------------------- check


def _inputs(
    func: Callable,
    names: tuple[str, ...],
    shapes: dict[str, tuple[int, ...]],
    rng: np.random.Generator,
    low: float,
    high: float,
) -> tuple[list[Any], dict[str, Any]]:
    """Random float inputs of the given shapes; parameters with defaults keep them."""
    params = _parameters(func)
    known = {p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    unknown = sorted(set(shapes) - known)
    if unknown:
        raise CliError(
            f"--inputs names {', '.join(unknown)}, which "
            f"{'is not a parameter' if len(unknown) == 1 else 'are not parameters'}; "
            f"the parameters are {', '.join(p for p in (q.name for q in params) if p in known)}"
        )
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in shapes or p.name in names or p.default is p.empty:
            shape = shapes.get(p.name, ())
            value: Any = (
                float(rng.uniform(low, high)) if not shape else rng.uniform(low, high, shape)
            )
        else:
            value = p.default
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = value
        else:
            args.append(value)
    return args, kwargs


@dataclass(frozen=True)
class Comparison:
    name: str
    shape: tuple[int, ...]
    checked: int
    abs_err: float
    rel_err: float
    ok: bool


def _try_call(target: Target, args: list[Any], kwargs: dict[str, Any]) -> None:
    """Call the function once, so that a user error at these inputs is reported as one."""
    shapes = ", ".join(_format_shape(np.shape(a)) for a in (*args, *kwargs.values()))
    try:
        out = target.func(*args, **kwargs)
    except Exception as err:
        raise CliError(
            f"{target.spec} raised {type(err).__name__} at random inputs of shapes "
            f"({shapes}): {err}; give the parameters' shapes with --inputs"
        ) from err
    if np.ndim(out) != 0:
        raise CliError(
            f"{target.spec} returns an array of shape {np.shape(out)} at random inputs of "
            f"shapes ({shapes}); check needs a scalar output (give the shapes with --inputs)"
        )


def _compare(
    func: Callable,
    df: Callable,
    names: tuple[str, ...],
    args: list[Any],
    kwargs: dict[str, Any],
    options: argparse.Namespace,
    rng: np.random.Generator,
) -> list[Comparison]:
    """Each gradient against central differences (step options.eps), element by element."""
    eps, rtol, atol = options.eps, options.rtol, options.atol
    max_elements = options.max_elements
    positions = {p.name: i for i, p in enumerate(_parameters(func))}
    grads = df(*args, **kwargs)  # a tuple: df was built with a tuple wrt

    def value(slot: tuple[str, Any], x: Any) -> float:
        kind, key = slot
        call_args, call_kwargs = list(args), dict(kwargs)
        if kind == "arg":
            call_args[key] = x
        else:
            call_kwargs[key] = x
        return float(np.asarray(func(*call_args, **call_kwargs)))

    results = []
    for name, g in zip(names, grads, strict=True):
        slot: tuple[str, Any] = ("kwarg", name) if name in kwargs else ("arg", positions[name])
        x0 = kwargs[name] if name in kwargs else args[positions[name]]
        g = np.asarray(g, dtype=float)
        if np.ndim(x0) == 0:
            fd = np.array((value(slot, x0 + eps) - value(slot, x0 - eps)) / (2 * eps))
            indices = [()]
            picked = g.reshape(())
        else:
            x0 = np.asarray(x0)
            flat = np.arange(x0.size)
            if x0.size > max_elements:
                flat = np.sort(rng.choice(x0.size, max_elements, replace=False))
            indices = [np.unravel_index(i, x0.shape) for i in flat]
            fd = np.empty(len(indices))
            for k, index in enumerate(indices):
                plus, minus = x0.copy(), x0.copy()
                plus[index] += eps
                minus[index] -= eps
                fd[k] = (value(slot, plus) - value(slot, minus)) / (2 * eps)
            picked = np.array([g[index] for index in indices])
        diff = np.abs(picked - fd)
        abs_err = float(np.max(diff)) if diff.size else 0.0
        scale = float(max(np.max(np.abs(picked)), np.max(np.abs(fd)))) if diff.size else 0.0
        rel_err = abs_err / scale if scale > 0 else (0.0 if abs_err == 0 else float("inf"))
        finite = bool(np.all(np.isfinite(picked)) and np.all(np.isfinite(fd)))
        ok = finite and (rel_err <= rtol or abs_err <= atol)
        results.append(Comparison(name, np.shape(x0), len(indices), abs_err, rel_err, ok))
    return results


def _format_shape(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape)) if shape else "()"


# --------------------------------------------------------------------------- commands


def _command(args: argparse.Namespace, target: Target, names: tuple[str, ...]) -> list[str]:
    words = [PROG, args.command, target.spec, "--wrt", ",".join(names), "--mode", args.mode]
    if args.checkpoint:
        words += ["--checkpoint", args.checkpoint]
    if args.checks:
        words += ["--checks"]
    if args.command == "grad":
        words += ["-o", _display_path(args.output)]
    return words


def cmd_grad(args: argparse.Namespace) -> int:
    output = Path(args.output)
    if output.is_dir():
        raise CliError(f"-o {args.output}: is a directory; give a file name like dloss.py")
    with load_target(args.target) as target:
        if target.source_file and output.exists() and output.samefile(target.source_file):
            raise CliError(f"-o {args.output} is the source file itself; choose another name")
        names, single = parse_wrt(args.wrt, target.func, target.spec)
        df = generate(
            target, names, single, args.mode, parse_checkpoint(args.checkpoint), args.checks
        )
        command = _command(args, target, names)
        text = module_text(target, df, names, args.mode, command, args.checkpoint, args.checks)
        check_standalone(text, df, target)
    try:
        write_atomic(output, text)
    except OSError as err:
        raise CliError(f"cannot write {args.output}: {err.strerror or err}") from err
    print(
        f"wrote {_display_path(args.output)} ({args.mode} of {target.spec} wrt {', '.join(names)})"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with load_target(args.target) as target:
        names, single = parse_wrt(args.wrt, target.func, target.spec)
        df = generate(
            target, names, single, args.mode, parse_checkpoint(args.checkpoint), args.checks
        )
        command = _command(args, target, names)
        text = module_text(target, df, names, args.mode, command, args.checkpoint, args.checks)
    external = sorted(getattr(df, "external", {}) or {})
    if external:
        print(
            f"{PROG}: warning: not standalone: uses {', '.join(external)}, which "
            f"{'exists' if len(external) == 1 else 'exist'} only in the running program; "
            "`tangentlike grad` would refuse to write it",
            file=sys.stderr,
        )
    sys.stdout.write(colorize(text) if _use_color(args.color, sys.stdout) else text)
    return 0


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric options of `check`: a positive finite step, finite tolerances and
    bounds, a positive element count."""
    if not (math.isfinite(args.eps) and args.eps > 0):
        raise CliError(f"--eps {args.eps:g}: the finite-difference step must be a positive number")
    for option, value in (("--rtol", args.rtol), ("--atol", args.atol)):
        if not (math.isfinite(value) and value >= 0):
            raise CliError(f"{option} {value:g}: a tolerance must be a number >= 0")
    for option, value in (("--low", args.low), ("--high", args.high)):
        if not math.isfinite(value):
            raise CliError(f"{option} {value:g}: the bounds of the inputs must be finite")
    if not args.low < args.high:
        raise CliError(f"--low {args.low} must be below --high {args.high}")
    if args.max_elements < 1:
        raise CliError(f"--max-elements {args.max_elements}: check at least 1 element")


def cmd_check(args: argparse.Namespace) -> int:
    _check_numbers(args)
    shapes = parse_inputs(args.inputs)
    with load_target(args.target) as target:
        names, _ = parse_wrt(args.wrt, target.func, target.spec)
        rng = np.random.default_rng(args.seed)
        call_args, call_kwargs = _inputs(target.func, names, shapes, rng, args.low, args.high)
        _try_call(target, call_args, call_kwargs)
        checks = True if args.checks else None  # None: TANGENTLIKE_CHECKS decides
        df = grad(
            target.func, wrt=names, checkpoint=parse_checkpoint(args.checkpoint), checks=checks
        )
        results = _compare(target.func, df, names, call_args, call_kwargs, args, rng)
    print(
        f"check: grad of {target.spec} wrt {', '.join(names)} against central differences "
        f"(eps {args.eps:g}) at uniform random inputs in [{args.low:g}, {args.high:g}], "
        f"seed {args.seed}"
    )
    width = max(len(r.name) for r in results)
    for r in results:
        total = int(np.prod(r.shape))
        sampled = f"  ({r.checked} of {total} elements)" if r.checked < total else ""
        print(
            f"  {r.name:<{width}}  {_format_shape(r.shape):>8}  max abs err {r.abs_err:.3e}  "
            f"max rel err {r.rel_err:.3e}  {'ok' if r.ok else 'FAIL'}{sampled}"
        )
    abs_err = max(r.abs_err for r in results)
    rel_err = max(r.rel_err for r in results)
    passed = all(r.ok for r in results)
    verdict = "OK" if passed else "FAILED"
    print(
        f"max abs error {abs_err:.3e}, max rel error {rel_err:.3e}: {verdict} "
        f"(tolerance: rel err <= {args.rtol:g} or abs err <= {args.atol:g})"
    )
    if not passed and not all(np.isfinite([abs_err, rel_err])):
        print(
            "non-finite values: the function may be undefined at these inputs "
            "(try --low and --high)"
        )
    return 0 if passed else 1


# --------------------------------------------------------------------------- parser

_GRAD_EPILOG = """\
examples:
  tangentlike grad model.py:loss -o dloss.py                 # wrt the first parameter
  tangentlike grad model.py:loss --wrt W,b -o build/dloss.py # a tuple of two gradients
  tangentlike grad mypkg.model:loss --wrt 0 --mode vjp -o dloss.py
  tangentlike grad samples/rnn.py:loss --wrt W,U --checkpoint snapshots=10 -o drnn.py

The module imports NumPy (and what the original imports), carries the helpers
it needs, and never imports tangentlike. Its header records the source file,
function, options, a hash of the source file and the command that regenerates it.
"""

_SHOW_EPILOG = """\
examples:
  tangentlike show model.py:loss --wrt W,b
  tangentlike show model.py:loss --color never | less
"""

_CHECK_EPILOG = """\
examples:
  tangentlike check model.py:loss                     # every parameter a float scalar
  tangentlike check model.py:loss --wrt W,b --inputs "W=3x4,b=4,X=5x3,reg=()"

Exit status: 0 when every gradient agrees with central differences (rel err
<= --rtol, or abs err <= --atol), 1 when one does not, 2 on an error.
"""


def _common(parser: argparse.ArgumentParser, with_mode: bool) -> None:
    parser.add_argument("target", metavar="TARGET", help="path/to/file.py:func or pkg.mod:func")
    parser.add_argument(
        "--wrt",
        metavar="A,B",
        help="comma-separated parameter names or positions (default: the first parameter)",
    )
    if with_mode:
        parser.add_argument(
            "--mode",
            choices=MODES,
            default="grad",
            help="grad (scalar output), vjp (any output, takes a seed) or value_and_grad "
            "(default: grad); `reverse` names the differentiation mode and means grad "
            "(forward mode is not built yet)",
        )
    parser.add_argument(
        "--checkpoint",
        metavar="SPEC",
        help="checkpoint every outermost for loop of the function: snapshots=K (binomial "
        "schedule keeping at most K loop states) or every=N (a snapshot every N steps); "
        "loops marked with tl.checkpointed keep their own schedule",
    )
    parser.add_argument(
        "--checks",
        action="store_true",
        help="debug mode: the generated code checks itself as it runs (every push popped "
        "by its own pop, the stack empty at the end, every adjoint shaped like its value)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the full traceback of an error",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Source-to-source reverse-mode automatic differentiation for Python + NumPy.",
        epilog="Run `tangentlike COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    raw = argparse.RawDescriptionHelpFormatter

    grad_command = commands.add_parser(
        "grad",
        help="write a standalone derivative module",
        epilog=_GRAD_EPILOG,
        formatter_class=raw,
        description="Write the derivative of a function as a module.",
    )
    _common(grad_command, with_mode=True)
    grad_command.add_argument(
        "-o", "--output", required=True, metavar="OUT.py", help="file to write"
    )
    grad_command.set_defaults(run=cmd_grad)

    show_command = commands.add_parser(
        "show",
        help="print the generated source",
        epilog=_SHOW_EPILOG,
        formatter_class=raw,
        description="Print the derivative module `grad` would write.",
    )
    _common(show_command, with_mode=True)
    show_command.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the source with ANSI codes (default: auto, when stdout is a terminal)",
    )
    show_command.set_defaults(run=cmd_show)

    check_command = commands.add_parser(
        "check",
        help="compare the gradient with finite differences",
        epilog=_CHECK_EPILOG,
        formatter_class=raw,
        description="Check the gradient at random inputs against central finite differences.",
    )
    _common(check_command, with_mode=False)
    check_command.add_argument(
        "--inputs",
        metavar="SPEC",
        help="shapes of the parameters, e.g. W=3x4,b=4,c=() (default: every one a float)",
    )
    check_command.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    check_command.add_argument(
        "--low", type=float, default=-1.0, help="inputs >= LOW (default: -1)"
    )
    check_command.add_argument("--high", type=float, default=1.0, help="inputs < HIGH (default: 1)")
    check_command.add_argument(
        "--eps", type=float, default=1e-6, help="finite-difference step (default: 1e-6)"
    )
    check_command.add_argument(
        "--rtol", type=float, default=1e-5, help="relative tolerance (default: 1e-5)"
    )
    check_command.add_argument(
        "--atol", type=float, default=1e-8, help="absolute tolerance (default: 1e-8)"
    )
    check_command.add_argument(
        "--max-elements",
        type=int,
        default=1000,
        metavar="N",
        help="check at most N random elements of each array (default: 1000)",
    )
    check_command.set_defaults(run=cmd_check)
    return parser


def _report(err: BaseException) -> None:
    if isinstance(err, TangentlikeError):
        message = str(err)
    elif isinstance(err, OSError):
        message = f"{err.strerror or err}: {err.filename}" if err.filename else str(err)
    else:
        first = str(err).strip().splitlines()[0] if str(err).strip() else ""
        message = (
            f"internal error: {type(err).__name__}: {first} "
            "(a tangentlike bug; rerun with --debug for the traceback)"
        )
    print(f"{PROG}: error: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        if args.debug:
            raise
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exit_:  # user code exiting under us (the commands never do)
        if args.debug:
            raise
        _report(CliError(_exited(f"running {args.target}", exit_)))
        return 2
    except Exception as err:
        if args.debug:
            raise
        _report(err)
        return 2
