"""The global names of a generated module and the objects they stand for.

Generated code refers to outside objects (NumPy, the user's helpers, runtime
helpers) by global names. A Namespace hands those names out so that no two
objects share one and no name shadows a local of the function that uses it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import gast

from . import nodes
from .names import Namer

# How a module is spelled when generated code needs it and the user never named it.
PREFERRED_ALIASES = {"numpy": "np", "numpy.linalg": "linalg", "scipy.special": "special"}


class Namespace:
    """Name -> object table of one generated module; names are never rebound."""

    def __init__(self) -> None:
        self.objects: dict[str, object] = {}
        # name -> (module, attribute) where a user's global was found, to import it from there
        self.origins: dict[str, tuple[str, str]] = {}

    def copy(self) -> Namespace:
        """A namespace with the same names, to bind more without changing this one."""
        other = Namespace()
        other.objects = dict(self.objects)
        other.origins = dict(self.origins)
        return other

    def name_of(self, obj: object) -> str | None:
        for key, value in self.objects.items():
            if value is obj:
                return key
        return None

    def bind(self, preferred: str, obj: object, namer: Namer | None = None) -> str:
        """A global name for `obj`: `preferred` when free, else `preferred_2`, ...

        With a namer, the name also avoids the locals that namer has handed out or
        reserved as local, and is reserved there from then on.
        """
        candidate, k = preferred, 1
        while True:
            bound = self.objects.get(candidate, _FREE)
            local = namer is not None and namer.is_local(candidate)
            if bound is obj and not local:
                break
            if bound is _FREE and not local:
                self.objects[candidate] = obj
                break
            k += 1
            candidate = f"{preferred}_{k}"
        if namer is not None:
            namer.reserve(candidate)
        return candidate

    def ref(self, dotted: str, namer: Namer | None = None) -> gast.expr:
        """An expression for the object at `dotted` ("numpy.linalg.inv"), binding its module."""
        module_name, _, attr_path = _split_module(dotted)
        module = importlib.import_module(module_name)
        top = module_name.split(".")[0]
        if module_name in PREFERRED_ALIASES:
            alias = PREFERRED_ALIASES[module_name]
        else:
            alias = top if module_name == top else module_name.replace(".", "_")
        bound = self.name_of(module)
        base = bound if bound is not None else self.bind(alias, module, namer)
        expr: gast.expr = nodes.name(base)
        for part in attr_path.split(".") if attr_path else []:
            expr = nodes.attribute(expr, part)
        return expr


_FREE = object()


def _split_module(dotted: str) -> tuple[str, str, str]:
    """Split "numpy.linalg.inv" into the longest importable module and the attribute path."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        module_name = ".".join(parts[:i])
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if isinstance(module, ModuleType):
            return module_name, ".", ".".join(parts[i:])
    raise ImportError(f"no module in {dotted!r}")
