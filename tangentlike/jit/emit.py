"""The lowered module's text: the entry's return split into raw outputs (numba) and their
shaping (Python), then every function written out with the generated text's comments.

Assumes: functions lowered by stacks.py. Guarantees: each lowered statement keeps the
origin comment of the statement it came from, and `Lowered.origins` maps each line of
the text to the user's line it stands for (for numba's refusals).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from ..syntax.nodes import walk
from .context import (
    FINISH,
    FORWARD_KERNELS,
    JOIN_KERNELS,
    OUTPUT,
    Lowered,
    Module,
    is_name,
    load,
    names_in,
)

# ---------------------------------------------------------------------------
# the entry's return: raw adjoints out of numba, shaped in Python


def split_return(fn: ast.FunctionDef, finish: str, module: Module) -> ast.FunctionDef:
    """Make `fn` return its raw outputs as a tuple; return the Python function
    `finish(params..., _out)` computing what `fn` returned from them."""
    returns = [n for n in walk(fn) if isinstance(n, ast.Return)]
    last = fn.body[-1]
    if len(returns) != 1 or returns[0] is not last:
        raise module.refuse(returns[-1] if returns else fn, "a return before the end")
    params = {a.arg for a in fn.args.args}
    entry = _entry_names(fn, params)
    outs: list[ast.expr] = []
    out = module.fresh("_out")

    def part(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Tuple):
            return ast.Tuple([part(e) for e in node.elts], ast.Load())
        if isinstance(node, ast.Call) and is_name(node.func, OUTPUT) and not node.keywords:
            return ast.Call(node.func, [part(a) for a in node.args], [])
        if isinstance(node, ast.Call) and is_name(node.func, FINISH):
            b, x, *rest = node.args
            if isinstance(x, ast.Name) and x.id in entry:
                x = load(entry[x.id])  # a second name of the parameter as on entry
            if not (isinstance(x, ast.Name) and x.id in params):
                raise module.refuse(last, "a gradient of something other than a parameter")
            return ast.Call(node.func, [part(b), x, *rest], [])
        outs.append(node)
        index = ast.Constant(len(outs) - 1)
        return ast.Subscript(load(out), index, ast.Load())

    shaped = part(last.value)
    last.value = ast.Tuple(outs, ast.Load())
    names = [ast.arg(a.arg) for a in fn.args.args] + [ast.arg(out)]
    args = ast.arguments([], names, None, [], [], None, [])
    finish_def = ast.FunctionDef(finish, args, [ast.Return(shaped)], [], None, None)
    return ast.fix_missing_locations(finish_def)


def _entry_names(fn: ast.FunctionDef, params: set[str]) -> dict[str, str]:
    """alias -> parameter for the top-level `alias = parameter` statements of `fn` that
    come before any other binding of the parameter, where the alias is bound nowhere
    else (transform/assemble.py's entry aliases): the alias is the argument passed."""
    stored: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored[node.id] = stored.get(node.id, 0) + 1
    found: dict[str, str] = {}
    rebound: set[str] = set()
    for stmt in fn.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Name)
            and stmt.value.id in params
            and stmt.value.id not in rebound
            and stored.get(stmt.targets[0].id) == 1
        ):
            found[stmt.targets[0].id] = stmt.value.id
        for node in walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                rebound.add(node.id)
    return found


# ---------------------------------------------------------------------------
# emitting: the generated text's comments kept beside the lowered statements


@dataclass(frozen=True)
class Ends:
    """The Python functions around the compiled entry: `finish` shapes what it returns;
    `start` (a jvp's) checks the caller's tangents before it runs, or None."""

    finish: ast.FunctionDef
    start: ast.FunctionDef | None = None


def emit(
    tree: ast.Module,
    generated: list[str],
    defs: dict[str, ast.FunctionDef],
    ends: Ends,
    module: Module,
    entry: str,
    params: tuple[str, ...],
    cache: bool,
    standalone: bool = False,
) -> Lowered:
    lines: list[str] = []
    origins: dict[int, tuple[str, int]] = {}
    for line in module.text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    lines.append("# Compiled by numba in nopython mode (tangentlike's jit path).")
    lines += ["", "", "import numba"]
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.append(ast.unparse(node))
    used = set().union(*(names_in(defs[name]) for name in generated))
    kernels = sorted({(k, n) for n, k in module.helpers.items() if k is not None and n in used})
    if standalone:
        lines += ["", "# --- tangentlike numba kernels (tangentlike/jit/kernels*.py) ---"]
        lines += kernel_text().splitlines()
        lines += [f"{n} = {k}" for k, n in kernels if n != k]
    for where in ("kernels", "kernels_join", "kernels_forward"):
        mine = [(k, n) for k, n in kernels if kernel_module(k) == where]
        if mine and not standalone:
            names = ", ".join(n if n == k else f"{k} as {n}" for k, n in mine)
            lines.append(f"from tangentlike.jit.{where} import {names}")
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            lines.append(ast.unparse(node))
    python = [end for end in (ends.start, ends.finish) if end is not None]
    imported = {n for k, n in kernels}
    if ends.start is None:
        lines += ["", "# --- shaping the gradients like the arguments (Python, after the call) ---"]
    else:
        lines += [
            "",
            "# --- the tangents checked before the call, the output's shaped after (Python) ---",
        ]
    written = _python_helpers(defs, module, python, imported)
    for name in written:
        lines += ["", "", *ast.unparse(defs[name]).splitlines()]
    for end in python:
        lines += ["", "", *ast.unparse(end).splitlines()]
    forward_kernels = [(k, n) for k, n in kernels if kernel_module(k) == "kernels_forward"]
    if standalone and forward_kernels:  # numba's versions of the module's own helpers
        lines += ["", "", "# --- forward-mode helpers of compiled code, and numba's versions ---"]
        for k, n in forward_kernels:
            if n not in written:
                lines += ["", "", *ast.unparse(defs[n]).splitlines()]
            if n != k:  # the module's name for it differs: the overload names the kernel
                lines += [f"{k} = {n}"]
        lines += ["", "", *forward_kernel_text({k for k, _ in forward_kernels}).splitlines()]
    compiled = module.fresh(f"_{entry}_nopython")
    for name in generated:
        lines += ["", "", f"@numba.njit(cache={cache})"]
        fn = defs[name]
        lines.append(f"def {compiled if name == entry else name}({ast.unparse(fn.args)}):")
        _emit_body(fn.body, 1, lines, origins, module, [fn.lineno], set())
    if standalone:  # the gradient under the entry's name: compiled, then shaped
        args = ast.unparse(defs[entry].args)
        passed = ", ".join(params)
        lines += ["", "", f"def {entry}({args}):"]
        if ends.start is not None:  # a jvp: the caller's tangents checked first
            checked = passed + ("," if len(params) == 1 else "")
            lines.append(f"    {checked} = {ends.start.name}({passed})")
        lines.append(f"    return {ends.finish.name}({passed}, {compiled}({passed}))")
    start = ends.start.name if ends.start is not None else None
    text = "\n".join(lines) + "\n"
    return Lowered(text, compiled, ends.finish.name, params, origins, start)


