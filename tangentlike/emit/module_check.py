"""The generated module's contract: every name a function reads is bound.

`check(module)` raises `InternalError` naming the function and the name when a
function of the generated module reads a global name that neither the module
binds (a definition, import or constant), nor the loader binds (`external`), nor
Python's builtins provide: such a module would fail with NameError only on the
path that reads it. Run in debug mode (pipeline: `checks=True`,
TANGENTLIKE_CHECKS=1) and by the tests; emit/roundtrip.py checks the text of each
function against its tree on every build.
"""

from __future__ import annotations

import builtins
import symtable

from ..errors import InternalError
from .module import ModuleText


def check(module: ModuleText) -> None:
    try:
        top = symtable.symtable(module.source, "<generated>", "exec")
    except SyntaxError as err:
        raise InternalError(f"the generated module does not parse: {err}") from None
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    bound |= set(module.external) | set(dir(builtins)) | {"__name__", "__file__", "__doc__"}
    for table in top.get_children():
        _check_scope(table, bound)


def _check_scope(table: symtable.SymbolTable, bound: set[str]) -> None:
    for symbol in table.get_symbols():
        name = symbol.get_name()
        if symbol.is_referenced() and symbol.is_global() and name not in bound:
            raise InternalError(
                f"the generated module reads `{name}` in {table.get_name()} "
                "but never binds it (a compiler bug: please report it)"
            )
    for child in table.get_children():
        _check_scope(child, bound)
