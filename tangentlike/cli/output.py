"""What the command line writes or shows: the derivative (`generate`, through the public
API), the module text with its header (`module_text`), the check that it is standalone
(`check_standalone`), and its colouring on a terminal (`colorize`, pygments when
installed)."""

from __future__ import annotations

import ast
import hashlib
import inspect
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__
from ..api import grad, value_and_grad, vjp
from ..api_forward import jvp
from ..higher.api import hvp
from ..higher.form_schedules import PLAIN_NOTE
from ..jit.compiled import locator
from ..jit.lower import lower
from .options import CliError
from .targets import Target


def generate(
    target: Target,
    names: tuple[str, ...],
    single: bool,
    mode: str,
    checkpoint=None,
    checks: bool = False,
) -> Callable:
    """The gradient module of the target; `checks`: debug mode (never from the
    environment: a written module says in its header how it was made)."""
    wrt = names[0] if single else names
    if mode == "hvp":
        if checkpoint is not None:
            raise CliError(
                "--checkpoint does not apply to --mode hvp (H v differentiates the gradient "
                "with its checkpointed loops run as plain loops); leave it out"
            )
        return hvp(target.func, wrt=wrt, checks=checks)
    if mode == "forward":  # no checkpoints (no stack) and no debug checks in forward mode
        if checkpoint is not None or checks:
            raise CliError("--mode forward takes neither --checkpoint nor --checks")
        return jvp(target.func, wrt=wrt)
    build = {
        "grad": grad,
        "reverse": grad,
        "vjp": vjp,
        "value_and_grad": value_and_grad,
    }[mode]
    return build(target.func, wrt=wrt, checkpoint=checkpoint, checks=checks)


def hvp_entry(
    source: str, func: Callable, names: tuple[str, ...], single: bool, method: str
) -> str:
    """`def hvp_FUNC(<f's parameters>, v)`, H v by the generated module's entry function
    (forward over reverse: the tangent it returns, its tangents its last keyword-only
    parameters; reverse over reverse: its seed is its last parameter before `**kwargs`).
    f's parameters are passed on as f takes them: `*args` are spread (v is then the last
    of them, as `tl.hvp(f)(*args, v)` takes it), keyword-only parameters and `**kwargs`
    by name; the gradient's own seed keeps its default 1.0."""
    found = re.search(r"^# Entry point: (\w+)", source, re.MULTILINE)
    tree = ast.parse(source)
    entry = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and found and n.name == found[1]),
        None,
    )
    if entry is None:
        raise CliError("the generated HVP module names no entry point; this is a tangentlike bug")
    params = list(inspect.signature(func).parameters.values())
    taken = {p.name for p in params}
    v = next(
        n
        for n in ("v", "v_", "vector", *(f"v{i}" for i in range(len(taken) + 1)))
        if n not in taken
    )
    defaults = {
        a.arg: d for a, d in zip(entry.args.kwonlyargs, entry.args.kw_defaults, strict=True)
    }
    signature, passed, spread = [], [], None
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            spread = p.name
            signature.append(f"*{p.name}")
            passed.append(f"*{p.name}")
        elif p.kind is p.KEYWORD_ONLY:
            default = defaults.get(p.name)
            signature.append(p.name if default is None else f"{p.name}={ast.unparse(default)}")
            passed.append(f"{p.name}={p.name}")
        elif p.kind is p.VAR_KEYWORD:
            signature.append(f"**{p.name}")
            passed.append(f"**{p.name}")
        else:
            signature.append(p.name)
            passed.append(p.name)
    if spread is None:  # v after f's positional parameters, before its keyword-only ones
        at = next(
            (i for i, p in enumerate(params) if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)),
            len(params),
        )
        signature.insert(at, v)
        if any(p.kind is p.KEYWORD_ONLY for p in params):
            signature.insert(at + 1, "*")
    kwargs = [p for p in passed if p.startswith("**")]
    plain = [p for p in passed if not p.startswith("**")]
    if method == "forward":
        tangents = [a.arg for a in entry.args.kwonlyargs][-len(names) :]
        keywords = [f"{t}={v if single else f'{v}[{i}]'}" for i, t in enumerate(tangents)]
        call = f"{entry.name}({', '.join([*plain, *keywords, *kwargs])})[1]"
    else:
        last = entry.args.kwonlyargs[-1].arg if entry.args.kwonlyargs else entry.args.args[-1].arg
        call = f"{entry.name}({', '.join([*plain, f'{last}={v}', *kwargs])})"
    shape = "shaped like " + (names[0] if single else f"the tuple ({', '.join(names)})")
    unpack = f"    *{spread}, {v} = {spread}\n" if spread else ""
    where = f"; pass it last, after *{spread}" if spread else ""
    return (
        f"\n\ndef hvp_{func.__name__}({', '.join(signature)}):\n"
        f'    """H v: the Hessian of {func.__name__} with respect to {", ".join(names)} '
        f'times {v} ({shape}{where})."""\n'
        f"{unpack}"
        f"    return {call}\n"
    )


