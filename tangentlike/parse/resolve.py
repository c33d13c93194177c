"""Resolve free names of a function against its closure, globals and builtins.

Guarantees: a Scope answers, for a Name or a dotted Attribute chain that does
not start at a local variable, the Python object it denotes at the time of
the call to `grad`. It never mutates the tree.
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Callable
from dataclasses import dataclass, field

import gast

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

    def lookup(self, name: str) -> object:
        if name in self.module_names:
            return primal_of(self.module_names[name])
        return primal_of(self.lookup_original(name))

    def lookup_original(self, name: str) -> object:
        """What `name` means in the function's own closure, globals or builtins."""
        code = self.func.__code__
        if name in code.co_freevars and self.func.__closure__ is not None:
            cell = self.func.__closure__[code.co_freevars.index(name)]
            try:
                return cell.cell_contents
            except ValueError:
                return MISSING
        if name in self.func.__globals__:
            return self.func.__globals__[name]
        return getattr(builtins, name, MISSING)

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
            return primal_of(getattr(base, node.attr, MISSING))
        return MISSING


def primal_of(obj: object) -> object:
    """The plain function behind a `tl.differentiable` wrapper; anything else unchanged."""
    return getattr(obj, "__tangentlike_primal__", obj)


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


def object_classes(path: str, value: object, depth: int = 3) -> list[tuple[str, type]]:
    """(`path`, class) for a user object and, recursively, the user objects among its
    attributes (`self.encoder.dense`): what decides which methods its code calls."""
    cls = type(value)
    if not user_class(cls):
        return []
    found = [(path, cls)]
    if depth > 0:
        for attr, inner in sorted(getattr(value, "__dict__", {}).items()):
            found += object_classes(f"{path}.{attr}", inner, depth - 1)
    return found
