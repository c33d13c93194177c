"""Loading the function a command line names: `path/to/file.py:func` or `pkg.mod:func`
(`func` may be dotted: `Class.method`). See `load_target`."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import keyword
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .options import CliError


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


def display_path(path: str) -> str:
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
        raise CliError(exited(f"importing {where}", exit_)) from None
    except Exception as err:
        raise CliError(f"importing {where} failed: {type(err).__name__}: {err}") from err
    return module, name, importable


def exited(doing: str, exit_: SystemExit) -> str:
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
        raise CliError(exited(f"importing module {where!r}", exit_)) from None
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
                source = display_path(where)
            else:
                module, importable, source = _import(where), True, where
            func = _lookup(module, attr, where)
            source_file = _source_file(func) or (where if is_file else None)
            yield Target(func, attr, source, source_file, name, importable)
    finally:
        _forget(before, root, name)
