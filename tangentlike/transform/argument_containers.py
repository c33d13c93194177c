"""Let a function that writes into a list or dict argument work on its own copy of it.

`def f(L, x): L[0] = x; L.append(x * x); ...` changes the caller's list: Python's caller
sees the writes, so the gradient must make them too ("in place is in place",
DESIGN.md), while it differentiates the output with respect to the items L held on
entry. Such a parameter L becomes

    _L_entry1 = own_container(L, "<message>")     # list(L) or dict(L); raises for others
    _L_own1 = own_container(_L_entry1, "<message>")  # the function's own copy
    ...                                            # the body, every L now _L_own1
    write_back_items(L, _L_own1)                   # before each return: L[:] = ..., or
    return ...                                     # clear and update

(_L_entry1 stays as L was on entry: the gradient has its structure, `entry_like`,
whatever the writes added.)

so that the writes go into a list or dict the function made, which transform/
container_writes.py follows exactly (`take_item`, `restore_item`, appends undone, pops).
A parameter is treated so when the build knows it is given a list or dict (`kinds`,
from the classes of the arguments of a build made per call), or when its use shows it
(`L.append`, `L.extend`, `L.pop`, a write by a string key). A parameter written by an
integer index whose kind the top-level build does not know raises UnknownKindError:
the gradient is then built ahead for an array (the array path of transform/
argument_copies.py) and at a call for a list or dict passed there
(specialize.kind_at_call). Parameters rebound in the body (but by a pop), and those
returned whole, are left alone (refused downstream as before).

Assumes: A-normal form, before transform.in_place's argument copies. Guarantees: A-normal
form; returns the parameters rewritten with the first statement that changes each (the
function's Effects list them: a caller sees its list changed).
"""

from __future__ import annotations

import gast

from .. import runtime
from ..analyze import alias_messages as messages
from ..analyze.containers import mutation
from ..analyze.effects import Mutation
from ..errors import UnknownKindError
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from .containers import statements

CONTAINERS = (list, dict)


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    scope: Scope,
    namespace: Namespace,
    namer: Namer,
    kinds: dict[str, object],
    top: bool,
) -> dict[str, Mutation]:
    """Rewrite fn as above; `kinds`: parameter -> the class the build is made for; `top`:
    fn is the function asked for (an unknown kind may be asked for at each call)."""
    returns = [n for n in walk(fn) if isinstance(n, gast.Return)]
    if not returns or not isinstance(fn.body[-1], gast.Return):
        return {}
    chosen: list[tuple[str, gast.stmt]] = []  # all decided before any rewrite: a rewrite
    for p in nodes.param_names(fn):  # reads the other parameters whole (its `apart` check)
        changes, evident = _changes(fn, scope, p)
        if not changes or not _kept(fn, scope, p) or any(_returns(r, p) for r in returns):
            continue
        kind = kinds.get(p)
        if kind is None and not evident:
            if not top or not _items_only(fn, scope, p):
                continue  # used as an array somewhere, or a helper's: as before
            raise UnknownKindError(
                f"writing into the argument {p!r} by index: whether it is a list, a dict or "
                f"an array is not known (in {parsed.func.__qualname__})",
                parsed.location(changes[0]),
                hint="the gradient is built at each call, for what is passed",
                param=p,
            )
        if kind is not None and kind not in CONTAINERS:
            continue  # an array: transform/argument_copies.py
        chosen.append((p, changes[0]))
    done: dict[str, Mutation] = {}
    for p, first in chosen:
        done[p] = Mutation(parsed.location(first), messages.text(parsed, first))
        others = [o for o in nodes.all_param_names(fn) if o != p] + _globals_read(fn, scope)
        _rewrite(fn, parsed, namespace, namer, p, first, others)
    return done


def _changes(fn: gast.FunctionDef, scope: Scope, p: str) -> tuple[list[gast.stmt], bool]:
    """The statements that change p's items, and whether one shows p is a list or dict
    (a method of lists, a pop, a string key)."""
    found: list[gast.stmt] = []
    evident = False
    for stmt in statements(fn.body):
        if nodes.is_item_write(stmt) and nodes.assigned_name(stmt) == p:
            found.append(stmt)
            key = stmt.targets[0].slice
            evident |= isinstance(key, gast.Constant) and isinstance(key.value, str)
        elif (mutation(stmt) or ("",))[0] == p or _pops(scope, stmt) == p:
            found.append(stmt)
            evident = True
    return found, evident


def _items_only(fn: gast.FunctionDef, scope: Scope, p: str) -> bool:
    """Whether p is only indexed by one integer or key (`p[i]`, `p[k] = v`), measured
    (`len(p)`), summed (`sum(p)`) or looped over: nothing that says it is an array
    (arithmetic, a NumPy call, an attribute, a slice)."""
    parents: dict[int, gast.AST] = {}
    for node in walk(gast.Module(body=fn.body, type_ignores=[])):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in walk(gast.Module(body=fn.body, type_ignores=[])):
        if not (isinstance(node, gast.Name) and node.id == p):
            continue
        up = parents.get(id(node))
        if isinstance(up, gast.Subscript) and up.value is node:
            if not isinstance(up.slice, (gast.Name, gast.Constant)):
                return False
        elif isinstance(up, gast.Call) and node in up.args:
            if scope.resolve(up.func) not in (len, sum, runtime.iterable):
                return False
        elif not (isinstance(up, gast.For) and up.iter is node):
            return False
    return True


