"""Lower a generated gradient module to a module numba compiles in nopython mode.

Assumes: the text of a module built by build.py for a plain job (no debug-mode checks,
no stats): an entry function, split variants of callees (`_fwd_<f>` / `_bwd_<f>`),
copies of runtime helpers, imports. Guarantees: the lowered functions compute what the
generated ones compute, with
- a typed stack per save site instead of the one Python list: `_push(x)` ... `x = _pop()`
  becomes `_s_x.append(x)` ... `x = _s_x.pop()` (a list numba types from its appends);
  the generated code pairs each pop with a push of the same variable (debug mode checks
  exactly that), and LIFO order per site follows from LIFO order of the one stack;
- a split variant's saved values returned by its forward half beside its result and
  handed to its backward half (the entry keeps one stack per variant);
- runtime helpers called under their module names, bound to the numba kernels of the
  same name (kernels.py); `np.zeros_like`, `np.ndim`, `np.shape` to kernels that also
  take Python numbers; `reversed(r)` of a range as a descending range;
- the entry returning the raw adjoints (and value), and a plain Python `_finish_<entry>`
  in the same text that shapes them like the arguments (the gradient_like helper).
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
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import JitError, SourceLocation

# runtime helpers with a numba kernel of the same name (kernels.py defines each)
KERNELS = frozenset(
    {
        "add",
        "add_item",
        "dot_vjp_a",
        "dot_vjp_b",
        "sum_to",
        "unbroadcast",
        "undiff",
        "unmul",
        "unsubscript",
        "zeros_of",
    }
)
# NumPy functions numba has for arrays only: called through kernels that take numbers too
NUMPY_KERNELS = {"zeros_like": "zeros_like", "ndim": "ndim", "shape": "shape"}
FINISH = "gradient_like"  # the helper shaping gradients: run in Python, after the call

_ORIGIN = re.compile(r"([\w.-]+\.py):(\d+)")
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

Where = Callable[[str, int], SourceLocation | None]


@dataclass(frozen=True)
class Lowered:
    source: str  # the module text numba compiles
    entry: str  # the compiled entry function: the raw adjoints, as a tuple
    finish: str  # the Python function (params..., outputs) -> what the gradient returns
    params: tuple[str, ...]  # the entry's parameters, in order
    origins: dict[int, tuple[str, int]]  # line of `source` -> (user file basename, line)


@dataclass
class _Module:
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
        block comment above it (`# grad of f.py:12 ...`)."""
        for at in range(line, 0, -1):
            found = _ORIGIN.search(self.comments.get(at, ""))
            if found and (at == line or at in self.full_line):
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


