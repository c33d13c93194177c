"""Items of lists and dicts written by index or key in the differentiable form of a
generated derivative module (higher/forms.py): `y[key] = v` into a list or dict the
function made is saved with `saved_item(y, key)` (a pair: whether the key was there, the
old item) and undone with `restore_item(y, key, saved)` (transform/assemble.py,
transform/reverse.py). Both are runtime helpers the second derivative has no rule for;
the form spells them out for a name that is certainly a list, where the key is always
there, or certainly a dict, where it may be new:

    saved_item(L, k)            (True, L[k])
    restore_item(L, k, saved)   L[k] = saved[1]
    saved_item(D, k)            (k in D, D[k] if k in D else None)
    restore_item(D, k, saved)   if saved[0]: D[k] = saved[1]
                                else: D.pop(k)

the same values (L[k] raises as saved_item does; a dict's key present or not, as
saved_item and restore_item test it), and writes by index or key into, and pops from, a
list or dict the function made, which the transform follows (or refuses, with its own
messages).

A list or dict the function rebinds (`L = [...]` in a loop) is saved on the stack
before the rebinding and restored by a pop, `L = S[0]`, where the backward sweep undoes
its writes. A pop returns the object the paired push saved, which L held; the form
checks that it is a list (or None, L's prebinding) where it spells out L's writes as a
list's, a dict where as a dict's, and raises otherwise:

    L = S[0]                    L = popped_list(S[0], '...')     (runtime/forms.py)

(the second pass counts such a pop as the list the function made and parked on its
chain: transform/stack_chains.py).

Assumes: the form of a generated function (pushes and pops as stack-chain pairs), run
after `pops_as_rebinding` and before `pops_paired`; `external` its module's names (a
copied runtime helper bound to the helper itself). Guarantees: only calls of
`saved_item` / `restore_item` whose container is a name bound, in the whole function,
only to list displays (`L = [...]`) or `list(...)` of the builtin, or only to dict
displays (`D = {...}`) or `dict(...)` of the builtin, to None (a prebinding: either
form raises on it), and, for a name such calls write into, to pops `L = S[0]` (then
checked as above) — no parameter, no other binding, no nested function — are
rewritten, and
for a dict only where the key (and the saved pair) is a name or a constant, read again
as it was; a name that may be either keeps its call (and its refusal). take_item, which
changes the list adjoint it is given, is replaced by its copying twin
(form_lists.copying_helpers).
"""

from __future__ import annotations

import ast
import copy

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists
from .form_pops import top_of_chain


def list_items_spelled_out(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite fn's saved_item / restore_item of names certainly lists or certainly dicts
    (module docstring)."""
    written = {
        _container(n)
        for n in walk(fn)
        if any(_is_helper_call(n, external, h) for h in ("saved_item", "restore_item"))
    }
    lists, dicts = (
        _certain(fn, kind, external.get(kind, made) is made)
        | (_certain(fn, kind, external.get(kind, made) is made, pops=True) & written)
        for kind, made in (("list", list), ("dict", dict))
    )
    if not lists and not dicts:
        return
    _pops_checked(fn, external, lists, dicts)
    _Saves(external, lists, dicts).visit(fn)
    for stmts in statement_lists(fn):
        for k, stmt in enumerate(stmts):
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if not (
                call is not None
                and _is_helper_call(call, external, "restore_item")
                and len(call.args) == 3
            ):
                continue
            y, key, saved = call.args
            if _container(call) in lists:
                stmts[k] = _located(_assign_item(y.id, key, _second(saved)), stmt)
            elif _container(call) in dicts and _plain(key) and _plain(saved):
                stmts[k] = _located(_dict_restore(y.id, key, saved), stmt)


class _Saves(ast.NodeTransformer):
    """`saved_item(L, k)` as `(True, L[k])` for L in `lists`; `saved_item(D, k)` as
    `(k in D, D[k] if k in D else None)` for D in `dicts`, k a name or a constant."""

    def __init__(self, external: dict[str, object], lists: set[str], dicts: set[str]) -> None:
        self.external, self.lists, self.dicts = external, lists, dicts

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not (_is_helper_call(node, self.external, "saved_item") and len(node.args) == 2):
            return node
        if _container(node) in self.lists:
            return _located(_saved(node), node)
        if _container(node) in self.dicts and _plain(node.args[1]):
            return _located(_dict_saved(node), node)
        return node


def _pops_checked(
    fn: ast.FunctionDef, external: dict[str, object], lists: set[str], dicts: set[str]
) -> None:
    """`L = S[0]` (a pop from a stack chain) as `L = popped_list(S[0], '...')` for L in
    `lists`, `popped_dict` for a dict: the value it pops, checked to be one of that kind
    or None (runtime/forms.py), which the spelled-out forms rely on."""
    helpers = {"list": runtime.popped_list, "dict": runtime.popped_dict}
    for node in walk(fn):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and top_of_chain(node.value)
        ):
            continue
        name = node.targets[0].id
        kind = "list" if name in lists else "dict" if name in dicts else None
        if kind is None:
            continue
        helper = f"popped_{kind}"
        what = (
            f"the differentiable form of {fn.name} restores {name!r} from its stack as a "
            f"{kind}, whose writes by index or key it spells out, and got another value: "
            "differentiate the original function instead"
        )
        call = ast.Call(func=_load(helper), args=[node.value, ast.Constant(what)], keywords=[])
        node.value = _located(call, node)
        external[helper] = helpers[kind]


def certain_lists(fn: ast.FunctionDef, external: dict[str, object]) -> set[str]:
    """The names fn binds only to lists (`[...]`, `list(...)` of the builtin, None)."""
    return _certain(fn, "list", external.get("list", list) is list)


def _certain(fn: ast.FunctionDef, kind: str, builtin: bool, pops: bool = False) -> set[str]:
    """Names every binding of which in fn is `name = [...]` (or `name = list(...)`, as
    pops_as_rebinding writes, where `list` is the builtin) for kind "list"; `name = {...}`
    (or `name = dict(...)`, `dict` the builtin) for kind "dict"; none a parameter. With
    `pops`, a binding may also be a pop from a stack chain (`name = S[0]`), which
    `_pops_checked` then checks to be of the kind."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    for extra in (fn.args.vararg, fn.args.kwarg):
        if extra is not None:
            params.add(extra.arg)
    kinds: dict[str, bool] = {}
    for node in walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            return set()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return set()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            kinds.setdefault(node.id, False)  # bound some other way, unless seen below
    for node in walk(fn):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            name = node.targets[0].id
            if _makes(node.value, kind, builtin) and kinds.get(name) is not True:
                kinds[name] = _only_displays(fn, name, kind, builtin, pops)
    return {n for n, ok in kinds.items() if ok and n not in params}


def _makes(value: ast.expr, kind: str, builtin: bool) -> bool:
    """`[...]` (`{...}` for a dict), or `list(...)` (`dict(...)`) of one argument where
    the name is the builtin."""
    if isinstance(value, ast.List if kind == "list" else ast.Dict):
        return True
    return (
        builtin
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == kind
        and len(value.args) == 1
        and not isinstance(value.args[0], ast.Starred)
        and not value.keywords
    )


def _only_displays(fn: ast.FunctionDef, name: str, kind: str, builtin: bool, pops: bool) -> bool:
    for node in walk(fn):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Del):
            return False
        if isinstance(node, (ast.For, ast.comprehension)) and _binds(node.target, name):
            return False
        if isinstance(node, (ast.With, ast.ExceptHandler, ast.NamedExpr, ast.AugAssign)) and any(
            _binds(t, name) for t in _targets_of(node)
        ):
            return False
        if isinstance(node, (ast.AnnAssign, ast.Import, ast.ImportFrom)):
            return False
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    if len(node.targets) != 1 or not (
                        _makes(node.value, kind, builtin)
                        or _none(node.value)
                        or (pops and top_of_chain(node.value))
                    ):
                        return False
                elif _binds(target, name):
                    return False  # bound by unpacking
    return True