def _pops(scope: Scope, stmt: gast.stmt) -> str | None:
    """xs for `_rest = without_item(xs, k)` (xs.pop(k), normalize/anf_expressions.py)."""
    value = getattr(stmt, "value", None)
    if not (isinstance(stmt, gast.Assign) and isinstance(value, gast.Call)):
        return None
    if scope.resolve(value.func) is runtime.without_item and isinstance(value.args[0], gast.Name):
        return value.args[0].id
    return None


def _kept(fn: gast.FunctionDef, scope: Scope, p: str) -> bool:
    """Whether p is bound in the body only to what a pop from it leaves."""
    rests = {
        s.targets[0].id
        for s in statements(fn.body)
        if _pops(scope, s) == p and isinstance(s.targets[0], gast.Name)
    }
    for stmt in statements(fn.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            if stmt.targets[0].id == p and not (
                isinstance(stmt.value, gast.Name) and stmt.value.id in rests
            ):
                return False
        elif p in _stored(stmt):
            return False
    return True


def _stored(stmt: gast.stmt) -> set[str]:
    """Names a statement other than an assignment binds (a loop's target, with, ...)."""
    if isinstance(stmt, gast.For):
        return nodes.names_stored(stmt.target)
    if isinstance(stmt, (gast.If, gast.While)):
        return set()
    return nodes.names_stored(stmt)


def _returns(ret: gast.Return, p: str) -> bool:
    return isinstance(ret.value, gast.Name) and ret.value.id == p


def _globals_read(fn: gast.FunctionDef, scope: Scope) -> list[str]:
    """The globals the function reads that hold a list or dict now."""
    local = set(nodes.all_param_names(fn)) | {
        n.id for n in walk(fn) if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)
    }
    found: list[str] = []
    for node in walk(fn):
        if (
            isinstance(node, gast.Name)
            and node.id not in local
            and node.id not in found
            and isinstance(scope.resolve(node), (list, dict))
        ):
            found.append(node.id)
    return found


def _rewrite(fn, parsed, namespace, namer, p: str, first: gast.stmt, others: list[str]) -> None:
    own = namer.temp(f"{p}_own")
    for node in walk(gast.Module(body=fn.body, type_ignores=[])):
        if isinstance(node, gast.Name) and node.id == p:
            node.id = own
    what = (
        f"{messages.place(parsed, first)}: `{messages.text(parsed, first)}` changes the "
        f"argument {p!r} in place; this gradient was built for a list or dict {p!r} (it "
        "copies it and writes the items back): pass a list or dict"
    )

    def helper(name: str, obj: object) -> gast.expr:
        return nodes.name(namespace.bind(name, obj, namer))

    entry_ = namer.temp(f"{p}_entry")
    copies = [
        nodes.call(helper("own_container", runtime.own_container), [nodes.name(name)])
        for name in (p, entry_)
    ]
    for copy in copies:
        copy.args.append(nodes.const(what))
    back = nodes.expr_stmt(
        nodes.call(helper("write_back_items", runtime.write_back_items), [nodes.name(p)])
    )
    back.value.args.append(nodes.name(own))
    entry = [nodes.assign(entry_, copies[0]), nodes.assign(own, copies[1])]
    if others:  # the same list or dict passed twice, or held by another argument
        apart = (
            f"{messages.place(parsed, first)}: `{messages.text(parsed, first)}` changes the "
            f"argument {p!r} in place, and {', '.join(map(repr, others))} (another argument "
            f"or a global) holds it or a list or dict inside it: the gradient follows the "
            f"change through {p!r} only; pass separate lists or dicts"
        )
        check = nodes.call(
            helper("apart", runtime.apart),
            [nodes.name(p), nodes.tuple_([nodes.name(o) for o in others]), nodes.const(apart)],
        )
        entry.insert(0, nodes.expr_stmt(check))
    fn.body = [*(nodes.located(s, first) for s in entry), *_before_returns(fn.body, back)]


def own_names(fn: gast.FunctionDef, scope: Scope) -> frozenset[str]:
    """The function's own copies `_p_own1` made above (written into by item)."""
    made = set(entry_like(fn, scope).values())
    return frozenset(
        s.targets[0].id
        for s in fn.body
        if isinstance(s, gast.Assign)
        and isinstance(s.value, gast.Call)
        and scope.resolve(s.value.func) is runtime.own_container
        and isinstance(s.value.args[0], gast.Name)
        and s.value.args[0].id in made
    )


def entry_like(fn: gast.FunctionDef, scope: Scope) -> dict[str, str]:
    """Parameter p -> `_p_entry1`, the copy of p as on entry made above (the gradient
    with respect to p has its structure; p itself has the function's writes by then)."""
    found = {}
    for stmt in fn.body:
        value = getattr(stmt, "value", None)
        if not (isinstance(stmt, gast.Assign) and isinstance(value, gast.Call)):
            continue
        if scope.resolve(value.func) is runtime.own_container:
            source, target = value.args[0], stmt.targets[0]
            if isinstance(source, gast.Name) and source.id in nodes.param_names(fn):
                found[source.id] = target.id
    return found


def _before_returns(stmts: list[gast.stmt], back: gast.stmt) -> list[gast.stmt]:
    """stmts with a copy of `back` before each `return`, in nested blocks too."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        for part in ("body", "orelse"):
            if isinstance(getattr(stmt, part, None), list):
                setattr(stmt, part, _before_returns(getattr(stmt, part), back))
        if isinstance(stmt, gast.Return):
            out.append(nodes.located(nodes.deepcopy(back), stmt))
        out.append(stmt)
    return out
