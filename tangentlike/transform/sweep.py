"""The sweep form: what the reverse transform hands the assembler, as typed values.

Records. The backward visit (transform/reverse.py) returns, for a block of the
function in A-normal form, a `Block`: one frozen record per statement, in source
order. A `Step` is a simple statement, a `Branch` an `if`, a `Loop` a `for` or
`while`; each holds the primal statement and its backward code (`adjoint`: what
the backward sweep runs for it, nested code included, with the Restores below),
a Branch or Loop also the records of its blocks. To-be-recorded analysis
(analyze/tbr.py) reads the records (`reads`: what each adjoint reads, in source
order); the assembler renders them (`backward_code`: the adjoints in reverse).
A forward transform can produce the same records with tangent code in place of
adjoints and nothing to restore.

Statements still to be decided. The backward code of one function is built once,
before anything decides what the forward sweep saves (analyze/tbr.py decides that
from what the backward code reads). Two kinds of statement in that code stand for
something still to be decided, and the assembler (transform/assemble.py) resolves
both before the code is emitted; neither ever reaches the emitter:

- `Restore(site, body)`: put back the value the forward sweep overwrote at `site`
  (`x = _pop()`, `y[i] = _pop()`, `xs.pop()`): kept (as `body`) only when `site`
  turns out to push, dropped otherwise;
- `StepCopy(loop, recorded, reads)`: a copy of a checkpointed loop's body (the
  plain step, or the step as a recording forward sweep runs it), filled in once
  the forward sweep is built. Meanwhile it reads the step's inputs (`reads`), so
  that to-be-recorded analysis sees what the copy will read.

Both are gast statements, so the walks every pass makes (names read, positions,
copies) see their fields; their identity is typed, never a string in the tree.
Comments in the generated code are syntax.nodes.Comment.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import gast

from ..syntax import nodes


@dataclass(frozen=True)
class Step:
    """A simple statement (assignment, item write, call, assert) and its backward code."""

    primal: gast.stmt
    adjoint: tuple[gast.stmt, ...]

    @functools.cached_property
    def reads(self) -> frozenset[str]:
        """Every name the backward code reads (read when first asked: debug-mode checks
        may still wrap the code's values before that)."""
        return frozenset().union(*map(nodes.names_read, self.adjoint))

    @property
    def join_reads(self) -> frozenset[str]:
        """What the zeros a branch's join needs read (none for other statements)."""
        return frozenset()


@dataclass(frozen=True)
class Branch(Step):
    """An `if`: `adjoint` is the `if` the backward sweep runs (zeros where the branches
    join included, also in `zeros`: they run after the pops of the branch's statements);
    `body` and `orelse` the records of the branches."""

    body: tuple[Node, ...] = ()
    orelse: tuple[Node, ...] = ()
    zeros: tuple[gast.stmt, ...] = ()  # zero adjoints where the branches join

    @functools.cached_property
    def join_reads(self) -> frozenset[str]:
        return frozenset().union(*map(nodes.names_read, self.zeros))


@dataclass(frozen=True)
class Loop(Step):
    """A `for` or `while`: `adjoint` is the reversed loop (or a checkpointed loop's
    schedule driver) with the restores after it; `body` the records of one pass."""

    body: tuple[Node, ...] = ()


Node = Step  # Step, Branch or Loop
Block = tuple[Node, ...]


def backward_code(block: Block) -> list[gast.stmt]:
    """The backward sweep of `block`: each statement's adjoint, last statement first,
    positioned at its primal statement."""
    code: list[gast.stmt] = []
    for record in reversed(block):
        code.extend(nodes.located(s, record.primal) for s in record.adjoint)
    return code


class Restore(gast.stmt):
    """`body` (the restore of `site`'s overwritten value), kept only if `site` pushes.

    `site` is the id() of the primal statement (an attribute, not a field: walks do
    not enter the primal statement)."""

    _fields = ("body",)
    body: list[gast.stmt]
    site: int


def restore(site: gast.stmt, body: gast.stmt) -> Restore:
    marker = Restore(body=[body])
    marker.site = id(site)
    return marker


class StepCopy(gast.stmt):
    """A copy of checkpointed `loop`'s body to come: the step as recorded (`recorded`)
    or plain; `reads` is an expression reading the step's inputs."""

    _fields = ("reads",)
    reads: gast.expr
    loop: int
    recorded: bool


def step_copy(loop: gast.stmt, recorded: bool, reads: gast.expr) -> StepCopy:
    marker = StepCopy(reads=reads)
    marker.loop = id(loop)
    marker.recorded = recorded
    return marker