def _none(value: ast.expr) -> bool:
    """`L = None`, the generated code's prebinding of a name its backward sweep reads: the
    spelled-out forms raise on None as the helpers do (`None[k]`, `k in None`)."""
    return isinstance(value, ast.Constant) and value.value is None


def _targets_of(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    if isinstance(node, ast.ExceptHandler):
        return [ast.Name(node.name, ast.Store())] if node.name else []
    return [node.target]


def _binds(target: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(target)
    )


def _is_helper_call(node: ast.expr, external: dict[str, object], helper: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and external.get(node.func.id) is getattr(runtime, helper)
        and not node.keywords
    )


def _container(call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    return first.id if isinstance(first, ast.Name) else None


def _saved(call: ast.Call) -> ast.Tuple:
    y, key = call.args
    item = ast.Subscript(value=ast.Name(y.id, ast.Load()), slice=key, ctx=ast.Load())
    return ast.Tuple(elts=[ast.Constant(True), item], ctx=ast.Load())


def _plain(node: ast.expr) -> bool:
    """A name or a constant: read twice, the same value (generated keys and pairs)."""
    return isinstance(node, ast.Constant) or (
        isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    )


def _dict_saved(call: ast.Call) -> ast.Tuple:
    """`(k in D, D[k] if k in D else None)`: saved_item's pair for the dict D."""
    y, key = call.args
    there = ast.Compare(left=_copy(key), ops=[ast.In()], comparators=[_load(y.id)])
    item = ast.Subscript(value=_load(y.id), slice=_copy(key), ctx=ast.Load())
    old = ast.IfExp(test=_copy(there), body=item, orelse=ast.Constant(None))
    return ast.Tuple(elts=[there, old], ctx=ast.Load())


def _dict_restore(y: str, key: ast.expr, saved: ast.expr) -> ast.If:
    """`if saved[0]: D[k] = saved[1]` / `else: D.pop(k)`: restore_item for the dict D."""
    there = ast.Subscript(value=_copy(saved), slice=ast.Constant(0), ctx=ast.Load())
    pop = ast.Call(
        func=ast.Attribute(value=_load(y), attr="pop", ctx=ast.Load()),
        args=[_copy(key)],
        keywords=[],
    )
    put = _assign_item(y, _copy(key), _second(_copy(saved)))
    return ast.If(test=there, body=[put], orelse=[ast.Expr(pop)])


def _assign_item(y: str, key: ast.expr, value: ast.expr) -> ast.Assign:
    target = ast.Subscript(value=ast.Name(y, ast.Load()), slice=key, ctx=ast.Store())
    return ast.Assign(targets=[target], value=value)


def _second(saved: ast.expr) -> ast.Subscript:
    return ast.Subscript(value=saved, slice=ast.Constant(1), ctx=ast.Load())


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _copy(node: ast.expr) -> ast.expr:
    return copy.deepcopy(node)


def _located(new: ast.AST, old: ast.AST) -> ast.AST:
    """`new` with the position of `old` on each of its nodes (errors name the line)."""
    for node in ast.walk(new):
        if "lineno" in node._attributes:
            ast.copy_location(node, old)
    return new
