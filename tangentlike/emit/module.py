"""A generated module: header, imports, inlined runtime helpers, functions.

One emitter makes one text: `df.source` is what the command-line tool writes.
Every global name the functions use becomes an import, a literal constant, a
copy of a runtime helper, or a generated function; what cannot (closure
cells, objects that live only in a running program) is listed as `external`
and bound by the loader.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import itertools
import re
import sys
import textwrap
import types
from dataclasses import dataclass

import numpy as np

from .. import runtime
from ..syntax import blocks
from ..syntax.nodes import walk
from . import codegen, literals, roundtrip


class Generated:
    """Marks a namespace name as a function defined in the generated module itself."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<generated {self.name}>"


@dataclass(frozen=True)
class ModuleText:
    source: str
    external: dict[str, object]  # names the loader must bind
    helpers: tuple[str, ...] = ()  # the runtime helpers' texts, as the source holds them


def render(
    objects: dict[str, object],
    functions: list[str],
    header: list[str],
    origins: dict[str, tuple[str, str]] | None = None,
) -> ModuleText:
    """The module text; only names the functions (or the helpers they use) read are bound."""
    origins = origins or {}
    used = _names_read(functions)
    roots = {n: objects[n] for n in sorted(used) if _is_helper(objects.get(n))}
    helpers = _helpers(roots, objects)
    if helpers:
        # the helpers say `np`; in this module NumPy may go by another name
        objects = dict(objects)
        alias = _numpy_alias(objects)
        if alias != "np":
            helpers = {n: re.sub(r"\bnp\.", f"{alias}.", text) for n, text in helpers.items()}
    used |= set().union(*map(_text_names, helpers.values()))
    imports: list[str] = []
    constants: list[str] = []
    external: dict[str, object] = {}
    for name in sorted(used & set(objects)):
        obj = objects[name]
        if isinstance(obj, Generated) or name in helpers:
            continue
        if isinstance(obj, types.ModuleType):
            imports.append(_import_module(name, obj))
        elif getattr(builtins, name, None) is obj:
            continue
        elif _is_literal(obj):
            constants.append(f"{name} = {codegen.value_source(obj)}")
        elif (line := _import_object(name, obj) or _import_origin(name, obj, origins)) is not None:
            imports.append(line)
        else:
            external[name] = obj
    parts = ["\n".join(f"# {h}" if h else "#" for h in header)] if header else []
    import_block = _sorted_imports(imports)
    if imports:
        parts.append(import_block)
    if external:
        parts.append(
            "# Bound by tangentlike when loaded (they exist only in the running program): "
            + ", ".join(sorted(external))
        )
    if constants:
        parts.append("\n".join(constants))
    if helpers:
        body = "\n\n\n".join(helpers.values())
        parts.append("# --- tangentlike runtime helpers ---\n\n\n" + body)
    parts.extend(functions)
    text = parts[0].rstrip("\n")
    for before, part in itertools.pairwise(parts):
        # isort's spacing: one blank line after the imports unless a definition follows
        after_imports = bool(imports) and before is import_block and not part.startswith("def ")
        text += ("\n\n" if after_imports else "\n\n\n") + part.rstrip("\n")
    return ModuleText(text + "\n", external, tuple(helpers.values()))


def _is_helper(obj: object) -> bool:
    """A runtime function or class, copied into the module that uses it."""
    return runtime.owns(obj) and (inspect.isfunction(obj) or inspect.isclass(obj))


def _helpers(roots: dict[str, object], objects: dict[str, object]) -> dict[str, str]:
    """Sources of the helpers named in `roots` and of the helpers they use (a plan class
    its base class, add_item its add), each after those it uses. A helper used by
    another gets a name no other object of the module has, and every helper's text
    calls its helpers (and itself) by their names in this module."""
    helpers: dict[str, str] = {}
    names = {id(obj): name for name, obj in roots.items()}

    def name_for(obj: object, preferred: str) -> str:
        if id(obj) not in names:
            taken = set(objects) | set(names.values())
            name, k = preferred, 1
            while name in taken and objects.get(name) is not obj:
                k += 1
                name = f"{preferred}_{k}"
            names[id(obj)] = name
        return names[id(obj)]

    def add(obj: object) -> None:
        name = names[id(obj)]
        if name in helpers:
            return
        helpers[name] = ""  # in progress (a helper may call itself)
        text = _helper_text(obj)
        module = vars(sys.modules[obj.__module__])
        renames = {obj.__name__: name}
        for used in sorted(_text_names(text)):
            dep = module.get(used)
            if used != obj.__name__ and _is_helper(dep):
                renames[used] = name_for(dep, used)
                add(dep)
        del helpers[name]  # re-inserted after its dependencies: definition order
        helpers[name] = _helper_source(text, obj, tuple(sorted(renames.items())))

    for obj in roots.values():
        add(obj)
    return helpers