def kernel_module(kernel: str) -> str:
    """The module of tangentlike/jit defining `kernel`."""
    if kernel in JOIN_KERNELS:
        return "kernels_join"
    return "kernels_forward" if kernel in FORWARD_KERNELS else "kernels"


def _python_helpers(
    defs: dict[str, ast.FunctionDef],
    module: Module,
    roots: list[ast.FunctionDef],
    imported: set[str],
) -> list[str]:
    """The module's helpers the Python functions `roots` call, directly or through each
    other (the shaping of gradients, a jvp's checks), in the module's order; a helper
    with a kernel is written out only where the kernel is not imported."""
    wanted: set[str] = {FINISH} & set(defs)
    todo = list(roots) + [defs[n] for n in wanted]
    while todo:
        for name in names_in(todo.pop()):
            known = name in defs and name not in wanted and name in module.helpers
            if known and (module.helpers[name] is None or name not in imported):
                wanted.add(name)
                todo.append(defs[name])
    return [n for n in defs if n in wanted]


def kernel_text() -> str:
    """The kernels' source to copy into a written module: kernels.py then kernels_join.py,
    without their docstrings, `from __future__` lines and imports of each other."""
    texts = []
    for name in ("kernels.py", "kernels_join.py"):
        text = Path(__file__).with_name(name).read_text()
        docstring = ast.parse(text).body[0]
        kept = text.splitlines()[docstring.end_lineno :]
        texts += [
            line
            for line in kept
            if not line.startswith(("from __future__", "from .kernels import"))
        ]
    return "\n".join(texts).strip("\n") + "\n"


def forward_kernel_text(used: set[str]) -> str:
    """kernels_forward.py's overloads of the helpers in `used`, to copy into a written
    module after the Python helpers they overload (the module's own zero_tangent,
    tangent_as), with its imports of numba but none from tangentlike (kernel_text holds
    what the overloads call)."""
    text = Path(__file__).with_name("kernels_forward.py").read_text()
    lines = text.splitlines()
    kept = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.ImportFrom) and (node.level or node.module == "__future__"):
            continue
        if isinstance(node, ast.Expr) or (
            isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
        ):
            continue  # the docstring, the export list
        if isinstance(node, ast.FunctionDef):
            overloaded = [
                d.args[0].id
                for d in node.decorator_list
                if isinstance(d, ast.Call) and is_name(d.func, "overload") and d.args
            ]
            if not set(overloaded) & used:
                continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        gap = ["", ""] if isinstance(node, ast.FunctionDef) else []
        kept += [*gap, *lines[first - 1 : node.end_lineno]]
    return "\n".join(kept).strip("\n") + "\n"


def _emit_body(
    body: list[ast.stmt],
    depth: int,
    lines: list[str],
    origins: dict[int, tuple[str, int]],
    module: Module,
    last: list[int],
    commented: set[int],
) -> None:
    pad = "    " * depth
    for stmt in body:
        at = getattr(stmt, "lineno", None)
        if at is not None and at > last[0]:
            for line in range(last[0] + 1, at):
                if line in module.full_line:
                    lines.append(pad + module.comments[line])
            last[0] = at
        origin = module.origin(at) if at else None
        comment = ""
        if at is not None and at not in commented and at not in module.full_line:
            comment = module.comments.get(at, "")
            commented.add(at)
        if isinstance(stmt, (ast.For, ast.While, ast.If)):
            head = pad + _header(stmt)
            lines.append(head.ljust(34) + f"  {comment}" if comment else head)
            if origin:
                origins[len(lines)] = origin
            _emit_body(stmt.body, depth + 1, lines, origins, module, last, commented)
            if stmt.orelse:
                lines.append(pad + "else:")
                _emit_body(stmt.orelse, depth + 1, lines, origins, module, last, commented)
            continue
        code = ast.unparse(stmt)
        lines.append((pad + code).ljust(34) + f"  {comment}" if comment else pad + code)
        if origin:
            origins[len(lines)] = origin


def _header(stmt: ast.stmt) -> str:
    if isinstance(stmt, ast.For):
        return f"for {ast.unparse(stmt.target)} in {ast.unparse(stmt.iter)}:"
    if isinstance(stmt, ast.While):
        return f"while {ast.unparse(stmt.test)}:"
    return f"if {ast.unparse(stmt.test)}:"
