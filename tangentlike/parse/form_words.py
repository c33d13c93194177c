"""The user's words in a refusal raised while differentiating a gradient again.

A second-order refusal is found in the differentiable form of a generated gradient
(higher/forms.py), whose names and lines are the generated code's: `_bwd_h1_v11` (h1's
`v1`, inlined from the gradient's backward part), `_x_own1` (the gradient's own copy of
the argument x), the chain `_stack` of the values the gradient saves for its backward
sweep, and statements such as `A = entry_copy(_A_caller1, "...")` at a line of the form.
Here such a text is told in the user's terms: the variable as the user wrote it, with
the function it belongs to, and the user's line the statement was generated for.

Assumes: names the first-order pipeline makes: an inlined function's local `v` is
`_<function>_<v><n>` (normalize/closure_calls.py, syntax.names.Namer.temp), a
parameter's copies `_<p>_own<n>` / `_<p>_caller<n>` (transform/argument_copies.py), the
chain `_stack` (higher/forms.py); origins.origin maps a form's line to the user's.
Guarantees: only words so recognised change (a name the function's own source holds is
the user's and kept); everything else in the text stays as it is.
"""

from __future__ import annotations

import linecache
import os
import re
import types

from . import origins
from .source import ParsedFunction

_QUOTED = re.compile(r"'(_[A-Za-z_]\w*)'")
_AT_LINE = re.compile(r"` at line (\d+)")
_COPY = re.compile(r"_([A-Za-z]\w*?)_(?:own|caller)\d+")
CHAIN = "what the gradient saved for its backward sweep"


def in_form(parsed: ParsedFunction) -> bool:
    """Whether `parsed` is (a function of) a gradient's differentiable form."""
    return origins.is_form(parsed.filename)


def told(parsed: ParsedFunction, text: str) -> str:
    """`text` (a refusal of code in the form `parsed`) in the user's words."""
    if not in_form(parsed):
        return text
    for line in sorted({int(n) for n in _AT_LINE.findall(text)}):
        statement = parsed.line_text(line).strip()
        quoted = f"`{statement}` at line {line}"
        if re.search(r"\b(_stack|_pushed\d|_pushkey\d)\w*\b", statement):  # said by CHAIN
            text = text.replace(f" (shared since {quoted})", "")
            text = text.replace(f"the value of {quoted}", CHAIN)
            text = text.replace(quoted, CHAIN)
        text = text.replace(quoted, _statement(parsed, quoted, line))
    return _QUOTED.sub(lambda m: _name(parsed, m.group(1)), text)


HINT = (
    "What to do: at second order, tangentlike follows an update in place in the gradient "
    "only where it can show that the values the gradient saves for its backward sweep "
    "and the caller's arrays share no memory with the updated array; write the update "
    "at this line out of place (a new array: `v = v * ...`), or take a copy (.copy()) "
    "where the array is made."
)


def _statement(parsed: ParsedFunction, quoted: str, line: int) -> str:
    """ "`y = x[1:3]` at fz.py:4" for a statement of the form at `line` generated for the
    user's line 4 (the user's text), else `quoted` as it is."""
    found = origins.origin(parsed.filename, line)
    if found is None or origins.is_generated(found[0]):
        return quoted
    path, number = found
    shown = linecache.getline(path, number).strip()
    where = f"{os.path.basename(path)}:{number}"
    return f"`{shown}` at {where}" if shown else f"line {where}"


def _name(parsed: ParsedFunction, name: str) -> str:
    """The user's name behind a generated one, quoted ('v1' (in h1), 'x'), else it."""
    if name.startswith("_stack") or re.fullmatch(r"_push(ed|key)\d+", name):
        return CHAIN  # the chain, or a value pushed on it (higher/form_pairs.py)
    copy = _COPY.fullmatch(name)
    if copy is not None and copy.group(1) in _params(parsed.func):
        return f"{copy.group(1)!r} (the gradient's copy of that argument)"
    inlined = _inlined(parsed, name)
    return repr(name) if inlined is None else inlined


def _inlined(parsed: ParsedFunction, name: str) -> str | None:
    """`'v1' (in h1)` for `_bwd_h1_v11`: the local v1 of the function `_bwd_h1` (h1's
    gradient) inlined into the code refused, renamed `_bwd_h1_v1` plus a counter."""
    scope = getattr(parsed.func, "__globals__", {})
    for key, value in list(scope.items()):
        if not isinstance(value, types.FunctionType) or not key.lstrip("_"):
            continue
        prefix = f"_{key.lstrip('_')}_"
        if not name.startswith(prefix):
            continue
        rest = name[len(prefix) :]
        local_names = value.__code__.co_varnames
        for cut in range(1, len(rest)):
            base, counter = rest[:-cut], rest[-cut:]
            if counter.isdigit() and base in local_names:
                return f"{_user_name(base)} (in {_user_function(key)})"
    return None


def _user_name(base: str) -> str:
    copy = _COPY.fullmatch(base)
    if copy is not None:
        return repr(copy.group(1))
    return repr(base) if not base.startswith("_") else f"a value computed for {base!r}"


def _user_function(key: str) -> str:
    for part in ("_fwd_", "_bwd_"):
        if key.startswith(part):
            return f"the gradient of {key[len(part) :]}"
    return key


def _params(func: object) -> tuple[str, ...]:
    code = getattr(func, "__code__", None)
    return code.co_varnames[: code.co_argcount] if code is not None else ()
