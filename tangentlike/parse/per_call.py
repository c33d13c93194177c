"""A gradient tangentlike builds at each call (specialize.per_call: the function
differentiated takes an object or a function whose class or identity decides what
runs) reached as a function to differentiate again (tl.hvp, tl.hessian, tl.grad of a
function calling it).

Assumes: such a gradient carries `built_per_call` (the parameters it is specialised on)
and `__wrapped__` (the user's function, functools.update_wrapper's). Guarantees: an
UnsupportedSyntaxError located at the user's function, naming it and the parameters,
instead of the refusal of tangentlike's own wrapper code (`*args` in specialize.py).
"""

from __future__ import annotations

import linecache
from collections.abc import Callable

from ..errors import SourceLocation, UnsupportedSyntaxError


def refusal(func: Callable) -> UnsupportedSyntaxError | None:
    """The error for differentiating the per-call gradient `func` again; None if `func`
    is not one."""
    params = getattr(func, "built_per_call", None)
    if not params:
        return None
    user = getattr(func, "__wrapped__", None)
    name = getattr(user, "__qualname__", "the function")
    code = getattr(user, "__code__", None)
    where = None
    if code is not None:
        text = linecache.getline(code.co_filename, code.co_firstlineno)
        where = SourceLocation(code.co_filename, code.co_firstlineno, 0, text)
    passed = ", ".join(f"`{p}`" for p in params)
    return UnsupportedSyntaxError(
        f"the gradient of {name} is built at each call, for what is passed as {passed} "
        "(its class or function decides what runs), so it has no source to differentiate "
        "again (second order: tl.hvp, tl.hessian, grad of a function calling it)",
        where,
        hint=f"What to do: for second order, write {name} with the function it calls "
        f"named in its body (a global such as np.sum) rather than passed as {passed}",
    )
