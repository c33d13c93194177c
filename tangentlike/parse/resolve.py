"""Resolve free names of a function against its closure, globals and builtins.

Guarantees: a Scope answers, for a Name or a dotted Attribute chain that does
not start at a local variable, the Python object it denotes at the time of
the call to `grad`. It never mutates the tree. With a recorder (parse/record.py),
every lookup it makes (global, builtin, closure cell, attribute, the function
behind a `tl.differentiable`) is reported to it.
"""

from __future__ import annotations

import builtins
import functools
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import gast
import numpy as np

from ..higher import forms
from .generated import runtime_helper

if TYPE_CHECKING:
    from .record import Recorder

MISSING = object()


@dataclass
class Scope:
    """The names visible to one function, outside its own locals.

    Names the generated module binds (`module_names`, shared by every function
    of one generated module) take precedence over the function's own globals:
    the user's free names are bound there too, to the same objects.
    """

    func: Callable
    locals: frozenset[str] = field(default_factory=frozenset)
    module_names: dict[str, object] = field(default_factory=dict)
    recorder: Recorder | None = None

    def lookup(self, name: str) -> object:
        if name in self.module_names:
            return self.primal(self.module_names[name])
        return self.primal(self.lookup_original(name))

    def lookup_original(self, name: str) -> object:
        """What `name` means in the function's own closure, globals or builtins."""
        code = self.func.__code__
        if name in code.co_freevars and self.func.__closure__ is not None:
            cell = self.func.__closure__[code.co_freevars.index(name)]
            try:
                found = cell.cell_contents
            except ValueError:
                found = MISSING
            return self.note(self.func, ("cell", name), found)
        if name in self.func.__globals__:
            return self.note(self.func, ("global", name), self.func.__globals__[name])
        return self.note(self.func, ("builtin", name), getattr(builtins, name, MISSING))

    def primal(self, obj: object) -> object:
        """`primal_of(obj)`, recorded."""
        attr = primal_attribute(obj)
        if attr is None:
            return generated_primal(obj)
        if self.recorder is not None and hasattr(obj, "__tangentlike_live__"):
            self.recorder.watch(obj, "current")  # a gradient: what it runs may change
        return generated_primal(self.note(obj, ("attr", attr), getattr(obj, attr)))

    def note(self, base: object, step: tuple[str, str], value: object) -> object:
        """Report that `value` was found one `step` from `base`; returns value."""
        # a name or attribute that is not there decides nothing (using it fails)
        if self.recorder is not None and value is not MISSING:
            self.recorder.resolved(base, step, value)
        return value

    def resolve(self, node: gast.expr) -> object:
        """The object a Name/Attribute chain denotes, or MISSING (locals, other expressions)."""
        if isinstance(node, gast.Name):
            if node.id in self.locals:
                return MISSING
            return self.lookup(node.id)
        if isinstance(node, gast.Attribute):
            base = self.resolve(node.value)
            if base is MISSING:
                return MISSING
            found = self.note(base, ("attr", node.attr), getattr(base, node.attr, MISSING))
            return MISSING if found is MISSING else self.primal(found)
        return MISSING


def primal_of(obj: object) -> object:
    """The plain function behind a `tl.differentiable` wrapper or a functools.lru_cache
    (which returns what its function returns); anything else unchanged."""
    attr = primal_attribute(obj)
    if attr is None:
        return generated_primal(obj)
    return getattr(obj, attr)


def generated_primal(obj: object) -> object:
    """What a generated module's function stands for when it is differentiated: a copy of
    a runtime helper is that helper (whose rule rules/runtime_helpers.py states); a
    generated derivative is its differentiable form (higher/forms.py); anything else is
    itself."""
    helper = runtime_helper(obj)
    if helper is not None:
        return helper
    if forms.is_generated(obj):
        return forms.differentiable_form(obj)
    return obj


def primal_attribute(obj: object) -> str | None:
    """The attribute holding the function a transparent wrapper calls, if `obj` is one."""
    if isinstance(obj, functools._lru_cache_wrapper):
        return "__wrapped__"
    if isinstance(obj, types.ModuleType):  # a module's own names only: NumPy's module
        # __getattr__ runs a long chain of tests for each name it lacks (2% of a cold build)
        return "__tangentlike_primal__" if "__tangentlike_primal__" in vars(obj) else None
    return "__tangentlike_primal__" if hasattr(obj, "__tangentlike_primal__") else None


def user_class(cls: type) -> bool:
    """A class whose methods we read: not NumPy's, not a builtin, not a module or function."""
    if not isinstance(cls, type):
        return False
    module = getattr(cls, "__module__", "") or ""
    return not (
        module in ("builtins", "numpy")
        or module.startswith("numpy.")
        or issubclass(cls, (types.ModuleType, types.FunctionType, type))
    )


def object_classes(path: str, value: object, depth: int = 3) -> list[tuple[str, object]]:
    """(`path`, class) for a user object and, recursively, the user objects among its
    attributes (`self.encoder.dense`): what decides which methods its code calls. A
    list or tuple of user objects of one class (with attributes of the same classes) is
    `path[]` (`self.layers[]`: what `for layer in self.layers` holds); a function held
    in an attribute (`self.act = np.tanh`) is (`path`, that function): what
    `self.act(h)` runs."""
    if isinstance(value, (list, tuple)):
        if not value or depth <= 0:
            return []
        items = [object_classes(f"{path}[]", v, depth - 1) for v in value]
        return items[0] if all(i == items[0] for i in items) else []
    cls = type(value)
    if not user_class(cls):
        return []
    found: list[tuple[str, object]] = [(path, cls)]
    if depth > 0:
        for attr, inner in sorted(getattr(value, "__dict__", {}).items()):
            if held_function(inner):
                found.append((f"{path}.{attr}", inner))
            else:
                found += object_classes(f"{path}.{attr}", inner, depth - 1)
    return found


def held_function(value: object) -> bool:
    """A plain function, builtin or NumPy ufunc (what an attribute may hold to be called)."""
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, np.ufunc))
