"""Zero adjoints of number parameters as the number 0.0, not a 0-d array.

`ba = np.zeros_like(a)` with `a` a Python float makes a 0-d array, and every later
`ba = ba + g` is array arithmetic (slow, and a NumPy value where a float does).

Assumes: a build specialised to calls that pass the parameters `scalars` Python
floats or ints (job.Job.scalars; the wrapper runs it for no other call).
Guarantees: `b = np.zeros_like(p)` becomes `b = 0.0` only for p in `scalars` that
the function never rebinds (so p is that number there); 0.0 plus any contribution
is the value the 0-d zeros give, and the gradient's type comes from gradient_like.
"""

from __future__ import annotations

import gast
import numpy as np

from ..syntax import nodes
from ..syntax.nodes import walk
from .accumulate import Resolve


def run(fn: gast.FunctionDef, scalars: tuple[str, ...], resolve: Resolve) -> gast.FunctionDef:
    """Replace each qualifying zero-initialisation in `fn` (see the module docstring)."""
    if not scalars:
        return fn
    stored = {n.id for n in walk(fn) if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    params = {a.id for a in fn.args.args if isinstance(a, gast.Name)}
    numbers = {p for p in scalars if p in params and p not in stored}
    for node in walk(fn):
        if (
            isinstance(node, gast.Assign)
            and isinstance(node.value, gast.Call)
            and len(node.value.args) == 1
            and not node.value.keywords
            and isinstance(node.value.args[0], gast.Name)
            and node.value.args[0].id in numbers
            and resolve(node.value.func) is np.zeros_like
        ):
            node.value = nodes.const(0.0)
    return fn