def _strip_core_header(source: str) -> str:
    """Drop the in-memory header (it names the absolute source path); ours replaces it."""
    lines = source.splitlines(keepends=True)
    if not lines or not lines[0].startswith("# Generated by tangentlike"):
        return source
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return "".join(lines[i:])


def _file_hash(path: str | None) -> str:
    if path is None:
        return "unknown (no source file)"
    try:
        data = Path(path).read_bytes()
    except OSError:
        return "unknown (source file unreadable)"
    return hashlib.sha256(data).hexdigest()[:16]


def module_text(
    target: Target,
    df: Callable,
    names: tuple[str, ...],
    mode: str,
    command: list[str],
    checkpoint: str | None = None,
    checks: bool = False,
    jit: bool = False,
) -> str:
    """The header of comment lines followed by the generated module (`jit`: lowered for
    numba, see `jit_body`)."""
    options = f"wrt={','.join(names)} mode={mode}"
    if checkpoint:
        options += f" checkpoint={checkpoint}"
    if checks:
        options += " checks=on"
    if jit:
        options += " jit=on"
    header = [
        "Derivative module generated by tangentlike; do not edit, regenerate it.",
        f"source:      {target.source}",
        f"function:    {target.attr}",
        f"options:     {options}",
        f"source hash: sha256:{_file_hash(target.source_file)} (first 16 hex digits)",
        f"tangentlike: {__version__}",
        f"command:     {shlex.join(command)}",
    ]
    body = _strip_core_header(jit_body(df, target) if jit else df.source)
    if mode == "hvp":
        header.insert(1, f"H v by hvp_{target.attr}(...) at the end (method: {df.method}).")
        if f"# {PLAIN_NOTE}\n" in df.source:  # higher/form_schedules.py
            header.insert(2, PLAIN_NOTE)
        body = (
            body.rstrip("\n")
            + "\n"
            + hvp_entry(df.source, target.func, names, len(names) == 1, df.method)
        )
    return "\n".join(f"# {line}" for line in header) + "\n\n\n" + body


def jit_body(df: Callable, target: Target) -> str:
    """The module of `df` lowered for numba (`--jit`), the kernels copied in: the gradient
    under the generated entry's name, compiled at its first call and cached beside the
    written file by numba."""
    found = re.search(r"^# Entry point: (\w+)", df.source, re.MULTILINE)
    if found is None:
        raise CliError("the generated module names no entry point; this is a tangentlike bug")
    return lower(df.source, found[1], locator(target.func), standalone=True).source


def check_standalone(text: str, df: Callable, target: Target) -> None:
    """Refuse text that needs the running program, tangentlike, or a made-up module name."""
    if getattr(df, "built_per_call", ()):
        raise CliError(
            f"the gradient of {target.spec} depends on the classes of its arguments "
            f"{', '.join(df.built_per_call)} (it calls their methods), known only when it is "
            "called: no module can be written ahead of time; differentiate a function whose "
            "objects are globals, or call their methods explicitly (Class.method(obj, ...))"
        )
    external = sorted(getattr(df, "external", {}) or {})
    if external:
        these = "it" if len(external) == 1 else "them"
        raise CliError(
            f"the gradient of {target.spec} is not standalone: it uses {', '.join(external)}, "
            f"which {'exists' if len(external) == 1 else 'exist'} only in the running program "
            f"(closure variables or objects no import can name); pass {these} as parameters "
            f"or build {these} inside the function"
        )
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*(import|from)\s+tangentlike\b", line):
            raise CliError(
                f"the generated module imports tangentlike (line {number}: {line.strip()!r}); "
                "a written module must not; this is a tangentlike bug"
            )
        if not target.importable and re.match(
            rf"\s*(import|from)\s+{re.escape(target.module_name)}\b", line
        ):
            raise CliError(
                f"the generated module imports from {target.source} itself, which cannot be "
                f"imported by its own name (a module {Path(target.source).stem!r} exists "
                "already); rename the file"
            )
    try:
        compile(text, "<generated>", "exec")
    except SyntaxError as err:
        raise CliError(
            f"the generated module is not valid Python ({err}); this is a tangentlike bug"
        ) from err


def colorize(text: str) -> str:
    """`text` (Python source) with ANSI colours by pygments when it is installed; as it
    is otherwise."""
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return text
    return highlight(text, PythonLexer(), TerminalFormatter())


def use_color(choice: str, stream: Any) -> bool:
    """Whether to colour: --color always/never, or auto (a terminal, NO_COLOR unset)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())
