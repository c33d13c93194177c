"""A built gradient kept current: checked before each call, refreshed or rebuilt in place.

`Live` holds what one build made (the generated function, its module text, its guards)
and how to build again. `Live.caller()` is the function the user's gradient calls: it
runs the guards' one generated check, and calls the generated function if they pass;
otherwise the guards refresh what can be refreshed (a literal rebound to an equal value,
a global array rebound to another array) or the gradient is rebuilt (memory and disk
caches consulted as for a new `grad`), and every gradient object sharing this Live,
including ones the user already holds, computes the new function from then on.

Guarantees: a call never runs generated code whose guards fail; the warm path costs one
call of the compiled check and one extra call layer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .compile.guards import Guards


@dataclass(frozen=True)
class Built:
    generated: Callable  # the generated entry function
    source: str  # the generated module's text
    external: dict[str, object]  # names the loader bound (objects of the running program)
    built_from: str  # "transform" or "disk cache"
    guards: Guards


class Live:
    def __init__(self, built: Built, rebuild: Callable[[], Built]) -> None:
        self.built = built
        self.check = built.guards.check
        self.generated = built.generated
        self._rebuild = rebuild
        self._lock = threading.RLock()
        self.wrappers: list[Callable] = []  # gradient objects showing .source etc.

    def caller(self) -> Callable:
        """The function standing for the generated one, checking the guards first."""
        live = self

        def call(*args, **kwargs):
            if live.check():
                return live.generated(*args, **kwargs)
            return live.current().generated(*args, **kwargs)

        generated = self.built.generated
        call.__name__ = generated.__name__
        call.__qualname__ = generated.__qualname__
        call.__wrapped__ = generated  # its signature (the same after a rebuild)
        return call

    def current(self) -> Built:
        """The build that holds now: this one, refreshed, or a new one."""
        with self._lock:
            built = self.built
            if built.guards.check() or built.guards.refresh():
                self.check = built.guards.check
                return built
            built = self._rebuild()
            # the function before its check: a caller seeing the new check calls the new code
            self.built, self.generated = built, built.generated
            self.check = built.guards.check
            for wrapper in self.wrappers:
                show(wrapper, built)
            return built


def refreshed(gradient: Callable) -> Callable:
    """`gradient` (a tangentlike gradient object) brought up to date: rebuilt now if what
    it was built from changed since its last call. Read before its generated code is
    differentiated again, so that the derivative is built from the code it runs now (its
    guards are watched afterwards: a build from the code before the change would pass
    them)."""
    gradient.__tangentlike_live__.current()  # type: ignore[attr-defined]
    return gradient


def show(wrapper: Callable, built: Built) -> None:
    """Let a gradient object show what it now runs (and stand for it when differentiated:
    tangentlike's own wrappers are transparent)."""
    wrapper.__tangentlike_primal__ = built.generated  # type: ignore[attr-defined]
    wrapper.source = built.source  # type: ignore[attr-defined]
    wrapper.external = dict(built.external)  # type: ignore[attr-defined]
    wrapper.built_from = built.built_from  # type: ignore[attr-defined]
