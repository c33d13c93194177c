"""The worklist of callee variants a module needs: requested while a caller is
transformed (names reserved in the module's namespace), built after it, and laid out
with every function after the variants it requested (pipeline.ModuleBuilder and
pipeline_forward.ForwardBuilder drain it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .emit.module import Generated
from .parse.record import Recorder
from .parse.source import ParsedFunction, parse_function
from .syntax.namespace import Namespace
from .transform.context import Variant


@dataclass
class Worklist:
    """Variants of callees: requested while a caller is transformed (names reserved in
    the module's namespace, the request queued), built by the builder's `drain` after
    the function that requested them; each (function, active parameters) once.

    `make(parsed, active, suffix)` reserves a variant's names: by default a reverse
    split variant (`_fwd_g`, `_bwd_g`); forward mode makes its `_jvp_g` (a Callee)."""

    namespace: Namespace
    recorder: Recorder
    make: Callable[[ParsedFunction, tuple[str, ...], str], Any] | None = None
    table: dict[tuple[object, tuple[str, ...]], Any] = field(default_factory=dict)
    queue: list[tuple[tuple[object, tuple[str, ...]], ParsedFunction]] = field(default_factory=list)

    def request(self, func: Callable, active: tuple[str, ...]) -> Any:
        key = (func, active)
        if key in self.table:
            return self.table[key]
        parsed = parse_function(func, self.recorder)
        suffix = "" if not any(k[0] is func for k in self.table) else "_" + "_".join(active)
        found = (self.make or self._split_variant)(parsed, active, suffix)
        self.table[key] = found
        self.queue.append((key, parsed))
        return found

    def _split_variant(self, parsed: ParsedFunction, active: tuple[str, ...], suffix: str):
        base = parsed.node.name  # a lambda's: the name it is assigned to, or lambda_
        return Variant(
            reserve(self.namespace, f"_fwd_{base}{suffix}"),
            reserve(self.namespace, f"_bwd_{base}{suffix}"),
            active,
        )

    def queued(self, start: int) -> list[tuple[object, tuple[str, ...]]]:
        """The keys requested since the queue held `start` requests."""
        return [key for key, _ in self.queue[start:]]

    def drain(
        self, start: int, entry: list[str], build: Callable[[ParsedFunction, Any], list[str]]
    ) -> list[str]:
        """The module's functions in order: `entry` (the texts of the function that made
        the requests queued since `start`) and every variant requested from there on,
        built by `build(parsed, variant)`, each after the variants it requested."""
        texts: dict[object, list[str]] = {None: entry}
        requested = {None: self.queued(start)}
        done = start
        while done < len(self.queue):  # callee variants, after their caller
            key, callee = self.queue[done]
            done += 1
            before = len(self.queue)  # what this variant requests comes after
            texts[key] = build(callee, self.table[key])
            requested[key] = self.queued(before)
        return _callees_first(None, texts, requested)


def reserve(namespace: Namespace, preferred: str) -> str:
    """A module name for a function the module defines."""
    marker = Generated(preferred)
    name = namespace.bind(preferred, marker)
    marker.name = name
    return name


def _callees_first(key: object, texts: dict, requested: dict) -> list[str]:
    """The functions' texts in module order: each function after the variants it
    requested first (in the order it requested them)."""
    out: list[str] = []
    for callee in requested[key]:
        out.extend(_callees_first(callee, texts, requested))
    return out + texts[key]
