"""Calls of a forward derivative (`jf = tl.jvp(g)`) inside a differentiated function.

`jf(*args, t)` takes its tangent last; the generated function it runs takes the
tangents as its last parameters, by keyword (`jvp_g(x, *, dx)`), and a differentiated
function calling jf is differentiated through that generated function (parse/resolve:
jf stands for the code it runs). So the call is spelled with the tangents by keyword,
which jf takes too:

    y, dy = jf(x, v)      ->      y, dy = jf(x, dx=v)

A jvp with respect to a tuple takes a tuple of tangents: a display is split
(`jf(x, y, (tx, ty))` -> `jf(x, y, dx=tx, dy=ty)`); a tuple computed otherwise, or a
call passing `*args`, is refused at its line.

Assumes: a parsed function before closures.check. Guarantees: every call whose callee
is a jvp made by tl.jvp (a name or attribute, `__tangentlike_jvp__` on it) passes its
tangents by the keywords of the generated function, or is refused with its location.
"""

from __future__ import annotations

from collections.abc import Callable

import gast

from ..parse.resolve import MISSING, Scope
from ..parse.source import ParsedFunction
from ..syntax.nodes import walk


def run(parsed: ParsedFunction, fn: gast.FunctionDef, scope: Scope) -> None:
    """Spell the tangents of every call of a jvp by keyword (module docstring)."""
    for node in walk(fn):
        if isinstance(node, gast.Call):
            found = getattr(_callee(scope, node.func), "__tangentlike_jvp__", None)
            if found is not None:
                _by_keyword(parsed, node, *found)


def _callee(scope: Scope, func: gast.expr) -> object:
    """The object `func` names, as it is (a jvp, not the generated code it stands for)."""
    if isinstance(func, gast.Name):
        return MISSING if func.id in scope.locals else scope.lookup_original(func.id)
    if isinstance(func, gast.Attribute):
        base = scope.resolve(func.value)
        return MISSING if base is MISSING else getattr(base, func.attr, MISSING)
    return MISSING


def _by_keyword(
    parsed: ParsedFunction, call: gast.Call, keywords: tuple[str, ...], single: bool
) -> None:
    given = {k.arg for k in call.keywords}
    if given & set(keywords):
        return  # already by keyword
    refuse: Callable[[str], Exception] = lambda what: parsed.error(  # noqa: E731
        call,
        what,
        "pass the tangent last as a value of its own, or by keyword: "
        + ", ".join(f"{k}=..." for k in keywords),
    )
    if not call.args or any(isinstance(a, gast.Starred) for a in call.args):
        raise refuse("a jvp called with *args (or no tangent) inside a differentiated function")
    t = call.args.pop()
    if single:
        tangents = [t]
    elif isinstance(t, (gast.Tuple, gast.List)) and len(t.elts) == len(keywords):
        tangents = list(t.elts)  # (a starred item is refused before: parse/fence.py)
    else:
        raise refuse(
            f"a jvp with respect to {len(keywords)} arguments takes a tuple display of "
            "its tangents here, (t1, t2, ...), inside a differentiated function"
        )
    call.keywords = call.keywords + [
        gast.keyword(arg=k, value=v) for k, v in zip(keywords, tangents, strict=True)
    ]
