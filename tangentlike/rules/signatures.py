"""A function's parameters as `inspect.signature` gives them, read from its code object.

Registering the built-in rules reads the signature of every template, tangent
template and runtime primal (over 400 functions); `inspect.signature` builds a
Parameter object per parameter through its enum and validation machinery, about
half of the registration's time. For a plain function (not wrapped, no
`__signature__`) the same names, kinds and defaults come straight from
`__code__`, `__defaults__` and `__kwdefaults__`; anything else asks inspect.
"""

from __future__ import annotations

import inspect
import types

_P = inspect.Parameter
Parameters = dict[str, tuple[inspect._ParameterKind, object]]


def parameters(func: object) -> Parameters:
    """`{name: (kind, default)}` in `inspect.signature(func).parameters` order; a
    parameter without a default has `inspect.Parameter.empty`."""
    if (
        type(func) is not types.FunctionType
        or hasattr(func, "__wrapped__")
        or "__signature__" in func.__dict__
    ):
        return {n: (p.kind, p.default) for n, p in inspect.signature(func).parameters.items()}
    code = func.__code__
    names = code.co_varnames
    positional, kwonly = code.co_argcount, code.co_kwonlyargcount
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    first_default = positional - len(defaults)
    out: Parameters = {}
    for i in range(positional):
        kind = _P.POSITIONAL_ONLY if i < code.co_posonlyargcount else _P.POSITIONAL_OR_KEYWORD
        out[names[i]] = (kind, defaults[i - first_default] if i >= first_default else _P.empty)
    after = positional + kwonly  # *args, then **kwargs, follow the keyword-only names
    if code.co_flags & inspect.CO_VARARGS:
        out[names[after]] = (_P.VAR_POSITIONAL, _P.empty)
        after += 1
    for name in names[positional : positional + kwonly]:
        out[name] = (_P.KEYWORD_ONLY, kwdefaults.get(name, _P.empty))
    if code.co_flags & inspect.CO_VARKEYWORDS:
        out[names[after]] = (_P.VAR_KEYWORD, _P.empty)
    return out
