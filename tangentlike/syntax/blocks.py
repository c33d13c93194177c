"""The lines of a `def` or `class` block, as `inspect.getblock` cuts them, faster.

`inspect.getblock` runs Python's pure-Python tokenizer over the block: about a
millisecond per function, paid for every function a cold build parses, every
runtime helper a generated module copies and every rule template it fills in.
`block` finds the same end with the C parser: it parses the lines up to each
candidate end (a line of code indented no deeper than the first line) until
they form exactly one statement, then adds the comment lines `getblock` keeps
after the last statement (those indented at least as deep as the body).
Anything it does not recognise (a lambda, a one-line body, tabs or form feeds
in the indentation, lines that do not parse alone) goes to `inspect.getblock`
itself, so the result is always getblock's.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

_HEADS = ("def ", "def\t", "async ", "class ", "class\t", "@")
_TRIES = 8  # candidate ends parsed before leaving the lines to getblock


def block(lines: list[str]) -> list[str]:
    """`inspect.getblock(lines)`: the block of code at the top of `lines`."""
    end = _fast_end(lines)
    if end is None:
        return inspect.getblock(lines)
    return lines[:end]


def source(obj: object) -> str:
    """`inspect.getsource(obj)` for a function or class (found as inspect finds it)."""
    lines, start = inspect.findsource(inspect.unwrap(obj))
    return "".join(block(lines[start:]))


def _indent(line: str) -> int | None:
    """The width of a line's indentation; None when it holds a tab or form feed (whose
    columns the tokenizer counts its own way)."""
    body = line.lstrip(" ")
    if body[:1] in ("\t", "\f"):
        return None
    return len(line) - len(body)


def _is_code(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith("#")


def _fast_end(lines: list[str]) -> int | None:
    """The number of lines getblock keeps, or None to let getblock decide."""
    if not lines or not lines[0].lstrip(" ").startswith(_HEADS):
        return None
    column = _indent(lines[0])
    if column is None:
        return None
    tries = 0
    for cut in range(1, len(lines) + 1):
        if cut < len(lines):
            width = _indent(lines[cut])
            if width is None:
                return None
            if width > column or not _is_code(lines[cut]):
                continue
        end = _end_if_whole(lines, cut)
        if end is not None:
            return end if end > 0 else None
        tries += 1
        if tries == _TRIES:
            return None
    return None


def _end_if_whole(lines: list[str], cut: int) -> int | None:
    """When lines[:cut] are one def/class statement: the number of lines getblock keeps
    (0 when that statement is of a kind left to getblock). None when they are not one
    statement (the cut is inside a string, brackets or the header)."""
    try:
        tree = ast.parse(textwrap.dedent("".join(lines[:cut])))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1:
        return None
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return 0
    first = node.body[0]
    row = first.lineno - 1  # the body's first line, in `lines`
    shift = len(lines[0]) - len(lines[0].lstrip(" ")) - node.col_offset  # dedent's width
    body_col = first.col_offset + shift
    if lines[row][:body_col].strip(" ") or _indent(lines[row]) != body_col:
        return 0  # the body starts on the header's line: getblock's own rules apply
    last = node.end_lineno
    for k in range(last, cut):  # after the last statement: blank and comment lines
        width = _indent(lines[k])
        if width is None or _is_code(lines[k]):
            return 0
        if lines[k].strip() and width >= body_col:
            last = k + 1
    return last
