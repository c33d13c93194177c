"""Read and parse the source of a Python function.

Assumes: a plain Python function (decorated or not, at module level or inside
a block). Guarantees: a gast FunctionDef without decorators whose line numbers
are the lines of the original file, plus what is needed to point at them.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import linecache
import os
import re
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import gast

from ..errors import SourceLocation, SourceNotFoundError, UnsupportedSyntaxError
from ..syntax import blocks
from ..syntax.nodes import walk
from . import freshness, per_call, wrappers
from .resolve import primal_of, user_class
from .shown import shown

if TYPE_CHECKING:
    from .record import Recorder


@dataclass(frozen=True)
class ParsedFunction:
    """A function's gast tree and where it came from."""

    func: Callable
    node: gast.FunctionDef
    filename: str
    first_line: int
    col_shift: int  # columns removed by dedenting
    source: str  # the dedented source text, as parsed
    # the defaults of the parameters as called (positional, keyword-only): the function's
    # own, or, for a decorator's wrapper, those of the signature it claims
    defaults: tuple = ()
    kwdefaults: dict = field(default_factory=dict)

    @property
    def basename(self) -> str:
        return os.path.basename(self.filename)

    def line_text(self, line: int) -> str:
        return linecache.getline(self.filename, line).rstrip("\n")

    def location(self, node: gast.AST) -> SourceLocation:
        line = getattr(node, "lineno", None) or self.first_line
        col = (getattr(node, "col_offset", None) or 0) + self.col_shift
        return SourceLocation(self.filename, line, col, self.line_text(line))

    def error(self, node: gast.AST, what: str, hint: str) -> UnsupportedSyntaxError:
        """An error at `node`: what is wrong, in which function, and what to do instead."""
        what, hint = shown(what, self.node, self.source), shown(hint, self.node, self.source)
        return UnsupportedSyntaxError(
            f"{what} (in {self.func.__qualname__})",
            self.location(node),
            hint=f"What to do: {hint}.",
        )


def unwrap(func: Callable) -> Callable:
    """The plain function behind tangentlike's own wrappers (tl.differentiable) and
    functools.lru_cache: wrappers that call it and return what it returns. A decorator's
    wrapper made with functools.wraps is not unwrapped: it is what runs (parse/wrappers.py
    differentiates it)."""
    while (inner := primal_of(func)) is not func:
        func = inner
    return func


def peel_bound(func: Callable) -> tuple[Callable, tuple, dict] | None:
    """(plain function, leading arguments, keywords) behind a bound method, a
    functools.partial (nested ones too) or an object whose class defines `__call__`;
    None for anything else."""
    func = getattr(func, "__tangentlike_primal__", func)  # a tl.differentiable method
    call = inspect.getattr_static(type(func), "__call__", None)
    if (
        user_class(type(func))
        and inspect.isfunction(call)
        and not hasattr(func, "__tangentlike_primal__")
    ):
        func = types.MethodType(call, func)
    if not isinstance(func, (functools.partial, types.MethodType)):
        return None
    args: tuple = ()
    keywords: dict = {}
    while isinstance(func, (functools.partial, types.MethodType)):
        if isinstance(func, functools.partial):
            args, keywords = (*func.args, *args), {**func.keywords, **keywords}
            func = func.func
        else:
            args, func = (func.__self__, *args), func.__func__
    return unwrap(func), args, keywords


def function_for_rule(primal: object, params: tuple[str, ...]) -> types.FunctionType:
    """A Python function calling `primal` (a NumPy ufunc, a builtin: something with a
    derivative rule and no Python source) with `params`, so that `grad(np.exp)` is the
    gradient of `def exp(x): return exp(x)`, whose inner `exp` is `primal`. Its source is
    registered in linecache under a name of its own text, like generated code."""
    name = getattr(primal, "__name__", "") or "function"
    if not name.isidentifier():
        name = "function"
    try:  # keep the defaults (np.sum's axis=None) when the signature says them
        signature = inspect.signature(primal)  # type: ignore[arg-type]
        defaults = {p.name: p.default for p in signature.parameters.values()}
    except (TypeError, ValueError):
        defaults = {}
    kept: list[str] = []
    for p in params:
        default = defaults.get(p, inspect.Parameter.empty)
        if default is inspect.Parameter.empty:
            kept.append(p)
        elif isinstance(default, (bool, int, float, str, type(None))):
            kept.append(f"{p}={default!r}")
        else:  # np.sum's keepdims=<no value>: this and later parameters keep their defaults
            break
    listed = ", ".join(kept)
    params = tuple(p.partition("=")[0] for p in kept)
    text = f"def {name}({listed}):\n    return {name}({', '.join(params)})\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    filename = f"<tangentlike rule {name} {digest}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace: dict[str, object] = {name: primal, "__name__": f"tangentlike_rule_{name}"}
    exec(compile(text, filename, "exec"), namespace)  # our own text
    func = namespace.pop(name)  # its body's `name` is now `primal` again
    namespace[name] = primal
    return func  # type: ignore[return-value]


