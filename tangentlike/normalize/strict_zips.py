"""Loops over `zip(..., strict=True)`, for the loop lowering (normalize/desugar.py).

Assumes: the fence passed; desugar lowers the loop over a zip to positions (the
range of the shortest sequence's length). Guarantees: a strict zip that the loop
runs to its end (the loop's iterable, or enumerate's argument there) is lowered as a
non-strict one, with `zip_strict_end(n1, n2, ...)` of the sequences' lengths (taken
before the loop, as the range is) first in the loop's `else:`: what runs when the loop
ends without break or return, where Python's strict zip raises, after the last step;
runtime.zip_strict_end raises Python's own ValueError when the lengths differ. A strict
zip nested in another zip (which may stop before the strict one's end, so that it
never raises) is refused at its line.
"""

from __future__ import annotations

import builtins

import gast

from .. import runtime
from ..errors import UnsupportedSyntaxError
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace


def strict_zip(call: gast.expr, scope: Scope) -> gast.Call | None:
    """`call` when it is `zip(a, b, ..., strict=True)` with two sequences or more."""
    if not (isinstance(call, gast.Call) and len(call.args) > 1 and len(call.keywords) == 1):
        return None
    keyword = call.keywords[0]
    if any(isinstance(a, gast.Starred) for a in call.args) or keyword.arg != "strict":
        return None
    if not (isinstance(keyword.value, gast.Constant) and keyword.value.value is True):
        return None
    return call if scope.resolve(call.func) is builtins.zip else None


class StrictZips:
    """The check a loop over a strict zip ends with, and the refusal of a nested one."""

    def __init__(self, namespace: Namespace, namer: Namer, parsed: ParsedFunction) -> None:
        self.namespace, self.namer, self.parsed = namespace, namer, parsed

    def end(self, lengths: list[gast.expr]) -> gast.stmt:
        """`zip_strict_end(n1, n2, ...)` (the helper bound only where a loop needs it)."""
        name = self.namespace.bind("zip_strict_end", runtime.zip_strict_end, self.namer)
        return gast.Expr(value=nodes.call(nodes.name(name), lengths))

    def refuse(self, call: gast.Call) -> UnsupportedSyntaxError:
        return self.parsed.error(
            call,
            "a zip(..., strict=True) inside another zip: the outer zip may stop before the "
            "strict one reaches its end (where it checks the lengths)",
            "zip all the sequences in one zip(..., strict=True), or check their lengths "
            "with an if before the loop",
        )
