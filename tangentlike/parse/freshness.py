"""Is the source text on disk the code that runs? A module edited after it was imported
runs its old code while its file shows the new text; differentiating the text would give
the gradient of a function nobody calls.

`check(func, lines, start, block)` compiles the function's text as Python compiled it
(inside a class of the same name for name mangling and `super()`, inside a function
defining its free variables for closures, after the module's imports of the names it
reads -- CPython compiles `np.f(x)` differently when `np` is imported in the same
compilation, so both with them and without, as IPython compiles a cell statement by
statement -- with the `from __future__` flags of its code) and compares the result with
`func.__code__`: bytecode, constants (nested code too), names, argument counts and flags.
Where that context cannot be rebuilt (indentation too shallow for the wrappers, a module
text that does not compile) it compares what it can: the names, local variables,
argument counts and the constants that are not strings.

Code an import hook compiled from a rewritten tree (pytest's assertion rewriting in test
modules) names what no text can spell; it is not compared.

Guarantees: raises SourceChangedError, at the function's first line, when the text is
certainly not the running code; returns when the comparison finds no difference.
"""

from __future__ import annotations
import __future__

import functools
import hashlib
import inspect
import symtable
import types

from ..errors import SourceChangedError, SourceLocation

_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag
_NESTED = inspect.CO_NESTED  # set by where a function is defined, not by what it does


def code_digest(code: types.CodeType, exact: bool = True) -> str:
    """A digest of what `code` does: its bytecode, constants (nested code too), names,
    argument counts and flags; not its line numbers, file or qualified name. With
    exact=False, only names, local variables, argument counts and the constants that are
    not strings."""
    digest = hashlib.sha256()

    def feed(c: types.CodeType) -> None:
        parts: tuple = (c.co_names, c.co_varnames, c.co_argcount, c.co_kwonlyargcount)
        if exact:
            parts += (
                c.co_code,
                c.co_freevars,
                c.co_cellvars,
                c.co_posonlyargcount,
                c.co_flags & ~_NESTED,
            )
        digest.update(repr(parts).encode())
        for const in c.co_consts:
            if isinstance(const, types.CodeType):
                digest.update(b"<code>")
                feed(const)
            elif not exact and isinstance(const, (str, bytes)):
                continue  # dedenting may change a multi-line string
            elif isinstance(const, frozenset):
                digest.update(repr(sorted(map(repr, const))).encode())
            else:
                digest.update(f"{type(const).__name__}:{const!r};".encode())

    feed(code)
    return digest.hexdigest()[:32]


def check(func: types.FunctionType, lines: list[str], start: int, block: list[str]) -> str:
    """Raise SourceChangedError if `block` (lines[start:] of the file `func` comes from,
    its definition) is not the text `func.__code__` was compiled from. Returns how it
    compared: "exact", "weaker" (names, locals, non-string constants), or "none" (the text
    does not compile without its real context: nothing to compare)."""
    code = func.__code__
    if _rewritten(code):
        return "none"  # compiled from a transformed tree, not from any text
    if start != code.co_firstlineno - 1:  # lines were added or removed above it
        line = code.co_firstlineno - 1
        _changed(func, lines, line, f"the text at line {line + 1} does not define {code.co_name}")
    imports = _module_imports("".join(lines), code.co_filename)
    # with the module's imports, as a module is compiled, and without, as IPython compiles
    # each statement of a cell alone
    contexts = [] if imports is None else sorted({imports & _names(code), frozenset()}, key=len)
    compiled = [c for c in (_compiled(func, block, i) for i in contexts) if c is not None]
    exact = bool(compiled)
    if not compiled:
        alone = _compiled_alone(block, code)
        compiled = [] if alone is None else [alone]
    if not compiled:
        return "none"  # nothing compiles without its real context: nothing to compare
    candidates = [c for unit in compiled for c in _codes(unit) if c.co_name == code.co_name]
    if not candidates:
        _changed(func, lines, start, f"the text at that line does not define {code.co_name}")
    want = code_digest(code, exact)
    if any(code_digest(c, exact) == want for c in candidates):
        return "exact" if exact else "weaker"
    _changed(func, lines, start, "the text is not the code that runs")
    return "none"  # unreachable: _changed raises


