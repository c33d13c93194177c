"""What the lowering passes share: the module being lowered (its comments, names and
helpers), the result type, the kernel tables, and small node builders.

Assumes: a generated module's text (build.py). Guarantees: nothing here changes a tree.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import JitError, SourceLocation
from ..syntax.nodes import walk

# runtime helpers with a numba kernel of the same name (kernels.py, kernels_join.py)
KERNELS = frozenset(
    {
        "add",
        "add_item",
        "copies_array",
        "seed_like",
        "dot_vjp_a",
        "dot_vjp_b",
        "matmul_vjp_a",
        "matmul_vjp_b",
        "sum_to",
        "unbroadcast",
        "undiff",
        "unmul",
        "unsubscript",
        "zeros_of",
        "zero_tangent",
        "tangent_as",
    }
)
# NumPy functions numba has for arrays only: called through kernels that take numbers too
NUMPY_KERNELS = {"zeros_like": "zeros_like", "ndim": "ndim", "shape": "shape"}
# kernels defined in kernels_join.py (the others are in kernels.py)
JOIN_KERNELS = frozenset(
    {
        "concatenate",
        "copies_array",
        "max_axis_keepdims",
        "seed_like",
        "split_like",
        "sum_axis_keepdims",
        "sum_keepdims",
    }
)
# kernels defined in kernels_forward.py: numba implementations of runtime/forward.py's
# helpers (a compiled jvp)
FORWARD_KERNELS = frozenset({"zero_tangent", "tangent_as"})
FINISH = "gradient_like"  # the helper shaping gradients: run in Python, after the call
START = "tangent_like"  # a jvp's check of the caller's tangents: Python, before the call
OUTPUT = "output_tangent"  # a jvp's shaping of the output's tangent: Python, after the call

ORIGIN = re.compile(r"([\w.-]+\.py):(\d+)")
Where = Callable[[str, int], SourceLocation | None]


@dataclass(frozen=True)
class Lowered:
    source: str  # the module text numba compiles
    entry: str  # the compiled entry function: the raw adjoints, as a tuple
    finish: str  # the Python function (params..., outputs) -> what the gradient returns
    params: tuple[str, ...]  # the entry's parameters, in order
    origins: dict[int, tuple[str, int]]  # line of `source` -> (user file basename, line)
    start: str | None = None  # Python (params...) -> the params the entry takes (a jvp's)


@dataclass
class Module:
    """What lowering one module needs to know across its functions."""

    text: str
    where: Where
    comments: dict[int, str]
    full_line: set[int]
    helpers: dict[str, str]  # module name of a runtime helper -> its kernel
    numpy: str  # the module's name for NumPy
    taken: set[str]
    saves: dict[str, str] = field(default_factory=dict)  # variant base -> stack in the entry
    numpy_kernels: dict[str, str] = field(default_factory=dict)  # kernel -> its module name
    forward: bool = False  # a jvp's module: a tangent's line stands for the primal's above

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()

    def fresh(self, preferred: str) -> str:
        name, k = preferred, 1
        while name in self.taken:
            k += 1
            name = f"{preferred}_{k}"
        self.taken.add(name)
        return name

    def origin(self, line: int) -> tuple[str, int] | None:
        """The user's (file, line) a generated line stands for: its own comment, else the
        block comment above it (`# grad of f.py:12 ...`); in a jvp's module, else the
        comment of the line above (a tangent's statement follows its primal's)."""
        for at in range(line, 0, -1):
            found = ORIGIN.search(self.comments.get(at, ""))
            if found and (at == line or at in self.full_line or self.forward):
                return found[1], int(found[2])
            if at < line and self.text_line(at).lstrip().startswith("def "):
                return None
        return None

    def text_line(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def numpy_kernel(self, kernel: str) -> str:
        """The module name of the kernel standing for a NumPy function."""
        if kernel not in self.numpy_kernels:
            name = self.fresh(kernel)
            self.numpy_kernels[kernel] = name
            self.helpers[name] = kernel
        return self.numpy_kernels[kernel]

    def refuse(self, node: ast.AST, what: str) -> JitError:
        origin = self.origin(getattr(node, "lineno", 0))
        location = self.where(*origin) if origin else None
        generated = ast.unparse(node).split("\n")[0] if isinstance(node, ast.AST) else ""
        return JitError(
            f"jit=True cannot compile this line: {what} (in the generated adjoint: "
            f"`{generated[:100]}`) has no equivalent in numba's nopython mode here",
            location,
            hint='What to do: leave jit out for this function, or use jit="auto" to fall '
            "back to the Python adjoint with a warning.",
        )


# ---------------------------------------------------------------------------
# small node helpers


def is_name(node: ast.AST | None, name: str | None) -> bool:
    return isinstance(node, ast.Name) and name is not None and node.id == name


def is_method(node: ast.AST | None, owner: str, method: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and is_name(node.func.value, owner)
    )


def is_call_of(node: ast.AST | None, bound: str | None, stack: str | None, method: str) -> bool:
    """A call of the bound method `bound` or of `stack.<method>`."""
    if isinstance(node, ast.Call) and is_name(node.func, bound):
        return True
    return stack is not None and is_method(node, stack, method)


def is_variant(call: ast.Call, prefix: str) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id.startswith(prefix)


def names_in(fn: ast.AST) -> set[str]:
    return {n.id for n in walk(fn) if isinstance(n, ast.Name)}


def load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([store(name)], value, lineno=None)  # new: no comment, no origin


def method(owner: str, method: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Attribute(load(owner), method, ast.Load()), list(args), [])
