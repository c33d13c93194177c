"""Lowering a generated jvp module (forward mode, one direction): the Python ends of its
entry split off, its helpers' variants given positional parameters.

Assumes: the text of a module built by pipeline_forward for Mode.JVP: an entry whose
first statements check the caller's tangents (`dx = tangent_like(dx, x, 'x')`) and
whose last returns `value, output_tangent(tangent, value)`; callees' variants
`_jvp_<f>(..., *, du)` taking their tangents by keyword. Guarantees: the checks move to
a Python `_start_<entry>(params...)` returning the entry's parameters, run before the
compiled entry; the output's shaping goes to the Python finish function
(emit.split_return, OUTPUT); keyword-only parameters become positional ones with the
same names (numba's nopython mode takes keyword calls, not keyword-only parameters).
"""

from __future__ import annotations

import ast

from ..syntax.nodes import walk
from .context import OUTPUT, START, Module, is_name, load

VARIANT = "_jvp_"  # the prefix of callees' forward variants


def is_forward(fn: ast.FunctionDef) -> bool:
    """Whether `fn` is a jvp entry: it checks tangents or shapes an output tangent."""
    return any(
        isinstance(n, ast.Call) and (is_name(n.func, START) or is_name(n.func, OUTPUT))
        for n in walk(fn)
    )


def split_start(fn: ast.FunctionDef, start: str, module: Module) -> ast.FunctionDef:
    """Move `fn`'s leading `d = tangent_like(...)` statements into the Python function
    `start(params...)`, which returns the parameters `fn` then takes, as a tuple."""
    checks: list[ast.stmt] = []
    while fn.body and _is_check(fn.body[0]):
        checks.append(fn.body.pop(0))
    later = [n for n in walk(fn) if isinstance(n, ast.Call) and is_name(n.func, START)]
    if later:
        raise module.refuse(later[0], f"a check of tangents ({START}) inside the body")
    params = [a.arg for a in fn.args.args]
    result = ast.Tuple([load(p) for p in params], ast.Load())
    args = ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, [])
    start_def = ast.FunctionDef(start, args, [*checks, ast.Return(result)], [], None, None)
    return ast.fix_missing_locations(start_def)


def positional(fn: ast.FunctionDef) -> None:
    """Make `fn`'s keyword-only parameters positional ones, after the others; after a
    parameter with a default they get the default None (callers always pass them by
    keyword: the generated calls of a variant name every tangent)."""
    args = fn.args
    if args.vararg or args.kwarg:
        return  # refused by the construct check (a starred parameter)
    defaults = [*args.defaults]
    for default in args.kw_defaults:
        if default is None and defaults:
            default = ast.Constant(None)
        if default is not None:
            defaults.append(default)
    args.args += args.kwonlyargs
    args.defaults = defaults
    args.kwonlyargs, args.kw_defaults = [], []


def _is_check(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
        and is_name(stmt.value.func, START)
    )
