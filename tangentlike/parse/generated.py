"""Recognise the runtime helpers a generated module carries copies of.

A generated derivative module (in memory, or written by the CLI and imported)
holds copies of the runtime helpers it calls (emit/module.py), as its own
functions. To differentiate such a module again (grad of grad, hvp), a call
to a copy must mean the runtime helper itself, whose rule rules/runtime_helpers.py
states: a copy is never read as user source.

Guarantees: `runtime_helper(obj)` is the runtime function `obj` is a verbatim
copy of (same name, or that name with the `_2` a module adds where the name is taken;
same code), or None; nothing else is ever matched. "Same code" is the same bytecode, or,
where the module's imports changed how CPython compiled the same text (3.11 compiles
`g.copy()` as an attribute load, not a method call, where the module imports a `g`),
the same text compiled alone.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import linecache
import os
import re
import textwrap
import types

from .. import runtime


def runtime_helper(obj: object) -> types.FunctionType | None:
    """The runtime function `obj` is a copy of, or None."""
    if not isinstance(obj, types.FunctionType) or runtime.owns(obj):
        return None
    original = _helpers().get(obj.__name__)
    if original is None:  # a copy renamed where its name was taken: `unappend_2`
        base = _RENAMED.fullmatch(obj.__name__)
        original = None if base is None else _helpers().get(base.group(1))
    if original is None or not _renamed(obj.__qualname__, original.__qualname__):
        return None
    ga, gb = obj.__globals__, original.__globals__
    same = _same_code(obj.__code__, original.__code__, ga, gb)
    if not same:  # the same text compiled in another module's context (module docstring)
        a, b = _compiled_alone(obj.__code__), _compiled_alone(original.__code__)
        same = a is not None and b is not None and _same_code(a, b, ga, gb)
    return original if same else None


def _compiled_alone(code: types.CodeType) -> types.CodeType | None:
    """The code of the function whose definition starts at code's first line, compiled
    from its text alone (no imports around it), or None where the text is not there."""
    lines = linecache.getlines(code.co_filename)
    try:
        block = inspect.getblock(lines[code.co_firstlineno - 1 :])
        module = compile(textwrap.dedent("".join(block)), "<runtime helper>", "exec")
    except (IndexError, SyntaxError, ValueError, inspect.EndOfBlock):
        return None
    found = [
        c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == code.co_name
    ]
    return found[0] if len(found) == 1 else None


# the name a generated module gives a helper's copy when the helper's own name is bound
# to something else there (emit/module.py: `unappend_2`, as `np_2` for `np`)
_RENAMED = re.compile(r"(.+)_[0-9]+")


def _renamed(copy: str, name: str) -> bool:
    """Whether `copy` is `name`, or `name` with the suffix a module's renaming adds."""
    return copy == name or re.fullmatch(re.escape(name) + r"_[0-9]+", copy) is not None


@functools.cache
def _helpers() -> dict[str, types.FunctionType]:
    """Every top-level function of the runtime package's modules, by name."""
    found: dict[str, types.FunctionType] = {}
    names = sorted(  # os.listdir: pkgutil.iter_modules costs a stat per file here
        n[:-3] for n in os.listdir(runtime.__path__[0]) if n.endswith(".py") and n != "__init__.py"
    )
    for name in names:
        module = importlib.import_module(f"{runtime.__name__}.{name}")
        for name, value in vars(module).items():
            if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
                found[name] = value
    return found


def _same_code(a: types.CodeType, b: types.CodeType, ga: dict, gb: dict) -> bool:
    """The same compiled body, whatever file and line it was compiled at: bytecode, local
    names and constants (nested code compared the same way), and names that mean the same
    (a global the copy renamed, `np_2` for `np`, must be bound to the same object)."""
    if (a.co_code, a.co_varnames, a.co_freevars, a.co_cellvars) != (
        b.co_code,
        b.co_varnames,
        b.co_freevars,
        b.co_cellvars,
    ):
        return False
    if len(a.co_names) != len(b.co_names) or len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_names, b.co_names, strict=True):
        if x == y and y.startswith("__"):
            continue  # `type(v).__name__`: an attribute, not the module's own __name__
        if y in gb and not _same_object(ga.get(x, _MISSING), gb[y]):
            return False
        if y not in gb and x != y:
            return False
    for x, y in zip(a.co_consts, b.co_consts, strict=True):
        if isinstance(x, types.CodeType) and isinstance(y, types.CodeType):
            if not _same_code(x, y, ga, gb):
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True


_MISSING = object()


def _same_object(a: object, b: object) -> bool:
    """`a` is `b`, or a copy of the helper `b` (by name and bytecode: helpers call each
    other, recursively too, so one level is compared here)."""
    if a is b:
        return True
    return (
        isinstance(a, types.FunctionType)
        and isinstance(b, types.FunctionType)
        and runtime.owns(b)
        and _renamed(a.__qualname__, b.__qualname__)
        and a.__code__.co_code == b.__code__.co_code
    )
