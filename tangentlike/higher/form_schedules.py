"""The differentiable form of a gradient with checkpointed loops: the same gradient with
those loops plain.

A checkpointed loop's generated code drives a schedule object (runtime/schedule.py:
snapshots of the loop state taken and restored, steps run again) that the stack-as-pairs
form of higher/forms.py does not follow. But the schedule changes only what is stored
and what is computed twice, never the gradient: built with `Job.plain_loops` (every
`tl.checkpointed(xs, ...)` loop iterating `xs`, as it does in Python, and no
`checkpoint=` schedule), the same request gives the same gradient to rounding, with
every step recorded on the stack. A gradient differentiated again is that one: its
second derivative (tl.hvp, tl.hessian, tl.grad(tl.grad(f, checkpoint=...)), tl.jvp or
tl.jacobian of the gradient) stores the whole loop, without recomputation.
`with tl.checkpoint():` blocks and `@tl.checkpoint` helpers keep their recomputation:
their generated code uses the stack only, which the form covers.

Assumes: the entry function of a gradient built in this process carries its Job as
`__tangentlike_job__` (build.build puts it there). Guarantees: `schedule_used` finds a
schedule class read anywhere in a generated module; `plain_loops_entry` gives the entry
function of the same request built with plain loops, or None where there is no request
to rebuild (then forms.py refuses the schedule, located at the user's loop). The form
carries PLAIN_NOTE in its text and its derivatives' header (forms.py, Job.header).
"""

from __future__ import annotations

import ast
import dataclasses
import types

from ..runtime import schedule

JOB = "__tangentlike_job__"
PLAIN_NOTE = (
    "The gradient's checkpointed loops run as plain loops here: the same gradient, none recomputed."
)
_PLANS = frozenset(
    name
    for name, value in vars(schedule).items()
    if isinstance(value, type) and issubclass(value, schedule.Plan)
)  # BinomialPlan, IntervalPlan


def schedule_used(tree: ast.Module, namespace: dict[str, object]) -> ast.Name | None:
    """The first name in `tree` whose value in `namespace` is a schedule class (or the
    module's copy of one: a written module carries its helpers), or None."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and is_plan(namespace.get(node.id))
        ):
            return node
    return None


def is_plan(value: object) -> bool:
    """Whether `value` is a schedule class, or a generated module's copy of one."""
    return isinstance(value, type) and value.__name__ in _PLANS


def plain_loops_entry(func: types.FunctionType) -> types.FunctionType | None:
    """The generated entry function of `func`'s request built with its checkpointed loops
    plain; None when `func` carries no request (not an entry function built here) or
    one with stats=True (whose measuring stack the form refuses anyway)."""
    job = getattr(func, JOB, None)
    if job is None or job.plain_loops or job.stats:  # stats: refused as such (forms.py)
        return None
    from ..build import build
    from ..gradients import disk_cache
    from ..rules.registry import default_registry

    plain = dataclasses.replace(job, checkpoint=None, plain_loops=True, jit=False)
    return build(plain, default_registry(), disk_cache(job.cache)).generated
