"""What the reverse-mode transformation of one function reads and decides.

Filled by `reverse.plan` (adjoint names, call variants, loop counters,
checkpointed loop states) and by `assemble` (which sites push); read by
every part of the transform.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import gast

from .. import runtime
from ..analyze.activity import Activity
from ..analyze.effects import Effects
from ..analyze.flow import Flow
from ..analyze.shapes import Shapes
from ..errors import UnsupportedSyntaxError
from ..normalize.checkpoints import CheckpointedLoop
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..rules.registry import Registry
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace


@dataclass(frozen=True)
class Variant:
    """The split (forward, backward) pair generated for one callee and set of active params."""

    fwd: str
    bwd: str
    active: tuple[str, ...]


class VariantRequests(Protocol):
    """Where planning requests the split variant of a callee: the names are reserved
    at once, the variant is built later (worklist.Worklist), never during the visit."""

    def request(self, func: object, active: tuple[str, ...]) -> Variant: ...


@dataclass(frozen=True)
class LoopState:
    """A checkpointed loop's state (saved and restored), the part of it written in place
    (copied), and every name a step reads before assigning it (its inputs)."""

    names: list[str]
    copies: frozenset[str]  # arrays written by index: np.copy
    inputs: frozenset[str]
    lists: frozenset[str] = frozenset()  # lists grown by append/extend: list(...)


@dataclass
class Context:
    """Everything the transformation of one function reads; nothing here changes per visit."""

    parsed: ParsedFunction
    fn: gast.FunctionDef
    scope: Scope
    registry: Registry
    namespace: Namespace
    namer: Namer
    activity: Activity
    flow: Flow
    variants: VariantRequests
    stack: str = "_stack"  # the per-call list, and its bound append and pop
    push: str = "_push"
    pop: str = "_pop"
    adjoint: dict[str, str] = field(default_factory=dict)
    calls: dict[int, tuple[Variant, dict[str, gast.expr]]] = field(default_factory=dict)
    counters: dict[int, tuple[str, bool]] = field(default_factory=dict)
    pushed: frozenset[int] = frozenset()  # id() of the sites that push
    structured: frozenset[str] = frozenset()  # adjoint may be a list/dict (transform.containers)
    # lists and dicts the function makes and writes into by index or key (container_writes)
    container_writes: frozenset[str] = frozenset()
    shapes: Shapes = field(default_factory=Shapes)  # which operands have the result's shape
    array_params: frozenset[str] = frozenset()  # passed ndarrays (a specialised build)
    checkpointed: dict[int, CheckpointedLoop] = field(default_factory=dict)  # id(loop) ->
    stats: bool = False  # the stack is a measuring schedule.Tape
    checks: bool = False  # debug mode: the code checks itself at run time (transform.checks)
    carried: dict[int, LoopState] = field(default_factory=dict)  # id(checkpointed loop) ->
    prebound: set[str] = field(default_factory=set)  # loop state that may be unbound: `= None`
    recorded: dict[int, list[gast.stmt]] = field(default_factory=dict)  # id(loop) -> body
    plain: dict[int, list[gast.stmt]] = field(default_factory=dict)  # id(loop) -> body
    recomputed: set[int] = field(default_factory=set)  # id() of calls of @checkpoint functions
    # id(t = p[k]) -> (p, where): a parameter of unknown class indexed by a varied value,
    # checked at run time to be a container (runtime.selects)
    selections: dict[int, tuple[str, str]] = field(default_factory=dict)
    # what a user function does to its arguments' memory (analyze.effects), None if unknown
    effects_of: Callable[[object], Effects | None] = lambda func: None
    complex_values: frozenset[str] = frozenset()  # locals that may be complex (complex_gate)
    # the entry function's differentiated parameters, which the wrapper checks to be float
    # arrays or numbers at each call (wrapper.py), and which it never rebinds
    checked: frozenset[str] = frozenset()
    # id(bt * y) -> (t, y): y (a name, or an expression's id()) has the shape of t, whose
    # adjoint is bt (shaped_products.py)
    shaped_products: dict[int, tuple[str, str | int]] = field(default_factory=dict)
    # id() of `undiff(g, a, 1, axis)` calls whose `a` is a vector (transform/differences.py)
    vector_differences: set[int] = field(default_factory=set)
    # the nodes whose id() the two tables above hold, kept alive: a node a later pass
    # drops would otherwise give its id() to a new node (a Name taken for an undiff call)
    kept_nodes: list[gast.AST] = field(default_factory=list)

    @property
    def active(self) -> frozenset[str]:
        return self.activity.active

    def helper(self, name: str) -> gast.Name:
        """A reference to the runtime helper `name`, bound in the generated module."""
        return nodes.name(self.namespace.bind(name, getattr(runtime, name), self.namer))

    def np(self, attr: str) -> gast.expr:
        return self.namespace.ref(f"numpy.{attr}", self.namer)

    def error(self, node: gast.AST, what: str, hint: str) -> UnsupportedSyntaxError:
        return self.parsed.error(node, what, hint)
