"""The words for refusing an in-place update the gradient cannot follow.

Every message names the update, the name that shares its memory and is read
afterwards, where that sharing was made, and the rewrite to use. Refusals known
when the gradient is built are located errors; `*_guard` texts are raised at
run time by `runtime.unshared`, for updates that change an array only when the
value turns out to be one (numbers are never shared).
"""

from __future__ import annotations

import linecache
import os
import re

import gast

from ..errors import UnsupportedSyntaxError
from ..parse import form_words, origins
from ..parse.source import ParsedFunction
from . import spoken
from .aliases import Aliases, View
from .effects import Mutation

Shared = list[tuple[str, gast.expr]]  # (name, an expression reading it)

_OPS = {
    gast.Add: "+",
    gast.Sub: "-",
    gast.Mult: "*",
    gast.Div: "/",
    gast.FloorDiv: "//",
    gast.Mod: "%",
    gast.Pow: "**",
    gast.MatMult: "@",
    gast.BitAnd: "&",
    gast.BitOr: "|",
    gast.BitXor: "^",
    gast.LShift: "<<",
    gast.RShift: ">>",
}


def text(parsed: ParsedFunction, node: gast.AST) -> str:
    """The source line of `node`, stripped."""
    return parsed.line_text(getattr(node, "lineno", parsed.first_line)).strip()


def said(parsed: ParsedFunction, node: gast.AST) -> str:
    """The line of `node` as the user wrote it: in a gradient's differentiable form
    (second order), the user's line it stands for where it can be traced
    (parse/origins.py), not the generated statement (`y[1:2] = _z21`); else text()."""
    line = getattr(node, "lineno", parsed.first_line)
    if origins.is_form(parsed.filename):
        found = origins.origin(parsed.filename, line)
        if found is not None and not origins.is_generated(found[0]):
            shown = linecache.getline(*found).strip()
            if shown:
                return shown
    return text(parsed, node)


def place(parsed: ParsedFunction, node: gast.AST) -> str:
    """`file.py:LINE` of node; in a gradient's differentiable form (second order), the
    user's line it stands for where it can be traced (parse/origins.py)."""
    line = getattr(node, "lineno", parsed.first_line)
    if origins.is_form(parsed.filename):
        found = origins.origin(parsed.filename, line)
        if found is not None:
            return f"{os.path.basename(found[0])}:{found[1]}"
    return f"{parsed.basename}:{line}"


