"""Which expressions generated code may drop or inline: those without side effects.

Assumes: a build's Context (its scope and rule registry). Guarantees: `pure` is True
only for operations and calls of rule-backed functions, of checkpoint schedules'
constructors, and (with `helpers`, for backward code) of runtime helpers and NumPy.
"""

from __future__ import annotations

import gast

from .. import runtime
from ..runtime import schedule
from ..syntax.nodes import walk
from ..transform.context import Context


def pure(ctx: Context, value: gast.expr, helpers: bool = False) -> bool:
    """Whether computing `value` has no side effects: operations, calls of rule-backed
    functions, and (with `helpers`) calls of runtime helpers and NumPy in backward code."""
    for node in walk(value):
        if isinstance(node, gast.JoinedStr):
            return False
        if isinstance(node, gast.Call):
            callee = ctx.scope.resolve(node.func)
            if ctx.registry.lookup(callee) is not None:
                continue
            if helpers and (runtime.owns(callee) or getattr(callee, "__module__", "") == "numpy"):
                continue
            if isinstance(callee, type) and issubclass(callee, schedule.Plan):
                continue  # making a checkpoint schedule changes nothing else
            return False
    return True
