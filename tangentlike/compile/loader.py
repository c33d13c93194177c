"""Execute generated source as a module registered in `linecache`.

Guarantees: tracebacks, `inspect.getsource` and `pdb` show the generated
lines; objects that cannot be imported by the generated text (closure cells,
objects of a running program) are bound here and nowhere else.
"""

from __future__ import annotations

import functools
import hashlib
import linecache
import types


def filename_for(label: str, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    return f"<tangentlike {label} {digest}>"


Code = types.CodeType | tuple[types.CodeType, ...]


def compiled(source: str, label: str, helpers: tuple[str, ...] = ()) -> Code:
    """The code `load` runs for `source` (compiled under its module's file name).

    `helpers`: the texts of the runtime helpers the module copies (emit/module.py), one
    after the other, three newlines apart, as the module holds them. They are the same
    texts at every build of a process and often most of a module's lines: each is
    compiled once (`_helper_code`) and moved to its lines here. The code is then a
    tuple run in order: the lines before the helpers, each helper's definition, the
    lines after them. The module's imports (they decide how a call `np.f(x)` compiles)
    are compiled with each part and run again (binding what they bound): every function
    the module defines has the code one `compile` of `source` gives it, and every
    statement runs in the order the text has it."""
    filename = filename_for(label, source)
    found = _helper_lines(source, helpers)
    if found is None:
        return compile(source, filename, "exec")
    start, end, lines = found
    head = source[:start].splitlines(True)
    imports = ["" if not line.startswith(("import ", "from ")) else line for line in head]
    together = "".join(imports)  # on lines 1, 2, ...: a helper's text comes after them
    try:
        moved = tuple(
            _moved(_helper_code(together, text), filename, line - together.count("\n"))
            for text, line in zip(helpers, lines, strict=True)
        )
    except SyntaxError:  # an import this does not take apart: the module as one
        return compile(source, filename, "exec")
    # the lines after the helpers, where they are, after the imports, where they are
    tail = [line or "\n" for line in imports] + ["\n"] * source.count("\n", start, end)
    before = compile(source[:start], filename, "exec")
    return (before, *moved, compile("".join(tail) + source[end:], filename, "exec"))


def _helper_lines(source: str, helpers: tuple[str, ...]) -> tuple[int, int, list[int]] | None:
    """Where the helpers are in `source`: the offsets their block starts and ends at and
    the line (from 0) each starts on; None if they are not all there, whole lines."""
    if not helpers:
        return None
    block = "\n\n\n".join(helpers)
    start = source.find(block)
    end = start + len(block)
    if start < 0 or source[start - 1 : start] not in ("", "\n") or source[end : end + 1] != "\n":
        return None
    lines = []
    line = source.count("\n", 0, start)
    for text in helpers:
        lines.append(line)
        line += text.count("\n") + 3
    return start, end, lines


@functools.lru_cache(maxsize=512)
def _helper_code(imports: str, text: str) -> types.CodeType:
    """A helper's text compiled after `imports` (run again: they bind what they bound),
    from line 1 (moved by `_moved`)."""
    return compile(imports + text, "<tangentlike helper>", "exec")


def _moved(code: types.CodeType, filename: str, shift: int) -> types.CodeType:
    """`code` (and the code objects it holds) `shift` lines down, in the file `filename`
    (a code object's line table counts from its first line)."""
    consts = tuple(
        _moved(c, filename, shift) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    return code.replace(
        co_filename=filename, co_firstlineno=code.co_firstlineno + shift, co_consts=consts
    )


def is_code_for(code: object, source: str, label: str) -> bool:
    """Whether `code` is a code object (or tuple of them, as `compiled` makes) of the
    module file of `source`."""
    filename = filename_for(label, source)
    pieces = code if isinstance(code, tuple) and code else (code,)
    return all(isinstance(c, types.CodeType) and c.co_filename == filename for c in pieces)


def load(
    source: str, label: str, external: dict[str, object], code: Code | None = None
) -> types.ModuleType:
    """Compile and run `source` as a fresh module named after its content (`code`: its
    code, compiled before by `compiled`, e.g. kept on disk beside the source)."""
    filename = filename_for(label, source)
    module = types.ModuleType(f"tangentlike_generated_{label}")
    module.__file__ = filename
    module.__dict__.update(external)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    if code is None or not is_code_for(code, source, label):
        code = compile(source, filename, "exec")
    for piece in code if isinstance(code, tuple) else (code,):
        exec(piece, module.__dict__)
    return module
