"""The sweep form's invariants (transform/sweep.py), checked between the stages.

`backward(code, fn, checkpointed)`, on the backward code a visit returned, before
to-be-recorded analysis reads it: every Restore restores a statement of `fn` and
holds plain statements; every StepCopy copies a checkpointed loop of `fn`.
`resolved(functions)`, on the generated functions: no Restore and no StepCopy is
left, every comment names no sweep or a known one. A violation raises
`InternalError` (a compiler bug, never an `assert`). Run in debug mode (assemble,
`checks=True`) and by the tests.
"""

from __future__ import annotations

from collections.abc import Iterable

import gast

from ..errors import InternalError
from ..syntax import nodes
from ..syntax.nodes import walk
from .sweep import Restore, StepCopy

SWEEPS = (None, "forward", "backward")


def backward(code: list[gast.stmt], fn: gast.FunctionDef, checkpointed: Iterable[int]) -> None:
    sites = {id(s) for s in walk(fn) if isinstance(s, gast.stmt)}
    loops = set(checkpointed)
    for node in _walk(code):
        if isinstance(node, Restore):
            if node.site not in sites:
                raise _broken("a Restore names a statement the function does not have", node)
            if not node.body or any(isinstance(n, (Restore, StepCopy)) for n in _walk(node.body)):
                raise _broken("a Restore holds plain restore statements", node)
        elif isinstance(node, StepCopy) and node.loop not in loops:
            raise _broken("a StepCopy copies a loop that is not checkpointed", node)


def resolved(functions: Iterable[gast.FunctionDef]) -> None:
    for fn in functions:
        for node in _walk(fn.body):
            if isinstance(node, (Restore, StepCopy)):
                raise _broken("the assembler resolves every Restore and StepCopy", node)
            if isinstance(node, nodes.Comment) and node.sweep not in SWEEPS:
                raise _broken(f"a comment opens a sweep of {SWEEPS[1:]}", node)


def _walk(stmts: list[gast.stmt]):
    for stmt in stmts:
        yield from walk(stmt)


def _broken(clause: str, node: gast.AST) -> InternalError:
    line = getattr(node, "lineno", None)
    where = f" (for source line {line})" if line else ""
    return InternalError(f"sweep form broken: {clause}{where}")
