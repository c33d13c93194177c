"""Where a line of generated code came from in the user's source.

A derivative of a derivative (grad of grad, hvp, third order) is built from generated
code: a gradient module (its statements commented with the user's `file.py:LINE`, its
backward blocks headed `# grad of file.py:LINE`) or that module's differentiable form
(higher/forms.py: the same statements re-printed, registered here with the line of the
gradient module each of its lines comes from). An error found there must point at the
user's line, not at `<tangentlike ...>` text the user never wrote.

Guarantees: `origin(filename, line)` is the user's (file, line) a generated line stands
for, following forms to their gradient modules and gradients of forms to their forms, or
None when the line cannot be traced (never a guess at another line of the same file).
"""

from __future__ import annotations

import linecache
import os
import re

GENERATED_PREFIX = "<tangentlike "
# a statement's trailing `# file.py:12` (maybe followed by the source text), or a block's
# `# grad of file.py:12`; a generated file's name is `<tangentlike ...>`, spaces and all
_COMMENT = re.compile(r"#\s(?:grad of\s)?(<tangentlike [^>]*>|[^\s:#]+):(\d+)(?:\s\s(.*))?\s*$")
_SOURCE = re.compile(r"^# Source: (.+):(\d+)\s*$")
_MAX_DEPTH = 8  # third order is three levels of generated code; more is a cycle

_forms: dict[str, tuple[str, dict[int, int]]] = {}


def register_form(form_file: str, generated_file: str, lines: dict[int, int]) -> None:
    """Record that line k of `form_file` re-prints line lines[k] of `generated_file`."""
    _forms[form_file] = (generated_file, dict(lines))


def is_form(filename: str) -> bool:
    """Whether `filename` is that of a gradient's differentiable form (higher/forms.py)."""
    return filename in _forms


def is_generated(filename: str) -> bool:
    return filename.startswith(GENERATED_PREFIX)


def origin(filename: str, line: int) -> tuple[str, int] | None:
    """The user's (file, line) behind line `line` of a generated file, or None."""
    for _ in range(_MAX_DEPTH):
        if not is_generated(filename):
            return filename, line
        if filename in _forms:
            generated, lines = _forms[filename]
            if line not in lines:
                return None
            filename, line = generated, lines[line]
            continue
        found = _commented_origin(filename, line)
        if found is None:
            return None
        filename, line = found
    return None


def _commented_origin(filename: str, line: int) -> tuple[str, int] | None:
    """The `file:LINE` comment of a generated module's line, or of the nearest line above
    it in the same function that has one (a backward block's `# grad of` heading)."""
    lines = linecache.getlines(filename)
    if not 0 < line <= len(lines):
        return None
    for k in range(line - 1, -1, -1):
        stripped = lines[k].lstrip()
        if stripped.startswith("def ") and k != line - 1:
            return None  # the function's first line: nothing above belongs to it
        match = _COMMENT.search(lines[k])
        if match is not None:
            name, number = match.group(1), int(match.group(2))
            return _full_path(lines, name, number, _source_text(lines, k, match)), number
    return None


def _source_text(lines: list[str], k: int, match: re.Match) -> str:
    """The user's source text a comment quotes (`# f.py:3  y = x * 2`), or that of the
    first comment above it naming the same place (statements of one line share it)."""
    for j in range(k, -1, -1):
        found = _COMMENT.search(lines[j])
        if found is None or found.group(1, 2) != match.group(1, 2):
            continue
        quoted = found.group(3)
        if quoted:
            return quoted.strip()
    return ""


def _full_path(lines: list[str], name: str, number: int, text: str) -> str:
    """The path a comment's `file.py` names (comments and headers carry base names): the
    module's `# Source:` file when it is a path with that base name, else the file of that
    base name tangentlike has read (in linecache) whose line `number` is the quoted `text`,
    else the name as written."""
    for header in lines[:4]:
        match = _SOURCE.match(header)
        if match is not None:
            path = match.group(1)
            if os.path.isabs(path) and os.path.basename(path) == name:
                return path
    if os.path.isabs(name) or is_generated(name):
        return name
    read = [k for k in list(linecache.cache) if os.path.basename(k) == name and os.path.isabs(k)]
    if len(read) > 1 and text:
        read = [k for k in read if linecache.getline(k, number).strip() == text]
    return read[0] if len(read) == 1 else name