def _lambda_def(func: Callable, tree: gast.Module, where: SourceLocation) -> gast.FunctionDef:
    """`def <name>(params): return <body>` for the one lambda of `func`'s source line
    with its parameters; named after the variable it is assigned to, else `lambda_`."""
    code = func.__code__
    params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    found = [
        n
        for n in walk(tree)
        if isinstance(n, gast.Lambda)
        and n.lineno == code.co_firstlineno
        and tuple(a.id for a in [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs]) == params
    ]
    if len(found) != 1:
        raise SourceNotFoundError(
            f"cannot tell which lambda of line {code.co_firstlineno} to differentiate",
            where,
            hint="Write it as a `def` function.",
        )
    lam = found[0]
    name = "lambda_"
    for n in walk(tree):
        if isinstance(n, gast.Assign) and n.value is lam and isinstance(n.targets[0], gast.Name):
            name = n.targets[0].id
    body = [gast.copy_location(gast.Return(value=lam.body), lam.body)]
    fn = gast.FunctionDef(
        name=name, args=lam.args, body=body, decorator_list=[], returns=None, type_comment=None
    )
    if "type_params" in gast.FunctionDef._fields:
        fn.type_params = []
    return gast.copy_location(fn, lam)


def parse_function(func: Callable, recorder: Recorder | None = None) -> ParsedFunction:
    """Parse `func`'s source; raise SourceNotFoundError when Python cannot show it.
    The recorder, if any, is told the whole file text the source was cut from."""
    func = unwrap(func)
    again = per_call.refusal(func)  # a gradient built at each call: no source yet
    if again is not None:
        raise again
    if not inspect.isfunction(func):
        raise SourceNotFoundError(
            f"cannot differentiate {func!r}: it is not a Python function with source code",
            hint="Register a derivative rule for it with @tangentlike.adjoint(...).",
        )
    try:
        filename, every_line = file_lines(func)
        start = _definition_line(func.__code__, every_line)
        lines = blocks.block(every_line[start:])
    except (OSError, TypeError, IndexError) as err:
        raise SourceNotFoundError(
            f"cannot read the source of {func.__qualname__}: {err}",
            hint="Define the function in a file (not in the interactive prompt), "
            "or register a derivative rule with @tangentlike.adjoint(...).",
        ) from None
    first_line = start + 1
    freshness.check(func, every_line, start, lines)
    if recorder is not None:
        recorder.parsed(func, filename, every_line)
    raw = "".join(lines)
    source = textwrap.dedent(raw)
    col_shift = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    where = SourceLocation(filename, first_line, col_shift, lines[0] if lines else "")
    try:
        tree = gast.parse(source)
    except SyntaxError:
        raise SourceNotFoundError(
            f"cannot read the source of {func.__qualname__}: its lines do not parse alone",
            where,
            hint="Write it as a `def` function.",
        ) from None
    gast.increment_lineno(tree, first_line - 1)
    node = tree.body[0]
    name = func.__code__.co_name  # its `def` name (functools.wraps changes __name__)
    if name == "<lambda>":
        node = _lambda_def(func, tree, where)
    elif not isinstance(node, gast.FunctionDef) or node.name != name:
        raise SourceNotFoundError(
            f"cannot differentiate {func.__qualname__}: it is a lambda or its source "
            "is not a plain `def`",
            SourceLocation(filename, first_line, col_shift, lines[0] if lines else ""),
            hint="Write it as a `def` function.",
        )
    node.decorator_list = []
    parsed = ParsedFunction(
        func,
        node,
        filename,
        first_line,
        col_shift,
        source,
        func.__defaults__ or (),
        func.__kwdefaults__ or {},
    )
    if wrappers.is_wrapper(func, node):  # a decorator's: what its signature claims
        node, (defaults, kwdefaults) = wrappers.specialize(func, node, parsed.error)
        parsed = dataclasses.replace(parsed, node=node, defaults=defaults, kwdefaults=kwdefaults)
    return parsed


# inspect.findsource's test for the line a function's definition starts on
_DEFINITION = re.compile(r"^(\s*def\s)|(\s*async\s+def\s)|(.*(?<!\w)lambda(:|\s))|^(\s*@)")


def _definition_line(code: types.CodeType, lines: list[str]) -> int:
    """The 0-based line of `lines` where the function of `code` is defined (its first
    decorator), found as inspect.getsourcelines finds it, but in these very lines and
    without following `__wrapped__` to another function."""
    line = code.co_firstlineno - 1
    while line > 0:
        if line >= len(lines):
            raise OSError("lineno is out of bounds")
        if _DEFINITION.match(lines[line]):
            break
        line -= 1
    return line


def file_lines(func: types.FunctionType) -> tuple[str, list[str]]:
    """(file name, every line of that file) as Python reads `func`'s source now: the one
    place source text is read, for parsing and for checking a cached gradient against it.
    Raises OSError when there is none."""
    filename = inspect.getsourcefile(func) or func.__code__.co_filename
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, func.__globals__)
    if not lines:
        raise OSError("could not get source code")
    return filename, lines
