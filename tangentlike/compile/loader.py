"""Execute generated source as a module registered in `linecache`.

Guarantees: tracebacks, `inspect.getsource` and `pdb` show the generated
lines; objects that cannot be imported by the generated text (closure cells,
objects of a running program) are bound here and nowhere else.
"""

from __future__ import annotations

import hashlib
import linecache
import types


def filename_for(label: str, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    return f"<tangentlike {label} {digest}>"


def compiled(source: str, label: str) -> types.CodeType:
    """The code object `load` runs for `source` (compiled under its module's file name)."""
    return compile(source, filename_for(label, source), "exec")


def load(
    source: str, label: str, external: dict[str, object], code: types.CodeType | None = None
) -> types.ModuleType:
    """Compile and run `source` as a fresh module named after its content (`code`: its
    code object, compiled before by `compiled`, e.g. kept on disk beside the source)."""
    filename = filename_for(label, source)
    module = types.ModuleType(f"tangentlike_generated_{label}")
    module.__file__ = filename
    module.__dict__.update(external)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    if code is None or code.co_filename != filename:
        code = compile(source, filename, "exec")
    exec(code, module.__dict__)
    return module
