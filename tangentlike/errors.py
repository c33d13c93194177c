"""Error classes. Every error a user can cause carries a SourceLocation and says what to do."""

from __future__ import annotations

import linecache
from dataclasses import dataclass

from .parse import origins


@dataclass(frozen=True)
class SourceLocation:
    """A place in a user's source file: 1-based line, 0-based column, and that line's text."""

    filename: str
    line: int
    col: int
    text: str = ""

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col + 1}"

    def excerpt(self) -> str:
        """The offending line with a caret under the column."""
        if not self.text:
            return ""
        stripped = self.text.rstrip("\n")
        indent = len(stripped) - len(stripped.lstrip())
        col = max(self.col, indent)
        return f"    {stripped.strip()}\n    {' ' * (col - indent)}^"


def _user_location(filename: str, line: int) -> SourceLocation:
    """The whole user line `line` of `filename`, the caret at its first character."""
    text = linecache.getline(filename, line)
    return SourceLocation(filename, line, len(text) - len(text.lstrip()), text)


class TangentlikeError(Exception):
    """Base class of every error tangentlike raises on purpose."""

    def __init__(self, message: str, location: SourceLocation | None = None, hint: str = ""):
        self.message = message
        # an error found in generated code (differentiating a derivative) points at the
        # user's line it stands for; the generated line is shown after it
        self.generated_location = None
        if location is not None and origins.is_generated(location.filename):
            found = origins.origin(location.filename, location.line)
            if found is not None:
                self.generated_location = location
                location = _user_location(*found)
        self.location = location
        self.hint = hint
        super().__init__(self._render())

    def _render(self) -> str:
        parts = []
        if self.location is not None:
            parts.append(f"{self.location}: {self.message}")
            excerpt = self.location.excerpt()
            if excerpt:
                parts.append(excerpt)
        else:
            parts.append(self.message)
        generated = self.generated_location
        if generated is not None:
            parts.append(f"  in the derivative code generated for it ({generated}):")
            parts.append(generated.excerpt() or f"    {generated.text.strip()}")
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)


class UnsupportedSyntaxError(TangentlikeError):
    """The function uses Python syntax tangentlike cannot differentiate (yet)."""


class UnknownClassError(UnsupportedSyntaxError):
    """A method is called on a parameter whose class is not known when the gradient is
    built; `grad` then builds on the first call, for the classes of the arguments."""

    def __init__(self, message: str, location=None, hint: str = "", param: str = "") -> None:
        self.param = param
        super().__init__(message, location, hint)


class UnknownKindError(UnknownClassError):
    """A parameter written into by index may be an array, a list or a dict: the gradient
    is built ahead for an array, and at a call for a list or dict passed there."""


class UnknownFunctionError(TangentlikeError):
    """A differentiated value flows into a function with neither source nor derivative rule."""


class SourceNotFoundError(TangentlikeError):
    """The source of a function could not be read (built-in, REPL, lambda in an expression...)."""


class SourceChangedError(TangentlikeError):
    """The source file of a function was edited after the function was imported: its text
    is not the code that runs."""


class WrtError(TangentlikeError, ValueError):
    """`wrt` names no parameter, or a parameter that is not differentiable."""


class RuleError(TangentlikeError):
    """A derivative rule registered with `tl.adjoint` is malformed."""


class NonScalarOutputError(TangentlikeError, ValueError):
    """`grad` was asked for the gradient of a non-scalar output."""


class CheckError(TangentlikeError, ValueError):
    """A check the generated code makes at run time failed: a vjp seed, a user rule's
    contribution, a gradient, or (debug mode) an adjoint or the stack."""


class InternalError(TangentlikeError):
    """A bug in tangentlike itself: a compiler invariant does not hold. Never the user's
    fault; raised instead of continuing with code that might compute a wrong gradient."""

    def __init__(self, message: str, location: SourceLocation | None = None, hint: str = ""):
        hint = hint or (
            "This is a bug in tangentlike, not in your code: please report it with the "
            "function being differentiated."
        )
        super().__init__(f"internal error: {message}", location, hint)


class JitError(TangentlikeError):
    """`jit=True` was asked for a gradient numba cannot compile in nopython mode (or numba
    is not installed): the error names the first construct that blocks it."""


class JitWarning(UserWarning):
    """`jit="auto"` runs the Python adjoint: numba cannot compile the gradient (said once
    per gradient, with the JitError's message)."""
