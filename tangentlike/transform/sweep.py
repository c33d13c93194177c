"""The sweep form: what the reverse transform hands the assembler, as typed values.

The backward code of one function is built once, before anything decides what the
forward sweep saves (analyze/tbr.py decides that from what the backward code
reads). Two kinds of statement in that code stand for something still to be
decided, and the assembler (transform/assemble.py) resolves both before the code
is emitted; neither ever reaches the emitter:

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

import gast


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