def lower(text: str, entry: str, where: Where, cache: bool = True) -> Lowered:
    """The numba module of the generated module `text` whose entry function is `entry`.
    `where(basename, line)`: the location of a user's line, for refusals; `cache`:
    numba's on-disk cache for the compiled functions (off when the module binds objects
    of the running program)."""
    tree = ast.parse(text)
    comments, full_line = _comments(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    generated = [n for n in defs if n == entry or n.startswith(("_fwd_", "_bwd_"))]
    taken = set(defs) | _module_names(tree)
    for name in generated:
        fn = defs[name]
        taken |= _names(fn) | {n.arg for n in ast.walk(fn) if isinstance(n, ast.arg)}
    helpers = {n: _kernel_of(n) for n in defs if n not in generated}
    module = _Module(text, where, comments, full_line, helpers, _numpy_name(tree), taken)
    for name in generated:
        _Patterns(module).visit(defs[name])
        _check_constructs(defs[name], module)
    for name in generated:
        if name.startswith("_fwd_"):
            _lower_forward_variant(defs[name], module)
    for name in generated:
        if name.startswith("_bwd_"):
            _lower_backward_variant(defs[name], module)
    fn = defs[entry]
    if fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg or fn.args.posonlyargs:
        raise module.refuse(fn, "parameters other than plain positional ones")
    params = tuple(a.arg for a in fn.args.args)
    finish = module.fresh(f"_finish_{entry}")
    finish_def = _split_return(fn, finish, module)
    _lower_body(fn, module, entry=True)
    return _emit(tree, generated, defs, finish_def, module, entry, finish, params, cache)


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level (imports, assignments)."""
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            found |= _names(node)
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


class _Patterns(ast.NodeTransformer):
    """NumPy calls numba lacks or takes only for arrays, as kernel calls: `np.zeros_like`,
    `np.ndim`, `np.shape` (numbers too), `np.concatenate` of a tuple (lists of numbers
    too), and the concatenation adjoint's `np.split(g, np.cumsum([np.shape(p)[0] for p in
    parts])[:-1], axis)` as `split_like(g, parts, axis)`."""

    def __init__(self, module: _Module) -> None:
        self.module = module

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node = self.generic_visit(node)
        attr = self.numpy_function(node.func)
        if attr in NUMPY_KERNELS:
            node.func = _load(self.module.numpy_kernel(NUMPY_KERNELS[attr]))
        elif attr == "concatenate" and len(node.args) == 1 and not node.keywords:
            if isinstance(node.args[0], ast.Tuple):
                node.func = _load(self.module.numpy_kernel("concatenate"))
        elif attr == "split" and len(node.args) == 3 and not node.keywords:
            parts = self.cut_parts(node.args[1])
            if parts is not None:
                func = _load(self.module.numpy_kernel("split_like"))
                call = ast.Call(func, [node.args[0], parts, node.args[2]], [])
                return ast.copy_location(call, node)
        return node

    def numpy_function(self, func: ast.expr) -> str | None:
        if isinstance(func, ast.Attribute) and _is_name(func.value, self.module.numpy):
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


def _check_constructs(fn: ast.FunctionDef, module: _Module) -> None:
    """Refuse, at the first one in text order, a construct the lowering cannot take."""
    blockers = []
    for node in ast.walk(fn):
        if node is fn:
            continue
        what = _REFUSED.get(type(node))
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


# ---------------------------------------------------------------------------
# split variants: saved values travel as a return value and an argument


def _stack_param(fn: ast.FunctionDef, module: _Module) -> str:
    if not fn.args.args:
        raise module.refuse(fn, "a split variant without its stack")
    return fn.args.args[0].arg


def _lower_forward_variant(fn: ast.FunctionDef, module: _Module) -> None:
    """`_fwd_f(_stack, ...)` saving one value or tuple at its top level becomes
    `_fwd_f(...)` returning `(result, saved)`; one saving nothing just loses `_stack`."""
    stack = _stack_param(fn, module)
    fn.args.args = fn.args.args[1:]
    saved = None
    body = []
    for stmt in fn.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if _is_method(call, stack, "append") and saved is None:
            saved = module.fresh("_saved")
            body.append(ast.copy_location(_assign(saved, call.args[0]), stmt))
            continue
        body.append(stmt)
    fn.body = body
    _refuse_stack_uses(fn, stack, module)
    if saved is not None:
        module.saves[fn.name[len("_fwd_") :]] = ""  # the entry names its stack
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                node.value = ast.Tuple([node.value, _load(saved)], ast.Load())
    _lower_body(fn, module, entry=False)


def _lower_backward_variant(fn: ast.FunctionDef, module: _Module) -> None:
    """`_bwd_f(_stack, b)` popping at its top level becomes `_bwd_f(saved, b)`."""
    stack = _stack_param(fn, module)
    base = fn.name[len("_bwd_") :]
    if base not in module.saves:
        fn.args.args = fn.args.args[1:]
    else:
        saved = module.fresh("_saved")
        fn.args.args[0] = ast.arg(saved)
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and _is_method(stmt.value, stack, "pop"):
                stmt.value = _load(saved)
                break
    _refuse_stack_uses(fn, stack, module)
    _lower_body(fn, module, entry=False)


def _refuse_stack_uses(fn: ast.FunctionDef, stack: str, module: _Module) -> None:
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == stack:
            raise module.refuse(node, "a value saved inside a loop or branch of a helper")


# ---------------------------------------------------------------------------
# function bodies


def _lower_body(fn: ast.FunctionDef, module: _Module, entry: bool) -> None:
    """Typed stacks, variant calls, kernels and descending ranges in `fn`'s body."""
    stack, push, pop, rest = _stack_names(fn.body)
    lists: dict[tuple[str, ...], str] = {}
    fn.body = _statements(rest, _Lowering(module, stack, push, pop, lists, entry))
    made = [_assign(name, ast.List([], ast.Load())) for name in lists.values()]
    made += [
        _assign(name, ast.List([], ast.Load()))
        for base, name in module.saves.items()
        if entry and name and name in _names(fn)
    ]
    fn.body = made + fn.body


def _stack_names(body: list[ast.stmt]) -> tuple[str | None, str | None, str | None, list]:
    """(stack, push, pop) bound at the top of a body, and the body without them."""
    stack = push = pop = None
    rest = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            target, value = stmt.targets[0].id, stmt.value
            if isinstance(value, ast.List) and not value.elts and stack is None:
                stack = target
                continue
            if stack and isinstance(value, ast.Attribute) and _is_name(value.value, stack):
                if value.attr == "append":
                    push = target
                    continue
                if value.attr == "pop":
                    pop = target
                    continue
        rest.append(stmt)
    return stack, push, pop, rest


@dataclass
class _Lowering:
    module: _Module
    stack: str | None
    push: str | None
    pop: str | None
    lists: dict[tuple[str, ...], str]
    entry: bool

    def stack_of(self, node: ast.expr, stmt: ast.stmt) -> str:
        """The list holding the values of one save site (a variable or a tuple of them)."""
        if isinstance(node, ast.Name):
            key = (node.id,)
        elif isinstance(node, ast.Tuple) and all(isinstance(e, ast.Name) for e in node.elts):
            key = tuple(e.id for e in node.elts)
        else:
            raise self.module.refuse(stmt, "a value saved in a form the jit path does not know")
        if key not in self.lists:
            self.lists[key] = self.module.fresh("_s_" + "_".join(key).lstrip("_"))
        return self.lists[key]

    def variant_stack(self, base: str, node: ast.AST) -> str:
        if not self.entry:
            raise self.module.refuse(node, "a helper calling a helper that saves values")
        if not self.module.saves.get(base):
            self.module.saves[base] = self.module.fresh(f"_s_{base}")
        return self.module.saves[base]


def _statements(body: list[ast.stmt], low: _Lowering) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        out.extend(_statement(stmt, low))
    return out


def _statement(stmt: ast.stmt, low: _Lowering) -> list[ast.stmt]:
    module = low.module
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if isinstance(stmt, ast.Expr) and _is_call_of(call, low.push, low.stack, "append"):
        target = low.stack_of(call.args[0], stmt)
        return [ast.copy_location(ast.Expr(_method(target, "append", call.args)), stmt)]
    if isinstance(stmt, ast.Assign) and _is_call_of(call, low.pop, low.stack, "pop"):
        target = low.stack_of(stmt.targets[0], stmt)
        stmt.value = _method(target, "pop", [])
        return [stmt]
    if isinstance(call, ast.Call) and _variant(call, "_fwd_"):
        return _forward_call(stmt, call, low)
    if isinstance(stmt, (ast.For, ast.While, ast.If)):
        if isinstance(stmt, ast.For):
            stmt.iter = _descending(stmt.iter, stmt, module)
        stmt.body = _statements(stmt.body, low)
        stmt.orelse = _statements(stmt.orelse, low)
        _expressions(stmt, low, skip_bodies=True)
        return [stmt]
    _expressions(stmt, low)
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id in {low.stack, low.push, low.pop} - {None}:
            raise module.refuse(stmt, "the stack used in a form the jit path does not know")
    return [stmt]


def _forward_call(stmt: ast.stmt, call: ast.Call, low: _Lowering) -> list[ast.stmt]:
    """`r = _fwd_f(_stack, ...)`: the stack argument dropped; when `_fwd_f` saves, its
    saved values pushed on the entry's stack of `f`."""
    base = call.func.id[len("_fwd_") :]
    call.args = call.args[1:]
    if base not in low.module.saves:
        return [stmt]
    stack = low.variant_stack(base, stmt)
    saved = low.module.fresh("_sv")
    if isinstance(stmt, ast.Assign):
        stmt.targets = [ast.Tuple([stmt.targets[0], _store(saved)], ast.Store())]
        stmt.value = call
        first: ast.stmt = stmt
    else:
        pair = ast.Tuple([_store(low.module.fresh("_r")), _store(saved)], ast.Store())
        first = ast.copy_location(ast.Assign([pair], call), stmt)
    return [first, ast.Expr(_method(stack, "append", [_load(saved)]))]


def _expressions(stmt: ast.stmt, low: _Lowering, skip_bodies: bool = False) -> None:
    """Backward variants given their saves."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        for name, value in ast.iter_fields(node):
            if skip_bodies and node is stmt and name in ("body", "orelse"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    todo.append(child)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if _variant(node, "_bwd_"):
            base = func.id[len("_bwd_") :]
            if base in low.module.saves:
                stack = low.variant_stack(base, stmt)
                node.args = [_method(stack, "pop", []), *node.args[1:]]
            else:
                node.args = node.args[1:]


def _descending(it: ast.expr, stmt: ast.stmt, module: _Module) -> ast.expr:
    """`reversed(r)` of a range `r` as `range(last, first - step, -step)`."""
    if not (isinstance(it, ast.Call) and _is_name(it.func, "reversed")):
        return it
    (r,) = it.args
    if not isinstance(r, ast.Name):
        raise module.refuse(stmt, "reversed() of something other than a range variable")
    text = f"range({r.id}.start + (len({r.id}) - 1) * {r.id}.step, {r.id}.start - {r.id}.step, "
    text += f"-{r.id}.step)"
    return ast.parse(text, mode="eval").body


# ---------------------------------------------------------------------------
# the entry's return: raw adjoints out of numba, shaped in Python


def _split_return(fn: ast.FunctionDef, finish: str, module: _Module) -> ast.FunctionDef:
    """Make `fn` return its raw outputs as a tuple; return the Python function
    `finish(params..., _out)` computing what `fn` returned from them."""
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    last = fn.body[-1]
    if len(returns) != 1 or returns[0] is not last:
        raise module.refuse(returns[-1] if returns else fn, "a return before the end")
    params = {a.arg for a in fn.args.args}
    outs: list[ast.expr] = []
    out = module.fresh("_out")

    def part(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Tuple):
            return ast.Tuple([part(e) for e in node.elts], ast.Load())
        if isinstance(node, ast.Call) and _is_name(node.func, FINISH):
            b, x, *rest = node.args
            if not (isinstance(x, ast.Name) and x.id in params):
                raise module.refuse(last, "a gradient of something other than a parameter")
            return ast.Call(node.func, [part(b), x, *rest], [])
        outs.append(node)
        index = ast.Constant(len(outs) - 1)
        return ast.Subscript(_load(out), index, ast.Load())

    shaped = part(last.value)
    last.value = ast.Tuple(outs, ast.Load())
    names = [ast.arg(a.arg) for a in fn.args.args] + [ast.arg(out)]
    args = ast.arguments([], names, None, [], [], None, [])
    finish_def = ast.FunctionDef(finish, args, [ast.Return(shaped)], [], None, None)
    return ast.fix_missing_locations(finish_def)


# ---------------------------------------------------------------------------
# emitting: the generated text's comments kept beside the lowered statements


def _emit(
    tree: ast.Module,
    generated: list[str],
    defs: dict[str, ast.FunctionDef],
    finish_def: ast.FunctionDef,
    module: _Module,
    entry: str,
    finish: str,
    params: tuple[str, ...],
    cache: bool,
) -> Lowered:
    lines: list[str] = []
    origins: dict[int, tuple[str, int]] = {}
    for line in module.text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.replace("Generated by tangentlike", "Compiled (numba) by tangentlike", 1))
    lines += ["", "", "import numba"]
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.append(ast.unparse(node))
    used = set().union(*(_names(defs[name]) for name in generated))
    kernels = sorted({(k, n) for n, k in module.helpers.items() if k is not None and n in used})
    if kernels:
        names = ", ".join(n if n == k else f"{k} as {n}" for k, n in kernels)
        lines.append(f"from tangentlike.jit.kernels import {names}")
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            lines.append(ast.unparse(node))
    lines += ["", "# --- shaping the gradients like the arguments (Python, after the call) ---"]
    for name, fn in defs.items():
        if name == FINISH or (module.helpers.get(name, "") is None and _used(name, finish_def)):
            lines += ["", "", *ast.unparse(fn).splitlines()]
    lines += ["", "", *ast.unparse(finish_def).splitlines()]
    for name in generated:
        lines += ["", "", f"@numba.njit(cache={cache})"]
        fn = defs[name]
        lines.append(f"def {name}({ast.unparse(fn.args)}):")
        _emit_body(fn.body, 1, lines, origins, module, [fn.lineno], set())
    return Lowered("\n".join(lines) + "\n", entry, finish, params, origins)


def _used(name: str, fn: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(fn))


def _emit_body(
    body: list[ast.stmt],
    depth: int,
    lines: list[str],
    origins: dict[int, tuple[str, int]],
    module: _Module,
    last: list[int],
    commented: set[int],
) -> None:
    pad = "    " * depth
    for stmt in body:
        at = getattr(stmt, "lineno", None)
        if at is not None and at > last[0]:
            for line in range(last[0] + 1, at):
                if line in module.full_line:
                    lines.append(pad + module.comments[line])
            last[0] = at
        origin = module.origin(at) if at else None
        comment = ""
        if at is not None and at not in commented and at not in module.full_line:
            comment = module.comments.get(at, "")
            commented.add(at)
        if isinstance(stmt, (ast.For, ast.While, ast.If)):
            head = pad + _header(stmt)
            lines.append(head.ljust(34) + f"  {comment}" if comment else head)
            if origin:
                origins[len(lines)] = origin
            _emit_body(stmt.body, depth + 1, lines, origins, module, last, commented)
            if stmt.orelse:
                lines.append(pad + "else:")
                _emit_body(stmt.orelse, depth + 1, lines, origins, module, last, commented)
            continue
        code = ast.unparse(stmt)
        lines.append((pad + code).ljust(34) + f"  {comment}" if comment else pad + code)
        if origin:
            origins[len(lines)] = origin


def _header(stmt: ast.stmt) -> str:
    if isinstance(stmt, ast.For):
        return f"for {ast.unparse(stmt.target)} in {ast.unparse(stmt.iter)}:"
    if isinstance(stmt, ast.While):
        return f"while {ast.unparse(stmt.test)}:"
    return f"if {ast.unparse(stmt.test)}:"


# ---------------------------------------------------------------------------
# small node helpers


def _is_name(node: ast.AST | None, name: str | None) -> bool:
    return isinstance(node, ast.Name) and name is not None and node.id == name


def _is_method(node: ast.AST | None, owner: str, method: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and _is_name(node.func.value, owner)
    )


def _is_call_of(node: ast.AST | None, bound: str | None, stack: str | None, method: str) -> bool:
    """A call of the bound method `bound` or of `stack.<method>`."""
    if isinstance(node, ast.Call) and _is_name(node.func, bound):
        return True
    return stack is not None and _is_method(node, stack, method)


def _variant(call: ast.Call, prefix: str) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id.startswith(prefix)


def _names(fn: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(name, ast.Store())


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([_store(name)], value, lineno=None)  # new: no comment, no origin


def _method(owner: str, method: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Attribute(_load(owner), method, ast.Load()), list(args), [])
