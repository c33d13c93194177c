"""The sweep form: what a transform hands the assembler, as typed values.

Records. Both transforms return, for a block of the function in A-normal form, a
`Block`: one frozen record per statement, in source order. A `Step` is a simple
statement, a `Branch` an `if`, a `Loop` a `for` or `while`; each holds the primal
statement and its derivative code (`code`), a Branch or Loop also the records of
its blocks.

- Reverse mode (transform/reverse.py): `code` is what the backward sweep runs for
  the statement (nested code included, with the Restores below). To-be-recorded
  analysis (analyze/tbr.py) reads the records (`reads`: what each adjoint reads, in
  source order); the assembler renders them (`backward_code`: last statement first).
- Forward mode (transform/forward.py): `code` is the tangent statements that run
  right after the primal one (none for a Branch or Loop: their bodies hold them);
  nothing to restore; `forward_code` renders each primal followed by its tangents.

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
    """A simple statement (assignment, item write, call, assert) and its derivative
    code: its adjoint (reverse mode) or its tangent statements (forward mode)."""

    primal: gast.stmt
    code: tuple[gast.stmt, ...] = ()

    @functools.cached_property
    def reads(self) -> frozenset[str]:
        """Every name the derivative code reads (read when first asked: debug-mode
        checks may still wrap the code's values before that)."""
        return frozenset().union(*map(nodes.names_read, self.code))

    @property
    def join_reads(self) -> frozenset[str]:
        """What the zeros a branch's join needs read (none for other statements)."""
        return frozenset()


@dataclass(frozen=True)
class Branch(Step):
    """An `if`: in reverse mode `code` is the `if` the backward sweep runs (zeros where
    the branches join included, also in `zeros`: they run after the pops of the
    branch's statements); `body` and `orelse` the records of the branches."""

    body: tuple[Node, ...] = ()
    orelse: tuple[Node, ...] = ()
    zeros: tuple[gast.stmt, ...] = ()  # zero adjoints where the branches join

    @functools.cached_property
    def join_reads(self) -> frozenset[str]:
        return frozenset().union(*map(nodes.names_read, self.zeros))


@dataclass(frozen=True)
class Loop(Step):
    """A `for` or `while`: in reverse mode `code` is the reversed loop (or a
    checkpointed loop's schedule driver) with the restores after it; `body` the
    records of one pass."""

    body: tuple[Node, ...] = ()


Node = Step  # Step, Branch or Loop
Block = tuple[Node, ...]


def backward_code(block: Block) -> list[gast.stmt]:
    """The backward sweep of `block`: each statement's adjoint, last statement first,
    positioned at its primal statement."""
    code: list[gast.stmt] = []
    for record in reversed(block):
        code.extend(nodes.located(s, record.primal) for s in record.code)
    return code


def forward_code(block: Block) -> list[gast.stmt]:
    """The forward-mode statements of `block`: each primal statement followed by its
    tangent statements (which carry no position: comments name the primal lines
    only), branches and loops around their rendered bodies."""
    out: list[gast.stmt] = []
    for record in block:
        if isinstance(record, Branch):
            head = record.primal
            branch = nodes.if_(
                nodes.deepcopy(head.test),
                forward_code(record.body) or [gast.Pass()],
                forward_code(record.orelse),
            )
            out.append(_at(branch, head))
        elif isinstance(record, Loop):
            head = record.primal
            body = forward_code(record.body) or [gast.Pass()]
            if isinstance(head, gast.For):
                loop = gast.For(
                    target=nodes.deepcopy(head.target),
                    iter=nodes.deepcopy(head.iter),
                    body=body,
                    orelse=[],
                    type_comment=None,
                )
            else:
                loop = nodes.while_(nodes.deepcopy(head.test), body)
            out.append(_at(loop, head))
        else:
            out.append(record.primal)
            out.extend(record.code)
    return out


def _at(new: gast.stmt, old: gast.stmt) -> gast.stmt:
    """`new` at `old`'s position (not its children: tangents carry no position)."""
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))
    return new


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
