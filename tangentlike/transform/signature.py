"""The parameters a generated function shares with its original beyond the positional ones.

Assumes: functions from assemble.build, whose argument lists hold the original's
positional parameters (plus the stack, and the seed of an entry function).
Guarantees: they also take the original's *args, keyword-only parameters (with
their defaults) and **kwargs; an entry function's seed stays its last parameter
before **kwargs (keyword-only after *args or keyword-only parameters).
"""

from __future__ import annotations

import gast

from ..syntax import nodes


def carry(generated: list[gast.FunctionDef], original: gast.FunctionDef, split: bool) -> None:
    a = original.args
    if a.vararg is None and a.kwarg is None and not a.kwonlyargs:
        return
    target = generated[0].args  # the entry function, or the forward half
    if (a.vararg is not None or a.kwonlyargs) and not split:
        seed = target.args.pop()
        default = target.defaults.pop()
        target.kwonlyargs, target.kw_defaults = [seed], [default]
    target.vararg = nodes.deepcopy(a.vararg)
    target.kwonlyargs = [*nodes.deepcopy(a.kwonlyargs), *target.kwonlyargs]
    target.kw_defaults = [*nodes.deepcopy(a.kw_defaults), *target.kw_defaults]
    target.kwarg = nodes.deepcopy(a.kwarg)
