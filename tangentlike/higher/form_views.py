"""Views made again after a restore in the differentiable form of a generated gradient
(higher/forms.py).

The backward sweep of a gradient puts back what an item write overwrote, in place:
`B[index] = _stack[0]`. A view V of B (`z1 = A[0:3]`, `z1 = np.reshape(y, (2, 2))`,
`y = _y_own1`), restored or kept from the forward sweep and read after the restore,
sees B's old values through the memory it shares: right at first order, but a change
of B that the second derivative would follow only into B itself (it refuses it). The
form makes such a view again after the restore, from one of the expressions V was made
by in the function (composed through names that are themselves views: `z1 = y`,
`y = _y_own1` give `z1 = _y_own1`), after asking at run time which one V is:

    _which1 = same_view(z1, A, (A[0:3],))   # before the restore
    if _which1 > 0:
        z1 = None                    # not read before it is made again
    A[0:3] = _stack[0]
    if _which1 == 1:
        z1 = A[0:3]                  # the same memory as z1, now a view made after it

`same_view` (runtime/form_views.py) answers k for the k-th expression whose array has
z1's data address, shape, strides and dtype (B an array of numbers), else 0: so the
name made again reads the very bytes it read before, and a name it answers 0 for is
left as it was (the second derivative's own checks then see it, as without this
rewrite).

Made again are names the backward sweep restores from a stack chain (`z1 = _pushed4`,
`y = _stack[0]`), whose binding shows the second derivative no view, and names bound
by one view expression only (`_call1 = y[::-1]`, `_v3 = y` on both paths of an `if`),
which it may no longer see as views of the array restored (rebound in between). Left
alone: names bound to other values too, none restored from a stack chain; names read
in `is` tests (push/pop pairs: a new object would fail them); the caller's arrays of
arguments (`_y_caller1`); names the restore itself reads. Only restores are rewritten:
writes of the forward sweep already make their views again (transform/view_updates.py).

Assumes: the form of a generated function, after the other rewrites of higher/forms.py;
`external` its module's names. Guarantees: a name the rewrite binds again is bound to an
array of the very memory, shape and strides it had (None in between, never read); the
names it asks about and the expressions it makes again read only names certainly bound
before the restore (or the module's, never bound in the function), and change nothing
(an expression that no longer applies, an index out of range of an array rebound since,
raises: an error, never a value).
"""

from __future__ import annotations

import ast
import copy
import re

import numpy as np

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists
from .form_pops import top_of_chain

_VIEW_CALLS = (np.reshape, np.transpose, np.ravel, np.squeeze, np.expand_dims, np.swapaxes)
_DEPTH = 6  # links of composed views at most
_MANY = 4  # expressions asked about at most


