"""What a generated module depends on, as a disk-cache key.

Guarantees: `dependencies(func)` walks the Python functions `func` can reach
through its global and closure names (and attributes of modules it names),
and `disk_key` hashes the text of their files, the literal values and kinds of the
globals they read, the options, the rule fingerprint, the tangentlike and
Python versions. Two calls give the same key only if the generated text
would be the same. Returns None when a dependency has no readable source.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import linecache
import pathlib
import sys
import types
from collections.abc import Callable

from ..parse.resolve import object_classes, user_class
from .cache import cache_key

_LITERALS = (bool, int, float, complex, str, bytes, type(None))


def _primal(obj: object) -> object:
    obj = getattr(obj, "__tangentlike_primal__", obj)
    return inspect.unwrap(obj) if callable(obj) else obj


def dependencies(func: Callable) -> list[types.FunctionType]:
    """`func` and every Python function reachable from it by name, in a stable order."""
    seen: dict[int, types.FunctionType] = {}
    todo = [_primal(func)]
    while todo:
        f = todo.pop()
        if not inspect.isfunction(f) or id(f) in seen:
            continue
        seen[id(f)] = f
        for obj in _referenced(f).values():
            obj = _primal(obj)
            if inspect.isfunction(obj) and not obj.__module__.startswith("tangentlike"):
                todo.append(obj)
    return sorted(seen.values(), key=lambda f: (f.__module__ or "", f.__qualname__))


def _referenced(f: types.FunctionType) -> dict[str, object]:
    """Globals, closure values and module attributes the code of f names."""
    code = f.__code__
    found: dict[str, object] = {}
    if f.__closure__:
        for name, cell in zip(code.co_freevars, f.__closure__, strict=True):
            try:
                found[name] = cell.cell_contents
            except ValueError:
                continue
    modules = []
    names = names_of(code)
    for name in names:
        if name in f.__globals__:
            found[name] = f.__globals__[name]
            if isinstance(f.__globals__[name], types.ModuleType):
                modules.append(f.__globals__[name])
    for module in modules:
        for name in names:
            value = getattr(module, name, None)
            if inspect.isfunction(value):
                found[f"{module.__name__}.{name}"] = value
    return found


def names_of(code: types.CodeType) -> list[str]:
    """The global and attribute names `code` and the functions nested in it read."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names += [n for n in names_of(const) if n not in names]
    return names


def _describe(value: object) -> str:
    if isinstance(value, _LITERALS):
        return repr(value)
    if isinstance(value, tuple) and all(isinstance(v, _LITERALS) for v in value):
        return repr(value)  # spelled out in generated code (`g(*T)`)
    if user_class(type(value)):  # its attributes' classes decide which methods are called
        return " ".join(
            f"{p}:{c.__module__}.{c.__qualname__}" for p, c in object_classes("", value)
        )
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return f"dict with keys {list(value)!r}"  # `g(**M)` is spelled out with them
    if isinstance(value, functools.partial):  # its literal arguments are spelled out too
        bound = (*value.args, *value.keywords.items())
        return f"partial of {_describe(value.func)} with {[_describe(v) for v in bound]}"
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if callable(value):
        name = getattr(value, "__qualname__", None) or getattr(value, "__name__", "")
        return f"callable {getattr(value, '__module__', '')}.{name}"
    return f"{type(value).__module__}.{type(value).__qualname__}"  # imported by name


@functools.cache
def compiler_fingerprint() -> str:
    """A digest of tangentlike's own source: a changed compiler never reuses old entries."""
    package = pathlib.Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def disk_key(func: Callable, options: tuple[str, ...], versions: tuple[str, ...]) -> str | None:
    parts = [*versions, compiler_fingerprint(), sys.version, *options]
    for f in dependencies(func):
        # The whole file, not just the function: comments in generated code quote its lines.
        filename = f.__code__.co_filename
        lines = linecache.getlines(filename, f.__globals__)
        if not lines:
            return None
        parts.append(f"{f.__module__}:{f.__qualname__}:{filename}:{f.__code__.co_firstlineno}")
        parts.append("".join(lines))
        parts.append(repr(f.__defaults__))
        # two lambdas on one line share file, line and name; their code tells them apart
        parts.append(hashlib.sha256(f.__code__.co_code).hexdigest() + repr(f.__code__.co_varnames))
        for name, value in sorted(_referenced(f).items()):
            parts.append(f"{name}={_describe(value)}")
    return cache_key(*parts)
