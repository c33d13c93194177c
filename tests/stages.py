"""Running one stage of the compiler on a small function, for unit tests per stage.

`prepare` parses `def f(...)` from source text with the public stage functions and sets
up what the normalize passes read (a namer, a scope, a namespace), as the pipeline does
for a function without closures or free names to rename. Each pass is then called
directly; `body` renders the function's body compactly (the generated text without the
`def` line, dedented) so that a test states the expected code as it would be written.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

import gast
from reference import load_module

from tangentlike.checkpoint import Schedule
from tangentlike.emit import codegen
from tangentlike.normalize import (
    anf,
    checkpoints,
    closures,
    comprehensions,
    desugar,
    jumps,
    methods,
)
from tangentlike.parse import fence
from tangentlike.parse.record import Recorder
from tangentlike.parse.resolve import Scope
from tangentlike.parse.source import ParsedFunction, parse_function
from tangentlike.rules.registry import Registry, default_registry
from tangentlike.syntax import nodes
from tangentlike.syntax.names import Namer
from tangentlike.syntax.namespace import Namespace
from tangentlike.transform import in_place

HEADER = "import numpy as np\n\nimport tangentlike as tl\n\n\n"  # what `source` may use


@dataclass
class Stage:
    """A function being normalized, and what the passes read."""

    parsed: ParsedFunction
    fn: gast.FunctionDef
    namer: Namer
    scope: Scope
    namespace: Namespace
    registry: Registry = field(default_factory=default_registry)
    # what anf finds for later stages: checkpointed loops, temporaries of updates in place
    checkpointed: dict = field(default_factory=dict)
    update_temps: dict[int, str] = field(default_factory=dict)

    def desugar(self) -> Stage:
        desugar.run(self.fn, self.namer, self.scope)
        return self

    def jumps(self) -> Stage:
        jumps.run(self.fn, self.namer)
        return self

    def comprehensions(self) -> Stage:
        comprehensions.run(self.fn, self.parsed, self.namer, self.namespace, self.scope)
        return self

    def checkpoints(self, default: Schedule | None = None) -> Stage:
        checkpoints.run(self.fn, self.parsed, self.scope, self.namespace, self.namer, default)
        return self

    def methods(self) -> Stage:
        known = methods.known_classes(self.fn, {})
        methods.run(
            self.fn,
            self.parsed,
            self.scope,
            self.namespace,
            self.namer,
            known,
            lambda func, param, cls: True,
            lambda obj, kind: None,
        )
        return self

    def anf(self) -> Stage:
        """desugar, jumps and A-normal form, as the pipeline runs them."""
        self.desugar().jumps()
        anf.run(
            self.fn,
            self.parsed,
            self.scope,
            self.registry,
            self.namespace,
            self.namer,
            frozenset(),
            self.checkpointed,
            self.update_temps,
        )
        anf.check(self.fn, self.parsed)
        return self

    def normalize(self, default: Schedule | None = None) -> Stage:
        """Every normalize pass in the pipeline's order (no nested functions)."""
        return self.checkpoints(default).comprehensions().methods().anf()

    def in_place(self) -> Stage:
        """Updates in place lowered (transform.in_place), callees' effects unknown."""
        in_place.run(
            self.fn,
            self.parsed,
            self.scope,
            self.registry,
            self.namespace,
            self.namer,
            lambda func: None,
            self.update_temps,
        )
        return self

    def body(self) -> str:
        return body(self.fn)


def prepare(tmp_path, source: str, name: str = "f") -> Stage:
    """`name` of the module `source` (with HEADER's imports), parsed, fenced and copied."""
    module = load_module(tmp_path, HEADER + textwrap.dedent(source))
    parsed = parse_function(getattr(module, name))
    fence.check(parsed)
    fn = nodes.deepcopy(parsed.node)
    user_locals = closures.function_locals(fn)
    namespace = Namespace()
    every_name = {n.id for n in gast.walk(fn) if isinstance(n, gast.Name)}
    namer = Namer(reserved=every_name | set(namespace.objects), locals_=user_locals)
    scope = Scope(parsed.func, user_locals, namespace.objects, Recorder())
    return Stage(parsed, fn, namer, scope, namespace)


def body(fn: gast.FunctionDef) -> str:
    """The body of `fn` as source, dedented, without the `def` line."""
    text = codegen.function_source(fn, None)
    lines = text.splitlines()[1:]
    return textwrap.dedent("\n".join(lines)).strip("\n")


def code(text: str) -> str:
    """Expected code written in a test, dedented."""
    return textwrap.dedent(text).strip("\n")


def unparse(node: gast.AST) -> str:
    """One statement or expression as Python source, on one line."""
    return ast.unparse(gast.gast_to_ast(node)).replace("\n", "; ")


def annotated(fn: gast.FunctionDef, fact: Callable[[gast.stmt], object]) -> str:
    """The body of `fn`, each simple statement followed by `  # <fact(stmt)>` when the
    fact is not None or empty: what an analysis says about each statement, as text."""
    lines: list[str] = []

    def block(stmts: list[gast.stmt], pad: str) -> None:
        for stmt in stmts:
            if isinstance(stmt, gast.If):
                lines.append(f"{pad}if {unparse(stmt.test)}:")
                block(stmt.body, pad + "    ")
                if stmt.orelse:
                    lines.append(f"{pad}else:")
                    block(stmt.orelse, pad + "    ")
            elif isinstance(stmt, gast.For):
                lines.append(f"{pad}for {unparse(stmt.target)} in {unparse(stmt.iter)}:")
                block(stmt.body, pad + "    ")
            elif isinstance(stmt, gast.While):
                lines.append(f"{pad}while {unparse(stmt.test)}:")
                block(stmt.body, pad + "    ")
            else:
                note = fact(stmt)
                lines.append(f"{pad}{unparse(stmt)}" + (f"  # {note}" if note else ""))

    block(fn.body, "")
    return "\n".join(lines)


def names(found: object) -> str:
    """A set of names as sorted, comma-separated text."""
    return ", ".join(sorted(found))