def views_made_again(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Make views again after fn's restores (see the module docstring)."""
    made = _view_bindings(fn, external)
    for name in _compared_by_identity(fn) | _left_alone(fn, made):
        made.pop(name, None)  # a new binding would fail `x is y`, or is not needed
    if not made:
        return
    parents = _parents(fn)
    stored = {n.id for n in walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    module = {k: v for k, v in external.items() if k not in stored}  # never bound in fn
    counter = [0]
    for stmts in list(statement_lists(fn, nested=False)):
        k = 0
        while k < len(stmts):
            stmt = stmts[k]
            base = _written(stmt)
            if base is None:
                k += 1
                continue
            bound = _bound_before(stmt, parents, fn)
            before, after = [], []
            for name in sorted(made):
                if (
                    name == base
                    or name not in bound
                    or name in _loaded(stmt)  # the write reads it: left as it is
                    or not _read_after(stmt, stmts, k, parents, fn, name)
                ):
                    continue
                exprs = _composed(name, base, made, bound, module)
                if exprs:
                    counter[0] += 1
                    b, a = _remaking(name, base, exprs, counter[0], external)
                    before += b
                    after += a
            for node in walk(ast.Module([*before, *after], [])):
                if isinstance(node, ast.stmt):  # the write's line (higher/forms.py maps it)
                    node.lineno = getattr(stmt, "lineno", 0)
            stmts[k : k + 1] = [*before, stmt, *after]
            k += len(before) + 1 + len(after)


def _compared_by_identity(fn: ast.FunctionDef) -> set[str]:
    """Names read in `is` / `is not` tests (the pairs of pushes and pops)."""
    found: set[str] = set()
    for node in walk(fn):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops
        ):
            found |= {n.id for n in walk(node) if isinstance(n, ast.Name)}
    return found


def _written(stmt: ast.stmt) -> str | None:
    """B of a restore `B[index] = _stack[0]` (a value popped from a stack chain)."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Subscript)
        and isinstance(stmt.targets[0].value, ast.Name)
    ):
        return None
    return stmt.targets[0].value.id if top_of_chain(stmt.value) else None


def _left_alone(fn: ast.FunctionDef, made) -> set[str]:
    """Names left as they are: the caller's arrays of arguments (`_y_caller1`, written
    back into, never read as a view), and names bound to other values too, none restored
    from a stack chain."""
    stores: dict[str, int] = {}
    for node in walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    alone = {n for n in made if re.fullmatch(r"_\w+_caller\d+", n)}
    same: dict[str, int] = {}  # name -> its bindings by its one view expression
    for node in walk(fn):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and len(made.get(node.targets[0].id, ())) == 1
            and ast.dump(node.value) == ast.dump(made[node.targets[0].id][0][1])
        ):
            same[node.targets[0].id] = same.get(node.targets[0].id, 0) + 1
    popped = _popped(fn)
    for name in made:
        if name not in popped and same.get(name) != stores.get(name, 0):
            alone.add(name)  # bound to other values too, none restored from a stack
    return alone


def _popped(fn: ast.FunctionDef) -> set[str]:
    """Names bound somewhere to a value popped from a stack chain: `y = _stack[0]`, or
    `z1 = _pushed4` (a pop paired with its push, higher/form_pairs.py)."""
    found: set[str] = set()
    for node in walk(fn):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            continue
        value = node.value
        if isinstance(value, ast.Call) and value.args:  # popped_array(_stack[0], ...)
            value = value.args[0]
        if isinstance(value, ast.Subscript):
            value = value.value
        if isinstance(value, ast.Name) and value.id.startswith(("_stack", "_pushed")):
            found.add(node.targets[0].id)
    return found


def _loaded(stmt: ast.stmt) -> set[str]:
    return {n.id for n in walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _view_bindings(fn: ast.FunctionDef, external) -> dict[str, list[tuple[str, ast.expr]]]:
    """name -> [(W, E)] for each `name = E` in fn, E a view of the name W."""
    found: dict[str, list[tuple[str, ast.expr]]] = {}
    for node in walk(fn):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            continue
        w = _view_of(node.value, external)
        if w is not None and w != node.targets[0].id:
            pairs = found.setdefault(node.targets[0].id, [])
            if all(ast.dump(e) != ast.dump(node.value) for _, e in pairs):
                pairs.append((w, node.value))
    return found


def _view_of(e: ast.expr, external) -> str | None:
    """W where e is W, W[index] (constants and names), W.T or a view-making call of W."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name):
        return e.value.id if _plain_index(e.slice, e.value.id) else None
    if isinstance(e, ast.Attribute) and e.attr == "T" and isinstance(e.value, ast.Name):
        return e.value.id
    if (
        isinstance(e, ast.Call)
        and e.args
        and isinstance(e.args[0], ast.Name)
        and not e.keywords
        and _resolved(e.func, external) in _VIEW_CALLS
        and all(_plain_index(a, e.args[0].id) for a in e.args[1:])
    ):
        return e.args[0].id
    return None


def _plain_index(e: ast.expr, base: str) -> bool:
    """Whether e is built of constants, names other than base, slices and tuples."""
    for node in walk(e):
        if isinstance(node, ast.Name) and (node.id == base or not isinstance(node.ctx, ast.Load)):
            return False
        if not isinstance(
            node,
            (ast.Constant, ast.Name, ast.Slice, ast.Tuple, ast.UnaryOp, ast.Load, ast.USub),
        ):
            return False
    return True


def _resolved(func: ast.expr, external) -> object:
    if isinstance(func, ast.Name):
        return external.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return getattr(external.get(func.value.id), func.attr, None)
    return None


