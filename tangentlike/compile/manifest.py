"""What a disk-cache entry was built from, stored with it and checked before it is trusted.

A build's record (parse/record.py) lists every step it resolved and every text it parsed.
`write` turns it into a manifest a fresh process can check: each step as the path to its
base from a root (the entry function, a class the gradient was specialised for, a module
by name, a function or class by its import path), the step, and a description of what
it gave (a literal's type and repr, a function's or class's qualified name, a code
object's digest); each parsed text as its function's path, file name and digest.
`validate` follows every path again in this process, and answers the same record of live
objects (for compile/guards.py) only if every description and digest still matches.

Guarantees: an entry is used only if everything its build relied on is as it was: the
same source texts, read the way the parser reads them (parse/source.file_lines), the
same code objects running, the same literals, functions and classes at the end of the
same paths. `write` returns None when some object cannot be found again from a root
(the entry is then not stored); `validate` returns None on any difference or error.
`entry_key` finds the candidate entry: a digest of the entry function's file text,
name and line, the options, the classes it was specialised for and the versions.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import pathlib
import sys
import types

import numpy as np

from ..parse.freshness import code_digest
from ..parse.record import FINGERPRINTS, Locator, Recorder, Resolution, Watch, follow
from ..parse.source import file_lines
from .cache import cache_key
from .guards import is_literal

log = logging.getLogger("tangentlike")

FORMAT = 1
_MARK = "# tangentlike-manifest "


# ---------------------------------------------------------------------------
# Describing values the same way in every process


def describe(value: object) -> str:
    """What about `value` a gradient depends on, as text equal across processes."""
    if is_literal(value):
        if isinstance(value, frozenset):
            return "frozenset " + repr(sorted(describe(v) for v in value))
        return f"literal {type(value).__name__} {value!r}"
    if type(value) is np.ndarray:
        return "ndarray"  # read by the generated code when it runs
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if isinstance(value, types.CodeType):
        return "code " + code_digest(value)
    if isinstance(value, type):
        return f"class {value.__module__}.{value.__qualname__}"
    if isinstance(value, types.FunctionType):
        return f"function {value.__module__}.{value.__qualname__}"
    if isinstance(value, types.MethodType):
        return "method"
    if isinstance(value, functools.partial):
        return "partial"
    if isinstance(value, tuple):
        return "tuple(" + ", ".join(describe(v) for v in value) + ")"
    if type(value) is dict:
        items = sorted(((repr(k), describe(v)) for k, v in value.items()), key=repr)
        return f"dict {items!r}"
    cls = type(value)
    kind = "callable" if callable(value) else "object"
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if kind == "callable" and isinstance(name, str):
        return f"callable {getattr(value, '__module__', None)}.{name}"
    return f"{kind} of {cls.__module__}.{cls.__qualname__}"


def text_digest(lines: list[str] | tuple[str, ...]) -> str:
    return hashlib.sha256("".join(lines).encode("utf-8", "surrogatepass")).hexdigest()[:32]


# ---------------------------------------------------------------------------
# Finding objects again


def _import_locator(obj: object) -> Locator | None:
    """A root naming `obj` by where it can be imported from, if it is found there."""
    if isinstance(obj, types.ModuleType):
        return ("module:" + obj.__name__, ()) if sys.modules.get(obj.__name__) is obj else None
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    if not isinstance(obj, (type, types.FunctionType)):
        return None
    try:
        if _follow_import(module, qualname) is obj:
            return (f"import:{module}:{qualname}", ())
    except Exception:
        return None
    return None


def _follow_import(module: str, qualname: str) -> object:
    found: object = sys.modules[module]
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def _root(name: str, roots: dict[str, object]) -> object:
    if name in roots:
        return roots[name]
    kind, _, rest = name.partition(":")
    if kind == "module":
        return sys.modules[rest]
    if kind == "import":
        module, _, qualname = rest.partition(":")
        return _follow_import(module, qualname)
    raise KeyError(name)


class _Finder:
    """Follows locators from the roots of this process, each prefix once."""

    def __init__(self, roots: dict[str, object]) -> None:
        self.roots = roots
        self.found: dict[tuple, object] = {}

    def __call__(self, locator: list) -> object:
        root, steps = locator[0], tuple(tuple(s) for s in locator[1])
        key = (root, steps)
        if key in self.found:
            return self.found[key]
        obj = _root(root, self.roots) if not steps else follow(self((root, steps[:-1])), steps[-1])
        self.found[key] = obj
        return obj


# ---------------------------------------------------------------------------
# Writing and checking


def write(record: Recorder) -> str | None:
    """The manifest of a build, as one comment line; None when an object it relied on
    cannot be found again from a root (then the build must not be stored)."""

    def where(obj: object) -> list | None:
        found = record.locator(obj) or _import_locator(obj)
        if found is None:
            log.debug("not cached on disk: no recorded path reaches %r", obj)
            return None
        return [found[0], [list(s) for s in found[1]]]

    steps = []
    for r in record.resolutions:
        base = where(r.base)
        if base is None:
            return None
        bound = record.bindings.get((id(r.base), r.step), "")
        steps.append([base, list(r.step), describe(r.value), bound])
    texts = []
    for t in record.texts:
        func = where(t.func)
        if func is None:
            return None
        texts.append([func, t.filename, text_digest(t.lines)])
    watches = []
    for w in record.watches:
        obj = where(w.obj)
        if obj is None:
            return None
        watches.append([obj, w.kind, repr(w.value)])
    body = {"format": FORMAT, "steps": steps, "texts": texts, "watches": watches}
    return _MARK + json.dumps(body, separators=(",", ":")) + "\n"


def split(entry: str) -> tuple[dict | None, str]:
    """(manifest, generated text) of a stored entry; manifest None if there is none."""
    if not entry.startswith(_MARK):
        return None, entry
    line, _, text = entry.partition("\n")
    try:
        manifest = json.loads(line[len(_MARK) :])
    except ValueError:
        return None, text
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return None, text
    return manifest, text


def validate(manifest: dict, roots: dict[str, object]) -> Recorder | None:
    """The live record of `manifest` in this process, or None if anything differs."""
    find = _Finder(roots)
    live = Recorder()
    try:
        for base_at, step, description, bound in manifest["steps"]:
            base = find(base_at)
            step = (step[0], step[1])
            value = follow(base, step)
            if describe(value) != description:
                return None
            live.resolutions.append(Resolution(base, step, value))
            if bound:
                live.bindings[(id(base), step)] = bound
        for func_at, filename, digest in manifest["texts"]:
            func = find(func_at)
            name, lines = file_lines(func)
            if name != filename or text_digest(lines) != digest:
                return None
        for obj_at, kind, value in manifest["watches"]:
            obj = find(obj_at)
            now = FINGERPRINTS[kind](obj)
            if repr(now) != value:
                return None
            live.watches.append(Watch(obj, kind, now))
    except Exception:  # a path that no longer leads anywhere, a file gone: not this entry
        return None
    return live


# ---------------------------------------------------------------------------
# Keys


@functools.cache
def compiler_fingerprint() -> str:
    """A digest of tangentlike's own source files (their names, sizes and modification
    times, to the nanosecond: reading them all would cost a fresh process more than
    loading a gradient): a changed compiler never reuses old entries."""
    package = pathlib.Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    todo = [str(package)]
    found = []
    while todo:
        with os.scandir(todo.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    todo.append(entry.path)
                elif entry.name.endswith(".py"):
                    stat = entry.stat()
                    found.append(f"{entry.path}:{stat.st_size}:{stat.st_mtime_ns}")
    for line in sorted(found):
        digest.update(line.encode())
    return digest.hexdigest()[:16]


def entry_key(
    func: types.FunctionType,
    options: tuple[str, ...],
    versions: tuple[str, ...],
    roots: dict[str, object],
) -> str | None:
    """The key of the candidate entry for `func`; None when its source cannot be read."""
    try:
        filename, lines = file_lines(func)
    except (OSError, TypeError):
        return None
    parts = [*versions, compiler_fingerprint(), sys.version, *options]
    parts += [filename, func.__module__, func.__qualname__, str(func.__code__.co_firstlineno)]
    parts.append(text_digest(lines))
    parts += [f"{name}={describe(obj)}" for name, obj in sorted(roots.items()) if name != "entry"]
    return cache_key(*parts)
