"""The user's names in messages: a parameter's own copy is shown as the parameter.

Assumes: transform.argument_copies names the copies of a parameter `y` the function
changes `_y_own<n>` and `_y_caller<n>` (syntax.names.Namer.temp). Guarantees: `shown`
replaces such a name by `y` wherever y is a parameter of the function and the name is
not one the user wrote; every other word is kept as it is.
"""

from __future__ import annotations

import re

import gast

from ..syntax import nodes

_COPY = re.compile(r"\b_([A-Za-z_]\w*?)_(?:own|caller)\d+\b")


def own_param(name: str, fn: gast.FunctionDef, source: str) -> str | None:
    """The parameter whose copy `name` is (`_y_own1` -> 'y'), else None."""
    found = _COPY.fullmatch(name)
    if found is None or found.group(1) not in nodes.all_param_names(fn):
        return None
    if re.search(rf"\b{re.escape(name)}\b", source):  # the user's own name
        return None
    return found.group(1)


def shown(text: str, fn: gast.FunctionDef, source: str) -> str:
    """`text` with every own-copy name of a parameter replaced by the parameter."""
    return _COPY.sub(lambda m: own_param(m.group(0), fn, source) or m.group(0), text)