def made(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str:
    """Where `name` got the value it has at stmt: "`v = y[1:3]` at line 4"."""
    origin = aliases.made_at(stmt, name)
    if origin is None:
        return f"the argument {name!r}" if name in aliases.params else f"{name!r}"
    where = f"`{text(parsed, origin)}` at line {origin.lineno}"
    return form_words.told(parsed, where)  # in a gradient's form: the user's line


def label(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str:
    if name not in aliases.locals:
        return f"the global {name!r}"
    if not name.startswith("_"):
        return repr(name)
    if form_words.in_form(parsed):  # the gradient's copy of an argument, its saved values
        said_so = form_words.told(parsed, repr(name))
        if said_so != repr(name):
            return said_so
    origin = made(parsed, aliases, stmt, name)  # a compiler temporary
    return origin if origin == form_words.CHAIN else f"the value of {origin}"


def labels(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, shared: Shared) -> str:
    """`'y'`, `'y' and 'w'`; compiler temporaries only when no user name shares."""
    names = [n for n, _ in shared]
    user = [n for n in names if not n.startswith("_")]
    words = list(dict.fromkeys(label(parsed, aliases, stmt, n) for n in user or names))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _share(shared: Shared) -> str:
    many = len({n for n, _ in shared if not n.startswith("_")} or shared) > 1
    return "share" if many else "shares"


def _op(stmt: gast.AugAssign) -> str:
    return _OPS.get(type(stmt.op), "op")


def augmented_guard(parsed: ParsedFunction, aliases: Aliases, stmt: gast.AugAssign, shared: Shared):
    """For runtime.unshared: `m.py:7: `z += 1.0` updates 'z' in place, and 'y' (read
    afterwards) shares its memory ('z' comes from `z = y` at line 6)`."""
    z = stmt.target.id
    shown = shown_name(parsed, stmt, z)
    return (
        f"{place(parsed, stmt)}: `{said(parsed, stmt)}` updates {shown!r} in place, and "
        f"{labels(parsed, aliases, stmt, shared)} (read afterwards) {_share(shared)} its "
        f"memory ({shown!r} comes from {made(parsed, aliases, stmt, z)})"
    )


def shown_name(parsed: ParsedFunction, stmt: gast.AugAssign, name: str) -> str:
    """The name as the user wrote it (an inlined nested function's `v`, not `_g_v1`)."""
    found = re.match(r"\s*(\w+)\s*\S*=", text(parsed, stmt))
    return found.group(1) if found and name.startswith("_") else name


def view_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.AugAssign, view: View, shared: Shared
) -> UnsupportedSyntaxError:
    z, op, base = shown_name(parsed, stmt, stmt.target.id), _op(stmt), view.base
    of = repr(base) if not base.startswith("_") else "an array"
    return parsed.error(
        stmt,
        f"`{text(parsed, stmt)}` changes {z!r} in place, and {z!r} is a view of {of} "
        f"(made by `{text(parsed, view.stmt)}` at line {view.stmt.lineno}): the update also "
        f"changes {labels(parsed, aliases, stmt, shared)}, read afterwards, which the gradient "
        "cannot follow",
        f"update {base!r} itself by index ({base}[...] {op}= ...) where nothing else still "
        f"refers to it, write `{z} = {z} {op} ...` if a new array was meant, or take a copy "
        f"({z} = {base}[...].copy())",
    )


def checkpointed_view_refusal(
    parsed: ParsedFunction, stmt: gast.AugAssign, view: View
) -> UnsupportedSyntaxError:
    z, base = shown_name(parsed, stmt, stmt.target.id), view.base
    return parsed.error(
        stmt,
        f"`{text(parsed, stmt)}` changes {z!r}, a view of {base!r} made before the "
        f"checkpointed loop around it (`{text(parsed, view.stmt)}` at line "
        f"{view.stmt.lineno}): the loop's steps, recomputed from their stored state, would "
        f"find {z!r} no longer a view of {base!r}",
        f"make the view inside the loop ({z} = {text(parsed, view.stmt).split('=', 1)[-1].strip()}"
        f" before the update), or update {base!r} by index",
    )


def call_guard(
    parsed: ParsedFunction,
    aliases: Aliases,
    stmt: gast.stmt,
    callee: object,
    param: str,
    mutation: Mutation,
    arg: str,
    shared: Shared,
) -> str:
    """For runtime.unshared: `m.py:9: h(y) changes its parameter 'v' in place (`v += 1.0`
    at h.py:3), and 'y' is read afterwards (or again by the gradient)`."""
    others = [(n, e) for n, e in shared if n != arg]
    shown = spoken.quoted(parsed, aliases, stmt, arg)
    seen = f"{labels(parsed, aliases, stmt, others)}, sharing its memory," if others else shown
    said = spoken.spoken(parsed, aliases, stmt, arg) or "..."
    return (
        f"{place(parsed, stmt)}: {callee.__qualname__}({said}) changes its parameter {param!r} "
        f"in place ({mutation.describe()}), and {seen} is read afterwards (or again by the "
        "gradient)"
    )


def item_write_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.Assign, y: str, shared: Shared
) -> UnsupportedSyntaxError:
    """`y[index] = v` where y may share memory with an argument, a global, or a name read
    after the write (in the user's words where the code is a gradient's differentiable
    form: parse/form_words.py)."""
    return _told(parsed, _item_write_refusal(parsed, aliases, stmt, y, shared))


