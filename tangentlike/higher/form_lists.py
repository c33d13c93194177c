"""Lists in the differentiable form of a generated derivative module (higher/forms.py):
a backward sweep shortens a list adjoint (`unappend`, `unextend`) and restores a list the
function made (`xs.pop()`, `del xs[n:]`) in place. Differentiated again, another name
holding that list (`for v in xs`, a pushed value) would be read after the change. The
form computes the same values without changing any list in place.

Assumes: the functions of a module tangentlike generated. Guarantees: after
`copying_helpers` and `pops_as_rebinding`, those helpers and statements change no list
in place; every other statement is left as it was.
"""

from __future__ import annotations

import ast

from .. import runtime


def copying_helpers(external: dict[str, object]) -> None:
    """The helpers that shorten a list adjoint in place (`unappend`, `unextend`) replaced
    by their copying twins, which compute the same values: a backward sweep of the form
    may read a list again after it was shortened, and differentiating it must see the
    list it had."""
    copying = {runtime.unappend: runtime.unappend_copy, runtime.unextend: runtime.unextend_copy}
    for name, value in external.items():
        for helper, twin in copying.items():
            if value is helper:
                external[name] = twin


def pops_as_rebinding(fn: ast.FunctionDef) -> None:
    """`xs.pop()` and `del xs[n:]` (a backward sweep restoring a list the function made, as
    it was before an append or extend) as `xs = list(xs[:-1])`, `xs = list(xs[:n])`: the same list
    value under that name, and no change to the object another name holds (`for v in xs`
    read it as it was; generated code never reads it through that name after the pop,
    which tangentlike refuses in user code), so the form needs no aliasing check when
    differentiated again. Not for a parameter."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for k, stmt in enumerate(stmts):
                kept = _kept_part(stmt, params)
                if kept is not None:
                    name, upper = kept
                    rest = ast.Subscript(
                        value=_load(name), slice=ast.Slice(upper=upper), ctx=ast.Load()
                    )
                    fresh = ast.Call(func=_load("list"), args=[rest], keywords=[])
                    stmts[k] = ast.copy_location(_assign(name, fresh), stmt)


def _kept_part(stmt: ast.stmt, params: set[str]) -> tuple[str, ast.expr] | None:
    """(xs, n) for `xs.pop()` (n = -1) or `del xs[n:]`, xs a name that is no parameter."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and not call.args
        and not call.keywords
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "pop"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id not in params
    ):
        return call.func.value.id, ast.Constant(-1)
    if isinstance(stmt, ast.Delete) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id not in params
            and isinstance(target.slice, ast.Slice)
            and target.slice.lower is not None
            and target.slice.upper is None
            and target.slice.step is None
        ):
            return target.value.id, target.slice.lower
    return None


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())