def _composed(name, base, made, bound, external, depth=0) -> list[ast.expr]:
    """The expressions of base that `name` was made by (through views of views), whose
    names are all in `bound` (or the module's, and never bound in the function)."""
    if depth > _DEPTH:
        return []
    out: list[ast.expr] = []
    for w, e in made.get(name, []):
        if w == base:
            inner = [ast.Name(base, ast.Load())]
        else:
            inner = _composed(w, base, made, bound, external, depth + 1)
        for i in inner:
            composed = _substituted(e, w, i)
            names = {n.id for n in walk(composed) if isinstance(n, ast.Name)} - {base}
            fresh = all(ast.dump(composed) != ast.dump(o) for o in out)
            if fresh and all(n in bound or n in external for n in names):
                out.append(composed)
    return out[:_MANY]


def _substituted(e: ast.expr, w: str, inner: ast.expr) -> ast.expr:
    """e with its base name w replaced by inner."""

    class Swap(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(inner) if node.id == w else node

    return Swap().visit(copy.deepcopy(e))


def _parents(fn: ast.FunctionDef) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in walk(fn):
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _bound_before(stmt: ast.stmt, parents, fn: ast.FunctionDef) -> set[str]:
    """Names certainly bound before stmt: parameters, and names bound before it in each
    statement list around it by a plain assignment, or by an `if` each of whose branches
    binds them so or raises."""
    names = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    node = stmt
    while node is not fn:
        parent = parents[id(node)]
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                for s in block[: block.index(node)]:
                    names |= _binds(s)
        node = parent
    return names


def _binds(s: ast.stmt) -> set[str]:
    """The names s certainly binds (or raises)."""
    if isinstance(s, ast.Assign):
        return {n.id for t in s.targets for n in walk(t) if isinstance(n, ast.Name)}
    if isinstance(s, ast.Raise):
        return {"*"}
    if isinstance(s, ast.If):
        branches = []
        for block in (s.body, s.orelse):
            found: set[str] = set()
            for inner in block:
                found |= _binds(inner)
            branches.append(found)
        a, b = branches
        if "*" in a:
            return b - {"*"}
        if "*" in b:
            return a - {"*"}
        return a & b
    return set()


def _read_after(stmt, stmts, k, parents, fn, name) -> bool:
    """Whether `name` may be read after stmts[k] (the rest of its list, then of each list
    around it; a loop around it runs its whole body again), before a plain binding."""
    following: list[ast.stmt] = list(stmts[k + 1 :])
    node = stmt
    while node is not fn:
        parent = parents[id(node)]
        if isinstance(parent, (ast.For, ast.While)):
            following.append(parent)  # the loop again: its whole body
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block and parent is not fn:
                following += block[block.index(node) + 1 :]
        if parent is fn:
            following += fn.body[fn.body.index(node) + 1 :]
        node = parent
    for s in following:
        loads = any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            for n in walk(s)
        )
        if loads:
            return True
        if (
            isinstance(s, ast.Assign)
            and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name)
            and s.targets[0].id == name
        ):
            return False
    return False


def _remaking(name, base, exprs, n, external) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """The statements before and after the write into base that make `name` again."""
    helper = _bind(external, "same_view", runtime.same_view)
    which = f"_which_{name}{n}"
    views = ast.Tuple([copy.deepcopy(e) for e in exprs], ast.Load())
    call = ast.Call(
        ast.Name(helper, ast.Load()),
        [ast.Name(name, ast.Load()), ast.Name(base, ast.Load()), views],
        [],
    )
    test = ast.Compare(ast.Name(which, ast.Load()), [ast.Gt()], [ast.Constant(0)])
    unbound = ast.If(test, [_assign(name, ast.Constant(None))], [])
    again: list[ast.stmt] = []
    for k in range(len(exprs), 0, -1):
        test = ast.Compare(ast.Name(which, ast.Load()), [ast.Eq()], [ast.Constant(k)])
        again = [ast.If(test, [_assign(name, copy.deepcopy(exprs[k - 1]))], again)]
    return [_assign(which, call), unbound], again


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value, lineno=0)


def _bind(external: dict[str, object], preferred: str, obj: object) -> str:
    """A module name for obj (the one it has, else `preferred` bound to it)."""
    for k, v in external.items():
        if v is obj:
            return k
    name = preferred
    while name in external:
        name += "_"
    external[name] = obj
    return name