def _told(parsed: ParsedFunction, error: UnsupportedSyntaxError) -> UnsupportedSyntaxError:
    """`error` with its words told as the user's (parse/form_words.py) in a form."""
    if form_words.in_form(parsed):
        error.message = form_words.told(parsed, error.message)
        error.hint = form_words.HINT
        error.args = (error._render(),)
    return error


def _item_write_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.Assign, y: str, shared: Shared
) -> UnsupportedSyntaxError:
    where = stmt.targets[0]
    params = aliases.params_of(stmt, y)
    if y in aliases.params and (params or not shared):  # not rebound to its own copy
        return parsed.error(
            where,
            f"writing into the argument {y!r} changes the caller's array",
            f"write into a copy: {y} = {y}.copy() before the first write",
        )
    origin = made(parsed, aliases, stmt, y)
    if params and origin == form_words.CHAIN:  # restored from the gradient's saved values
        return parsed.error(
            where,
            f"writing into {y!r} may change the caller's array {params[0]!r}: the array is "
            f"read back from {origin}, which may also hold {params[0]!r} (or a view of it), "
            "and tangentlike cannot tell which of the saved values it is",
            f"write into a copy made there: {y} = np.copy(...)",
        )
    if params:
        return parsed.error(
            where,
            f"writing into {y!r} changes the caller's array {params[0]!r}: {y!r} may be a view "
            f"of that argument (it comes from {origin})",
            f"write into a copy made there: {y} = np.copy(...)",
        )
    name, _ = shared[0]
    if name == y:
        return parsed.error(
            where,
            f"writing into the global {y!r} changes it for every caller",
            f"write into a local copy: {y.lower()}_copy = np.copy({y})",
        )
    if name not in aliases.locals:
        return parsed.error(
            where,
            f"writing into {y!r} changes the global {name!r}, whose memory it may share "
            f"(it comes from {origin})",
            f"write into a copy made there: {y} = np.copy(...)",
        )
    later = max(
        (
            s
            for s in (aliases.made_at(stmt, y), aliases.made_at(stmt, name))
            # not the write itself, nor an argument's copy made for it (located there)
            if s is not None and s.lineno != stmt.lineno
        ),
        key=lambda s: s.lineno,
        default=None,
    )
    shared_by = f" (shared since `{text(parsed, later)}` at line {later.lineno})" if later else ""
    return parsed.error(
        where,
        f"{label(parsed, aliases, stmt, name)} refers to (part of) the memory of {y!r}"
        f"{shared_by} and is read after this write into {y!r}, which changes it too",
        f"take a copy where it is made (np.copy(...)), or read it again from {y} after the write",
    )


def inactive_call_refusal(
    parsed: ParsedFunction,
    aliases: Aliases,
    stmt: gast.stmt,
    callee: object,
    param: str,
    mutation: Mutation,
    arg: str,
) -> UnsupportedSyntaxError:
    name, said = callee.__qualname__, spoken.spoken(parsed, aliases, stmt, arg)
    shown = spoken.quoted(parsed, aliases, stmt, arg)
    return parsed.error(
        stmt,
        f"{name}({said or '...'}) changes its parameter {param!r} in place "
        f"({mutation.describe()}), and the gradient reads {shown} as it was before this call",
        f"make {name} return a new array instead of updating {param!r} in place, or pass a "
        f"copy ({spoken.copied(said) if said else 'a copy of the argument'})",
    )


def unknown_call_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, callee: object, arg: str
) -> UnsupportedSyntaxError:
    name, shown = callee.__qualname__, spoken.quoted(parsed, aliases, stmt, arg)
    said = spoken.spoken(parsed, aliases, stmt, arg) or "..."
    return parsed.error(
        stmt,
        f"{name}(...) receives the differentiated value {shown}, but its result carries no "
        f"gradient and tangentlike cannot tell what {name} does with its arguments (its "
        f"source cannot be differentiated: tl.grad({name}) says why): it may write {shown} "
        "into memory the output reads",
        f"pass tl.stop_gradient({said}) if no gradient flows through this call, or rewrite "
        f"{name} in a form tangentlike differentiates",
    )
