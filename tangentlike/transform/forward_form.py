"""The forward-mode sweep form: what the jvp transform of one function returns.

A frozen tree with one record per A-normal-form statement: a `Step` holds the primal
statement and the tangent statements that follow it; `Branch` and `Loop` hold the
records of their bodies. Forward mode has one sweep, no stack and nothing to record,
so a Step is reverse mode's Step (transform/sweep.py, issue 11) with `tangent` in
place of `adjoint` and no overwrites: the two can be unified there.

`render` turns the tree into statements: each primal statement followed by its
tangent statements, branches and loops around the rendered bodies.
"""

from __future__ import annotations

from dataclasses import dataclass

import gast

from ..syntax import nodes


@dataclass(frozen=True)
class Step:
    """One statement: the primal and its tangent statements (run right after it)."""

    primal: gast.stmt
    tangent: tuple[gast.stmt, ...] = ()
    origin: int | None = None  # line of the original source


@dataclass(frozen=True)
class Branch:
    """`if test: body else: orelse` (head: the original If, whose branches are
    ignored), the tangents inside each branch."""

    head: gast.If
    body: Block
    orelse: Block


@dataclass(frozen=True)
class Loop:
    """A `for` or `while` loop: its head (the original loop, whose body is ignored) and
    the records of its body."""

    head: gast.For | gast.While
    body: Block


Node = Step | Branch | Loop
Block = tuple[Node, ...]


def render(block: Block) -> list[gast.stmt]:
    """The statements of `block`: each primal followed by its tangent statements."""
    out: list[gast.stmt] = []
    for node in block:
        if isinstance(node, Step):
            out.append(node.primal)
            out.extend(node.tangent)  # no position: comments name the primal lines only
        elif isinstance(node, Branch):
            stmt = nodes.if_(
                nodes.deepcopy(node.head.test),
                render(node.body) or [gast.Pass()],
                render(node.orelse),
            )
            out.append(_at(stmt, node.head))
        else:
            head = node.head
            body = render(node.body) or [gast.Pass()]
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
    return out


def _at(new: gast.stmt, old: gast.stmt) -> gast.stmt:
    """`new` at `old`'s position (not its children: tangents carry no position)."""
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))
    return new