def _numpy_alias(objects: dict[str, object]) -> str:
    """The module's name for NumPy, binding one (np, np_2, ...) if there is none."""
    for name, obj in sorted(objects.items()):
        if obj is np:
            return name
    candidate, k = "np", 1
    while candidate in objects:
        k += 1
        candidate = f"np_{k}"
    objects[candidate] = np
    return candidate


def _names_read(sources: list[str]) -> set[str]:
    """The names the generated functions' texts read (each parsed once per build: the
    emitter's round-trip check parsed it just before). The remembered trees are dropped
    here: a later build parses its texts afresh."""
    names: set[str] = set()
    for text in sources:
        names |= _loaded(roundtrip.parse(text))
    roundtrip.parse.cache_clear()
    return names


def _loaded(tree: ast.AST) -> set[str]:
    return {
        node.id
        for node in walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


# A runtime helper's text, the names it reads and its renamed texts are the same at every
# build of a process (the runtime modules do not change): parsed once, not per gradient.


@functools.cache
def _helper_text(obj: object) -> str:
    return textwrap.dedent(blocks.source(obj))


@functools.lru_cache(maxsize=1024)
def _text_names(text: str) -> frozenset[str]:
    """The names a helper's text reads (memoized: helper texts recur at every build)."""
    return frozenset(_loaded(ast.parse(text)))


def _sorted_imports(lines: list[str]) -> str:
    """isort's order: standard library, then the rest; `import` before `from` in each."""

    def module_of(line: str) -> str:
        return line.split()[1]

    def section(line: str) -> int:
        return 0 if module_of(line).split(".")[0] in sys.stdlib_module_names else 1

    blocks = []
    for sec in (0, 1):
        mine = [ln for ln in lines if section(ln) == sec]
        plain = sorted((ln for ln in mine if ln.startswith("import ")), key=module_of)
        froms = sorted((ln for ln in mine if ln.startswith("from ")), key=module_of)
        if plain or froms:
            blocks.append("\n".join(plain + froms))
    return "\n\n".join(blocks)


def _import_origin(name: str, obj: object, origins: dict[str, tuple[str, str]]) -> str | None:
    """`from <module> import <attr>` for a user's global found in an importable module."""
    if name not in origins:
        return None
    module_name, attr = origins[name]
    module = sys.modules.get(module_name)
    if (
        module_name == "__main__"
        or module is None
        or getattr(module, "__spec__", None) is None
        or getattr(module, attr, None) is not obj
    ):
        return None
    alias = "" if name == attr else f" as {name}"
    return f"from {module_name} import {attr}{alias}"


def _import_module(name: str, module: types.ModuleType) -> str:
    full = module.__name__
    if name == full:
        return f"import {full}"
    if "." in full and name == full.rsplit(".", 1)[1]:
        package, leaf = full.rsplit(".", 1)
        return f"from {package} import {leaf}"
    return f"import {full} as {name}"


def _is_literal(obj: object) -> bool:
    """A value written into the module as its literal text (exact types: a NumPy scalar
    is imported or bound instead, its repr being a call)."""
    if type(obj) in (tuple, frozenset):
        return all(_is_literal(o) for o in obj)
    return literals.is_literal(obj)


def _import_object(name: str, obj: object) -> str | None:
    """`from module import qualname as name` when that import gives back this very object."""
    module_name = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if not module_name or not qualname or "<" in qualname or "." in qualname:
        return None
    if module_name == "__main__":
        return None
    module = sys.modules.get(module_name)
    if module is None or getattr(module, qualname, None) is not obj:
        # NumPy ufuncs and functions report a private module; try the public one.
        public = module_name.split(".")[0]
        module = sys.modules.get(public)
        if module is None or getattr(module, qualname, None) is not obj:
            return None
        module_name = public
    if getattr(module, "__spec__", None) is None:
        return None
    alias = "" if name == qualname else f" as {name}"
    return f"from {module_name} import {qualname}{alias}"


@functools.lru_cache(maxsize=1024)
def _helper_source(
    text: str, obj: types.FunctionType | type, renamed: tuple[tuple[str, str], ...]
) -> str:
    """A helper's source with its own name and the names it reads changed as `renamed`
    ((old, new) pairs) says (names only: `np.add.at` keeps its `add`)."""
    renames = {old: new for old, new in renamed if old != new}
    if renames:
        lines = [row.encode() for row in text.split("\n")]  # ast columns count bytes
        spots = sorted(
            (
                (node.lineno, node.col_offset, node.id)
                for node in walk(ast.parse(text))
                if isinstance(node, ast.Name) and node.id in renames
            ),
            reverse=True,
        )
        for line, col, old in spots:  # right to left: earlier columns stay valid
            row = lines[line - 1]
            lines[line - 1] = row[:col] + renames[old].encode() + row[col + len(old) :]
        text = "\n".join(row.decode() for row in lines)
        own = obj.__name__
        if own in renames:
            keyword = "class" if inspect.isclass(obj) else "def"
            text = text.replace(f"{keyword} {own}", f"{keyword} {renames[own]}", 1)
    return text.rstrip("\n")
