"""Lower a generated gradient module to a module numba compiles in nopython mode.

Assumes: the text of a module built by build.py for a plain job (no debug-mode checks,
no stats): an entry function, split variants of callees (`_fwd_<f>` / `_bwd_<f>`),
copies of runtime helpers, imports. Guarantees: the lowered functions compute what the
generated ones compute (stacks.py: typed stacks, split variants' saves as values,
descending ranges; emit.py: the entry returns raw outputs, a Python `_finish_<entry>`
shapes them like the arguments with the gradient_like helper). Runtime helpers are
called under their module names, bound to the numba kernels of the same name
(kernels.py); NumPy calls numba lacks or takes for arrays only become kernel calls
(`_Patterns`).
Refuses with a JitError located in the user's source (file:line:col and the line, from
the origin comments of the generated text) the first construct numba's nopython mode
cannot run or this lowering does not know: a helper without a kernel, a dict, a
comprehension, a lambda, with/try, a save in an unknown form, a nested split variant.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from ..syntax.nodes import walk
from . import emit, forward, inplace, stacks
from .context import (
    FINISH,
    KERNELS,
    NUMPY_KERNELS,
    Lowered,
    Module,
    Where,
    is_name,
    load,
    names_in,
)

_REFUSED = {
    ast.Dict: "a dict",
    ast.DictComp: "a dict comprehension",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.Set: "a set",
    ast.GeneratorExp: "a generator expression",
    ast.Lambda: "a lambda",
    ast.With: "a with statement",
    ast.Try: "a try statement",
    ast.Yield: "a yield",
    ast.JoinedStr: "an f-string",
    ast.Starred: "a starred expression",
    ast.FunctionDef: "a nested function",
    ast.Global: "a global statement",
    ast.Nonlocal: "a nonlocal statement",
}


def lower(
    text: str, entry: str, where: Where, cache: bool = True, standalone: bool = False
) -> Lowered:
    """The numba module of the generated module `text` whose entry function is `entry`.
    `where(basename, line)`: the location of a user's line, for refusals; `cache`:
    numba's on-disk cache for the compiled functions (off when the module binds objects
    of the running program); `standalone`: a module for the command line to write, the
    kernels copied in (no tangentlike import) and the gradient under the entry's name."""
    tree = ast.parse(text)
    comments, full_line = _comments(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    variants = ("_fwd_", "_bwd_", forward.VARIANT)
    generated = [n for n in defs if n == entry or n.startswith(variants)]
    taken = set(defs) | _module_names(tree)
    for name in generated:
        fn = defs[name]
        taken |= names_in(fn) | {n.arg for n in walk(fn) if isinstance(n, ast.arg)}
    helpers = {n: _kernel_of(n) for n in defs if n not in generated}
    module = Module(text, where, comments, full_line, helpers, _numpy_name(tree), taken)
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    fn = defs[entry]
    finish = module.fresh(f"_finish_{entry}")
    start_def = finish_def = None
    module.forward = forward.is_forward(fn)
    if module.forward:  # a jvp: its tangents checked and its output shaped in Python
        start_def = forward.split_start(fn, module.fresh(f"_start_{entry}"), module)
        finish_def = emit.split_return(fn, finish, module)
        for name in generated:
            if name.startswith(forward.VARIANT):
                forward.positional(defs[name])
    for name in generated:
        _Patterns(module).visit(defs[name])
        _check_constructs(defs[name], module, classes)
    for name in generated:
        if name.startswith("_fwd_"):
            stacks.lower_forward_variant(defs[name], module)
    for name in generated:
        if name.startswith("_bwd_"):
            stacks.lower_backward_variant(defs[name], module)
    if fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg or fn.args.posonlyargs:
        raise module.refuse(fn, "parameters other than plain positional ones")
    params = tuple(a.arg for a in fn.args.args)
    if finish_def is None:
        finish_def = emit.split_return(fn, finish, module)
    if not module.forward:  # a jvp has no stack
        stacks.lower_body(fn, module, entry=True)
    for name in generated:
        inplace.run(defs[name], module)
    ends = emit.Ends(finish_def, start_def)
    return emit.emit(tree, generated, defs, ends, module, entry, params, cache, standalone)


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level (imports, assignments)."""
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            found |= names_in(node)
    return found


def _kernel_of(name: str) -> str | None:
    """The kernel standing for the helper the module calls `name` (helpers may be renamed
    `name_2` where a user's name took theirs)."""
    base = re.sub(r"_\d+$", "", name)
    return name if name in KERNELS else base if base in KERNELS else None


def _numpy_name(tree: ast.Module) -> str:
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "numpy":
                    return alias.asname or "numpy"
    return "np"


def _comments(text: str) -> tuple[dict[int, str], set[int]]:
    """line -> the comment on it, and the lines holding only a comment."""
    found: dict[int, str] = {}
    alone: set[int] = set()
    lines = text.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            line = token.start[0]
            found[line] = token.string
            if not lines[line - 1][: token.start[1]].strip():
                alone.add(line)
    return found, alone


_WHOLE_KEPT = {"axis": "None", "keepdims": "True"}  # np.sum(x, axis=None, keepdims=True)
# np.sum / np.max(x, axis=<int>, keepdims=True), which numba lacks: kernels for matrices
_AXIS_KEPT = {"sum": "sum_axis_keepdims", "max": "max_axis_keepdims", "amax": "max_axis_keepdims"}


def _is_const(node: ast.expr | None, value: object) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _is_value(node: ast.expr | None, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def _is_int(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


class _Patterns(ast.NodeTransformer):
    """NumPy calls numba lacks or takes only for arrays, as kernel calls: `np.zeros_like`,
    `np.ndim`, `np.shape` (numbers too), `np.sum(x, axis=None, keepdims=True)`,
    `np.concatenate` of a tuple (lists of numbers
    too), and the concatenation adjoint's `np.split(g, np.cumsum([np.shape(p)[0] for p in
    parts])[:-1], axis)` or `unconcatenate(g, parts, axis)` as `split_like(g, parts, axis)`;
    the helper `spread(g, x)` as `np.broadcast_to(g, np.shape(x))`."""

    def __init__(self, module: Module) -> None:
        self.module = module

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        """The scalar check `isinstance(f, (tuple, list, dict)) or np.ndim(f)` as
        `np.ndim(f)`, the compiled module's check as before: numba cannot test
        isinstance of a value typed on several paths."""
        node = self.generic_visit(node)
        first = node.values[0]
        if (
            isinstance(node.op, ast.Or)
            and len(node.values) == 2
            and isinstance(first, ast.Call)
            and isinstance(first.func, ast.Name)
            and first.func.id == "isinstance"
            and ast.unparse(first.args[1]) == "(tuple, list, dict)"
        ):
            return node.values[1]
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node = self.generic_visit(node)
        attr = self.numpy_function(node.func)
        if attr in NUMPY_KERNELS:
            node.func = load(self.module.numpy_kernel(NUMPY_KERNELS[attr]))
        elif attr == "sum" and len(node.args) == 1 and self.keywords(node) == _WHOLE_KEPT:
            node.func = load(self.module.numpy_kernel("sum_keepdims"))
            node.keywords = []
        elif attr in _AXIS_KEPT and len(node.args) == 1 and self.axis_kept(node) is not None:
            axis = self.axis_kept(node)
            node.func = load(self.module.numpy_kernel(_AXIS_KEPT[attr]))
            node.args, node.keywords = [node.args[0], axis], []
        elif attr == "concatenate" and isinstance(node.args[0], ast.Tuple):
            if self.first_axis(node, 1):  # (parts) or (parts, 0)
                node.func = load(self.module.numpy_kernel("concatenate"))
                node.args, node.keywords = node.args[:1], []
        elif attr == "roll" and len(node.args) == 3 and _is_const(node.args[2], None):
            node.args = node.args[:2]  # numba's np.roll: the flattened array (axis None)
        elif attr == "diff" and self.last_axis(node):
            node.args, node.keywords = node.args[:2], []  # numba's np.diff: the last axis
        elif self.helper(node.func) == "spread" and len(node.args) == 2 and not node.keywords:
            # the reduction adjoint's helper: np.broadcast_to, which numba has
            g, x = node.args
            shape = ast.Call(load(self.module.numpy_kernel("shape")), [x], [])
            func = ast.Attribute(load(self.module.numpy), "broadcast_to", ast.Load())
            return ast.copy_location(ast.Call(func, [g, shape], []), node)
        elif is_name(node.func, "unconcatenate") and len(node.args) == 3 and not node.keywords:
            node.func = load(self.module.numpy_kernel("split_like"))  # the same pieces
        elif attr == "split" and len(node.args) == 3 and not node.keywords:
            parts = self.cut_parts(node.args[1])
            if parts is not None:
                func = load(self.module.numpy_kernel("split_like"))
                call = ast.Call(func, [node.args[0], parts, node.args[2]], [])
                return ast.copy_location(call, node)
        return node

    @staticmethod
    def axis_kept(node: ast.Call) -> ast.expr | None:
        """The axis of `np.sum(x, axis=<int>, keepdims=True)` (or np.max), else None."""
        found = {k.arg: k.value for k in node.keywords}
        axis, kept = found.get("axis"), found.get("keepdims")
        if set(found) != {"axis", "keepdims"} or not _is_const(kept, True):
            return None
        if isinstance(axis, ast.UnaryOp) and isinstance(axis.op, ast.USub):
            return axis if _is_int(axis.operand) else None
        return axis if _is_int(axis) else None

    @staticmethod
    def first_axis(node: ast.Call, at: int) -> bool:
        """Whether the call's axis (argument `at` or `axis=`) is absent or 0."""
        axis = node.args[at] if len(node.args) > at else None
        for k in node.keywords:
            if k.arg != "axis":
                return False
            axis = k.value
        return len(node.args) <= at + 1 and (axis is None or _is_value(axis, 0))

    @staticmethod
    def last_axis(node: ast.Call) -> bool:
        """`np.diff(x, n, -1)` (or `axis=-1`): the axis numba's np.diff takes."""
        if len(node.args) != 3 or node.keywords:
            return False
        axis = node.args[2]
        return (
            isinstance(axis, ast.UnaryOp)
            and isinstance(axis.op, ast.USub)
            and (_is_value(axis.operand, 1))
        )

    @staticmethod
    def keywords(node: ast.Call) -> dict[str, str]:
        return {k.arg: ast.unparse(k.value) for k in node.keywords}

    def helper(self, func: ast.expr) -> str | None:
        """The runtime helper a call's function names (maybe renamed `name_2`), else None."""
        if isinstance(func, ast.Name) and func.id in self.module.helpers:
            return re.sub(r"_\d+$", "", func.id)
        return None

    def numpy_function(self, func: ast.expr) -> str | None:
        if isinstance(func, ast.Attribute) and is_name(func.value, self.module.numpy):
            return func.attr
        return None

    def cut_parts(self, cuts: ast.expr) -> ast.expr | None:
        """`parts` of `np.cumsum([<shape>(p)[0] for p in parts])[:-1]`, else None."""
        if not (isinstance(cuts, ast.Subscript) and isinstance(cuts.slice, ast.Slice)):
            return None
        cumsum = cuts.value
        if not (
            isinstance(cumsum, ast.Call)
            and self.numpy_function(cumsum.func) == "cumsum"
            and len(cumsum.args) == 1
            and isinstance(cumsum.args[0], ast.ListComp)
        ):
            return None
        comp = cumsum.args[0]
        (loop,) = comp.generators
        elt, upper = comp.elt, cuts.slice
        first_length = (
            isinstance(elt, ast.Subscript)
            and isinstance(elt.value, ast.Call)
            and ast.unparse(elt.value.func) in (self.module.numpy_kernels.get("shape"),)
            and [ast.unparse(a) for a in elt.value.args] == [ast.unparse(loop.target)]
            and ast.unparse(elt.slice) == "0"
        )
        all_but_last = upper.lower is None and upper.step is None and upper.upper is not None
        all_but_last = all_but_last and ast.unparse(upper.upper) == "-1"
        if first_length and all_but_last and isinstance(loop.iter, ast.Tuple) and not loop.ifs:
            return loop.iter
        return None


def _check_constructs(fn: ast.FunctionDef, module: Module, classes: set[str]) -> None:
    """Refuse, at the first one in text order, a construct the lowering cannot take
    (`classes`: the classes the generated module defines, checkpoint schedules)."""
    blockers = []
    for node in walk(fn):
        if node is fn:
            continue
        what = _REFUSED.get(type(node))
        if isinstance(node, ast.Name) and node.id in classes:
            what = f"the class {node.id} (a checkpoint schedule's bookkeeping)"
        if what is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in module.helpers and module.helpers[name] is None and name != FINISH:
                what = f"the runtime helper {name}()"
        if what is not None:
            at = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
            blockers.append((*at, node, what))
    if blockers:
        _, _, node, what = min(blockers, key=lambda b: (b[0], b[1]))
        raise module.refuse(node, what)