def _changed(func: types.FunctionType, lines: list[str], start: int, what: str) -> None:
    filename = func.__code__.co_filename
    raise SourceChangedError(
        f"the source of {func.__qualname__} changed after it was imported: {what} "
        f"(in {filename}), so its gradient would be another function's",
        SourceLocation(filename, start + 1, 0, lines[start] if start < len(lines) else ""),
        hint="What to do: reload the module (importlib.reload) or restart the interpreter, "
        "so that the code that runs is the text on disk; or undo the edit.",
    )


def _rewritten(code: types.CodeType) -> bool:
    """Whether an import hook compiled `code` from a rewritten tree: it names what no text
    can spell (pytest's assertion rewriting binds `@py_assert1`; the compiler's own names,
    like a comprehension's `.0`, start with a dot)."""
    for c in (code, *_codes(code)):
        names = (*c.co_names, *c.co_varnames, *c.co_cellvars, *c.co_freevars)
        if not all(n.isidentifier() or n.startswith(".") for n in names):
            return True
    return False


def _codes(code: types.CodeType):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _codes(const)


def _compile(text: str, code: types.CodeType) -> types.CodeType | None:
    try:
        flags = code.co_flags & _FUTURE_FLAGS
        return compile(text, code.co_filename, "exec", flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError):
        return None


@functools.lru_cache(maxsize=16)
def _module_imports(text: str, filename: str) -> frozenset[str] | None:
    """The names the module text binds by `import` at module level: CPython compiles
    `name.attr(...)` differently when `name` is one of them."""
    try:
        table = symtable.symtable(text, filename, "exec")
    except (SyntaxError, ValueError):
        return None
    return frozenset(s.get_name() for s in table.get_symbols() if s.is_imported())


def _names(code: types.CodeType) -> set[str]:
    found = set(code.co_names)
    for inner in _codes(code):
        found.update(inner.co_names)
    return found


def _compiled(
    func: types.FunctionType, block: list[str], imports: frozenset[str]
) -> types.CodeType | None:
    """The block compiled in the context it was defined in (the module's imports of the
    names it reads, its nearest class, a scope defining its free variables), with its own
    indentation; None when impossible."""
    code = func.__code__
    first = next((ln for ln in block if ln.strip()), "")
    indent = first[: len(first) - len(first.lstrip())]
    if "\t" in indent:
        return None
    parts = func.__qualname__.split(".")
    containers = parts[:-1]
    classes = [
        name
        for i, name in enumerate(containers)
        if name != "<locals>" and (i + 1 == len(containers) or containers[i + 1] != "<locals>")
    ]
    free = [v for v in code.co_freevars if v != "__class__"]
    headers: list[tuple[str, list[str]]] = []
    if classes:
        headers.append((f"class {classes[-1]}:", []))
    if free:
        headers.append(("def _tangentlike_scope():", [f"{v} = None" for v in free]))
    if not headers and indent:
        headers.append(("if True:", []))
    if len(indent) < len(headers):
        return None  # no room for the wrappers' own indentation
    wrapper = [f"import {name}\n" for name in sorted(imports)]  # compiled, never run
    for depth, (header, body) in enumerate(headers):
        wrapper.append(" " * depth + header + "\n")
        inner = indent if depth == len(headers) - 1 else " " * (depth + 1)  # the block's
        wrapper.extend(inner + line + "\n" for line in body)
    return _compile("".join(wrapper) + "".join(block), code)


def _compiled_alone(block: list[str], code: types.CodeType) -> types.CodeType | None:
    """The block dedented and compiled at module level (for the weaker comparison)."""
    import textwrap

    return _compile(textwrap.dedent("".join(block)), code)
