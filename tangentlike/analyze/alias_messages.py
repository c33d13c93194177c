"""The words for refusing an in-place update the gradient cannot follow.

Every message names the update, the name that shares its memory and is read
afterwards, where that sharing was made, and the rewrite to use. Refusals known
when the gradient is built are located errors; `*_guard` texts are raised at
run time by `runtime.unshared`, for updates that change an array only when the
value turns out to be one (numbers are never shared).
"""

from __future__ import annotations

import gast

from ..errors import UnsupportedSyntaxError
from ..parse.source import ParsedFunction
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


def place(parsed: ParsedFunction, node: gast.AST) -> str:
    return f"{parsed.basename}:{getattr(node, 'lineno', parsed.first_line)}"


def made(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str:
    """Where `name` got the value it has at stmt: "`v = y[1:3]` at line 4"."""
    origin = aliases.made_at(stmt, name)
    if origin is None:
        return f"the argument {name!r}" if name in aliases.params else f"{name!r}"
    return f"`{text(parsed, origin)}` at line {origin.lineno}"


def label(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, name: str) -> str:
    if name not in aliases.before[id(stmt)].roots:
        return f"the global {name!r}"
    if not name.startswith("_"):
        return repr(name)
    return f"the value of {made(parsed, aliases, stmt, name)}"  # a compiler temporary


def labels(parsed: ParsedFunction, aliases: Aliases, stmt: gast.stmt, shared: Shared) -> str:
    words = [label(parsed, aliases, stmt, n) for n, _ in shared]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _op(stmt: gast.AugAssign) -> str:
    return _OPS.get(type(stmt.op), "op")


def augmented_guard(parsed: ParsedFunction, aliases: Aliases, stmt: gast.AugAssign, shared: Shared):
    z, op = stmt.target.id, _op(stmt)
    return (
        f"tangentlike: {place(parsed, stmt)}: `{text(parsed, stmt)}` updates the array {z!r} "
        f"in place, and {labels(parsed, aliases, stmt, shared)} (read afterwards) shares its "
        f"memory ({z!r} comes from {made(parsed, aliases, stmt, z)}): the gradient cannot "
        f"follow a change seen under another name. Write `{z} = {z} {op} ...` if a new array "
        "was meant, take a copy where the shared array is made (.copy()), or update that "
        "array itself by index"
    )


def view_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.AugAssign, view: View, shared: Shared
) -> UnsupportedSyntaxError:
    z, op, base = stmt.target.id, _op(stmt), view.base
    return parsed.error(
        stmt,
        f"`{text(parsed, stmt)}` changes {z!r} in place, and {z!r} is a view of {base!r} "
        f"(made by `{text(parsed, view.stmt)}` at line {view.stmt.lineno}): the update also "
        f"changes {labels(parsed, aliases, stmt, shared)}, read afterwards, which the gradient "
        "cannot follow",
        f"update {base!r} itself by index ({base}[...] {op}= ...) where nothing else still "
        f"refers to it, write `{z} = {z} {op} ...` if a new array was meant, or take a copy "
        f"({z} = {base}[...].copy())",
    )


def call_guard(
    parsed: ParsedFunction,
    stmt: gast.stmt,
    callee: object,
    param: str,
    mutation: Mutation,
    arg: str,
    shared: Shared,
) -> str:
    name = callee.__qualname__
    who = " and ".join(repr(n) for n, _ in shared)
    return (
        f"tangentlike: {place(parsed, stmt)}: {name}({arg}) changes its parameter {param!r} in "
        f"place ({mutation.describe()}), and {who} (read afterwards, or again by the gradient) "
        f"shares the memory of {arg!r}: the gradient cannot follow that. Make {name} return "
        f"a new array instead of updating {param!r} in place, and use its result, or pass a "
        f"copy ({arg}.copy())"
    )


def call_refusal(
    parsed: ParsedFunction,
    stmt: gast.stmt,
    callee: object,
    param: str,
    mutation: Mutation,
    arg: str,
    shared: Shared,
) -> UnsupportedSyntaxError:
    """Located at the update inside the helper; names the parameter and the call."""
    name = callee.__qualname__
    who = " and ".join(repr(n) for n, _ in shared)
    return UnsupportedSyntaxError(
        f"`{mutation.text}` changes the parameter {param!r} of {name} in place, and the call "
        f"`{text(parsed, stmt)}` at {place(parsed, stmt)} passes {arg!r}, whose memory "
        f"{who} still reads afterwards (in {parsed.func.__qualname__}): the gradient cannot "
        "follow that",
        mutation.where,
        hint=f"What to do: make {name} return a new array instead of updating {param!r} in "
        f"place, and use its result, or pass a copy ({arg}.copy()).",
    )


def item_write_refusal(
    parsed: ParsedFunction, aliases: Aliases, stmt: gast.Assign, y: str, shared: Shared
) -> UnsupportedSyntaxError:
    """`y[index] = v` where y may share memory with an argument, a global, or a name read
    after the write."""
    where = stmt.targets[0]
    params = aliases.params_of(stmt, y)
    if y in aliases.params:
        return parsed.error(
            where,
            f"writing into the argument {y!r} changes the caller's array",
            f"write into a copy: {y} = {y}.copy() before the first write",
        )
    origin = made(parsed, aliases, stmt, y)
    if params:
        return parsed.error(
            where,
            f"writing into {y!r} changes the caller's array {params[0]!r}: {y!r} may be a view "
            f"of that argument (it comes from {origin})",
            f"write into a copy made there: {y} = np.copy(...)",
        )
    name, _ = shared[0]
    if name not in aliases.before[id(stmt)].roots:
        return parsed.error(
            where,
            f"writing into {y!r} changes the global {name!r}, whose memory it may share "
            f"(it comes from {origin})",
            f"write into a copy made there: {y} = np.copy(...)",
        )
    return parsed.error(
        where,
        f"{label(parsed, aliases, stmt, name)} refers to (part of) the memory of {y!r} "
        f"(it comes from {made(parsed, aliases, stmt, name)}) and is read after this write "
        f"into {y!r}, which changes it too",
        f"take a copy where it is made (np.copy(...)), or read {y} again after the write",
    )


def inactive_call_refusal(
    parsed: ParsedFunction, stmt: gast.stmt, callee: object, param: str, mutation: Mutation, arg
) -> UnsupportedSyntaxError:
    name = callee.__qualname__
    return parsed.error(
        stmt,
        f"{name}({arg}) changes its parameter {param!r} in place ({mutation.describe()}), and "
        f"the gradient reads {arg!r} as it was before this call",
        f"make {name} return a new array instead of updating {param!r} in place, or pass a "
        f"copy ({arg}.copy())",
    )
