"""Let a function that changes an argument in place work on its own copy of it.

`def f(x, y): y[1] = x; ...` changes the caller's array. The gradient must do the
same ("in place is in place", DESIGN.md) and differentiates the output with respect
to y as it was on entry. Where the function may change the memory of a parameter
y (an update in place, a write by index, a helper that changes it: analyze.effects),
the function becomes

    unshared(y, (x, ...), "<message>")  # y shares no other argument nor global read
    _y_caller1 = y
    y = entry_copy(_y_caller1)          # the function's own array from here on
    ...                                 # the body, its updates now into y's copy
    write_back(_y_caller1, y)           # the caller's array gets what f left there
    return ...

so that the updates are into an array the function owns, which transform.in_place and
the reverse mode differentiate (`y op= v` keeps y the array's current value: lowered
out of place, y is its new value). Where the body binds y anew (`y = y * 2.0`), the
copy gets a name of its own, `_y_own1 = entry_copy(_y_caller1); y = _y_own1`, which
the write back reads: y is an alias of it until rebound, and updates through y are
written back into it. Numbers are not copied nor written back.

A list, dict or object passed for such a parameter is refused at run time (entry_copy
raises, located at the update). Where the result may share such a parameter's
memory (`return y[i]`), each `return` first checks at run time that it does not
share the copy (a number never does): returning the copy would change what the
caller sees. Each `return` writes back first.

Assumes: A-normal form with `name op= atom` statements (before transform.in_place);
the Aliases of that form. Guarantees: A-normal form; returns the parameters copied
with the first statement that changes each.
"""

from __future__ import annotations

from collections.abc import Callable

import gast
import numpy as np

from .. import runtime
from ..analyze import alias_messages as messages
from ..analyze import own_containers
from ..analyze.activity import user_function
from ..analyze.aliases import Aliases, bound_arguments
from ..analyze.effects import Effects, Mutation
from ..parse.resolve import MISSING, Scope
from ..parse.source import ParsedFunction
from ..rules.registry import Registry
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from .containers import statements


def changed_params(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    aliases: Aliases,
    scope: Scope,
    registry: Registry,
    effects_of,
    structured: frozenset[str],
    made: frozenset[str] = frozenset(),
) -> dict[str, tuple[gast.stmt, Mutation]]:
    """Parameter -> the first statement that may change its memory in place, and how.
    `made`: lists and dicts the function made (transform.argument_containers), whose
    items it may write without changing the memory of those items."""
    found: dict[str, tuple[gast.stmt, Mutation]] = {}
    rebound = own_containers.rebound(fn, scope)  # `p = dict(p)` first: p is f's own
    for stmt in statements(fn.body):
        if id(stmt) not in aliases.before:
            continue
        if nodes.is_item_write(stmt) and (
            nodes.assigned_name(stmt) in made or _into_a_display(aliases, stmt, rebound)
        ):
            continue
        changes: list[tuple[str, Mutation]] = []
        own = Mutation(parsed.location(stmt), messages.text(parsed, stmt))
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            changes = [(stmt.target.id, own)]
        elif nodes.is_item_write(stmt):  # a list or dict passed: entry_copy refuses it
            changes = [(nodes.assigned_name(stmt), own)]
        elif isinstance(stmt, (gast.Assign, gast.Expr)) and isinstance(stmt.value, gast.Call):
            changes = _changed_arguments(stmt, parsed, scope, registry, effects_of)
        for name, mutation in changes:
            for p in aliases.params_of(stmt, name):
                found.setdefault(p, (stmt, mutation))
    return found


def _into_a_display(aliases: Aliases, stmt: gast.Assign, own: dict) -> bool:
    """Whether `y[k] = v` (not `y[k] op= v`, which changes the item itself) writes into
    a list or dict display the function made (`y = {"a": p["a"]}`, a comprehension), or
    into a parameter's own copy (`p = dict(p)` first: analyze/own_containers.py): the
    write changes that container only, not the arrays it holds (nor a parameter)."""
    target = stmt.targets[0]
    if getattr(target, "augmented", False) or not isinstance(target.value, gast.Name):
        return False
    if id(stmt) in own.get(target.value.id, ()):
        return True
    made = aliases.before[id(stmt)].made.get(target.value.id, ())
    values = [getattr(aliases.statements.get(i), "value", None) for i in made]
    displays = (gast.Dict, gast.List, gast.DictComp, gast.ListComp)
    return any(isinstance(v, displays) for v in values) and all(
        isinstance(aliases.statements.get(i), gast.Assign) and (isinstance(v, displays) or _none(v))
        for i, v in zip(made, values, strict=True)
    )


def _none(value: gast.expr | None) -> bool:
    """`y = None` (a gradient's prebinding, or the user's before a branch): nothing a
    write by index could change, `None[k] = v` raises."""
    return isinstance(value, gast.Constant) and value.value is None


def _changed_arguments(stmt, parsed, scope, registry, effects_of) -> list[tuple[str, Mutation]]:
    """(argument, how the callee changes it) for a call of a helper changing parameters."""
    call = stmt.value
    callee = scope.resolve(call.func)
    if not user_function(callee, registry):
        return []
    effects: Effects | None = effects_of(callee)
    if effects is None:
        return []
    bound = bound_arguments(callee, call)
    found = []
    for param, mutation in effects.mutated:
        for atom in bound.get(param, []):
            atom = atom.value if isinstance(atom, gast.Starred) else atom
            if isinstance(atom, gast.Name):
                where = f"{callee.__qualname__}({atom.id}) at {messages.place(parsed, stmt)}"
                chained = Mutation(mutation.where, mutation.text, (*mutation.via, where))
                found.append((atom.id, chained))
    return found


def copy_arguments(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    aliases: Aliases,
    changed: dict[str, tuple[gast.stmt, Mutation]],
    structured: frozenset[str],
    scope: Scope,
    namespace: Namespace,
    namer: Namer,
    registry: Registry | None = None,
) -> dict[str, Mutation]:
    """Rewrite fn as above for the parameters it can; return them with how each changes.
    `registry`: what says which calls make new arrays (without it, none is known to)."""

    def new_memory(call: gast.Call) -> bool:
        callee = scope.resolve(call.func)
        return registry is not None and (
            isinstance(callee, np.ufunc) or registry.makes_new_array(callee)
        )

    returns = [n for n in walk(fn) if isinstance(n, gast.Return)]
    if not returns or not isinstance(fn.body[-1], gast.Return):
        return {}
    shared: set[str] = set()  # the parameters whose memory the result may share
    certain: set[str] = set()  # ... certainly an array sharing it (`return v`, v[1:3])
    computed: set[str] = set()  # ... certainly so, even counting values computed anew
    for ret in returns:
        if id(ret) not in aliases.before:
            return {}
        if isinstance(ret.value, gast.Name):
            name = ret.value.id
            if name not in aliases.locals:
                return {}  # a global returned
            shared |= set(aliases.params_of(ret, name))
            if not _maybe_a_number(aliases, ret, name, new_memory, computed=False):
                certain |= set(aliases.params_of(ret, name))
            if not _maybe_a_number(aliases, ret, name, new_memory, computed=True):
                computed |= set(aliases.params_of(ret, name))
        elif ret.value is not None and not isinstance(ret.value, gast.Constant):
            return {}
    # a result computed anew counts as no array sharing p only where the function itself
    # changes p (a helper changing it is checked where it is called, against p's reads)
    params = [p for p in changed if p not in (certain if _by_a_call(changed[p][0]) else computed)]
    if not params:
        return {}

    def helper(name: str, obj: object) -> gast.expr:
        return nodes.name(namespace.bind(name, obj, namer))

    every = nodes.all_param_names(fn)
    rebound = _rebound(fn)
    outside = _globals_read(fn, aliases, scope)
    checks: list[gast.stmt] = []  # all before any parameter is rebound
    entry: list[gast.stmt] = []
    exit_: list[gast.stmt] = []
    mutated: dict[str, Mutation] = {}
    apart: list[tuple[str, str]] = []  # (copy, message): copies the result may share
    for p in params:
        stmt, mutated[p] = changed[p]
        others = [o for o in every if o != p] + outside
        if others:
            text = (
                f"{messages.place(parsed, stmt)}: `{messages.text(parsed, stmt)}` updates "
                f"{p!r} in place, and {_names(others)} (an argument or global) may share its "
                f"memory: the gradient follows the update into {p!r} only"
            )
            check = nodes.call(
                helper("unshared", runtime.unshared),
                [nodes.name(p), nodes.tuple_([nodes.name(o) for o in others]), nodes.const(text)],
            )
            checks.append(nodes.located(nodes.expr_stmt(check), stmt))
        caller = namer.temp(f"{p}_caller")
        own = p if p not in rebound else namer.temp(f"{p}_own")
        what = (
            f"{messages.place(parsed, stmt)}: `{messages.text(parsed, stmt)}` changes the "
            f"argument {p!r} in place, which the gradient follows for an array only (it "
            f"copies the array and writes the result back): {_copy_advice(fn, p, stmt)}"
        )
        copy = nodes.call(
            helper("entry_copy", runtime.entry_copy), [nodes.name(caller), nodes.const(what)]
        )
        entry += [
            nodes.located(nodes.assign(caller, nodes.name(p)), stmt),
            nodes.located(nodes.assign(own, copy), stmt),
        ]
        if own != p:
            entry.append(nodes.located(nodes.assign(p, nodes.name(own)), stmt))
        back = nodes.call(
            helper("write_back", runtime.write_back), [nodes.name(caller), nodes.name(own)]
        )
        exit_.append(nodes.expr_stmt(back))
        if p in shared:  # the result may be p's memory: it must not be the copy's
            text = (
                f"{messages.place(parsed, stmt)}: `{messages.text(parsed, stmt)}` changes the "
                f"argument {p!r} in place, and the result returned shares its memory: the "
                f"gradient follows the update in a copy of {p!r}, which the result would "
                "share instead of the caller's array"
            )
            apart.append((own, text))
    returned = _returned_apart(apart, helper("unshared", runtime.unshared))
    fn.body = [*checks, *entry, *_before_returns(fn.body, exit_, returned)]
    return mutated


def _returned_apart(apart: list[tuple[str, str]], unshared: gast.expr):
    """The checks, before a return, that its value shares none of the copies."""

    def checks(ret: gast.Return) -> list[gast.stmt]:
        if not isinstance(ret.value, gast.Name):
            return []
        return [
            nodes.expr_stmt(
                nodes.call(
                    nodes.deepcopy(unshared),
                    [nodes.name(ret.value.id), nodes.tuple_([nodes.name(own)]), nodes.const(t)],
                )
            )
            for own, t in apart
        ]

    return checks


def _by_a_call(stmt: gast.stmt) -> bool:
    return isinstance(stmt, (gast.Assign, gast.Expr)) and isinstance(stmt.value, gast.Call)


def _maybe_a_number(
    aliases: Aliases,
    ret: gast.Return,
    name: str,
    new_memory: Callable[[gast.Call], bool],
    computed: bool,
) -> bool:
    """Whether every statement that may have bound `name` last before ret binds a
    constant, an item `y[i]` without slices (a number, a row, or a copy) or, when
    `computed`, a value computed anew (`a + b`, `sum(xs)`, a call `new_memory` vouches
    for: `np.sum(y)`): the result is then checked at run time rather than the copy
    refused (`return v`, `v[1:3]`, `return double(v)`)."""
    return _bound_to_numbers(aliases, ret, name, new_memory, computed, frozenset())


def _bound_to_numbers(
    aliases: Aliases,
    at: gast.stmt,
    name: str,
    new_memory: Callable[[gast.Call], bool],
    computed: bool,
    seen: frozenset[str],
) -> bool:
    """_maybe_a_number for `name` where `at` runs; a copy `f = e` (the one return of
    A-normal form, `for e in y: return e`) is what e holds where the copy is made."""
    made = aliases.before[id(at)].made.get(name, frozenset())
    if name in aliases.params or not made or name in seen:
        return False
    for i in made:
        stmt = aliases.statements[i]
        value = getattr(stmt, "value", None)
        if not isinstance(stmt, gast.Assign):
            return False
        if isinstance(value, gast.Constant):
            continue
        copied = [value] if isinstance(value, gast.Name) else _picked(value)
        if copied is not None and id(stmt) in aliases.before:
            if not all(
                isinstance(c, gast.Constant)
                or (
                    isinstance(c, gast.Name)
                    and _bound_to_numbers(aliases, stmt, c.id, new_memory, computed, seen | {name})
                )
                for c in copied
            ):
                return False
            continue
        if computed and (
            isinstance(value, (gast.BinOp, gast.UnaryOp, gast.Compare))
            or _sums(value)
            or (isinstance(value, gast.Call) and new_memory(value))
        ):
            continue  # a value computed anew (or a list of the operands' items)
        if not isinstance(value, gast.Subscript) or any(
            isinstance(n, gast.Slice) for n in walk(value.slice)
        ):
            return False
    return True


def _picked(value: gast.expr) -> list[gast.expr] | None:
    """The values `max(...)` / `min(...)` picks its result from (`max([a, b])`,
    `max(a, b)`): one of them is the result itself; None for any other value."""
    if not (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id in ("max", "min")
        and value.args
        and not value.keywords
    ):
        return None
    if len(value.args) == 1:
        only = value.args[0]
        return list(only.elts) if isinstance(only, (gast.List, gast.Tuple)) else None
    return list(value.args)


def _sums(value: gast.expr) -> bool:
    """`sum(xs)`: 0 + xs[0] + ..., a new value (a check at run time follows it anyway)."""
    return (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id == "sum"
        and len(value.args) == 1
        and not value.keywords
    )


def own_copies(fn: gast.FunctionDef, scope: Scope) -> frozenset[str]:
    """The names bound to entry_copy(...): never containers (analyze.containers)."""
    return frozenset(
        s.targets[0].id
        for s in fn.body
        if isinstance(s, gast.Assign)
        and isinstance(s.targets[0], gast.Name)
        and isinstance(s.value, gast.Call)
        and scope.resolve(s.value.func) is runtime.entry_copy
    )


def checked_params(fn: gast.FunctionDef, scope: Scope) -> frozenset[str]:
    """Parameters p whose value on entry entry_copy checks (`_p_caller1 = p`, then
    `_p_own1 = entry_copy(_p_caller1)` among the first plain statements, nothing binding
    p before): past the check it was an array, a number, a string or None, never a list,
    tuple or dict (analyze.containers)."""
    params, callers, found = set(nodes.param_names(fn)), {}, set()
    for stmt in fn.body:
        if not isinstance(stmt, (gast.Assign, gast.Expr)):
            break
        if isinstance(stmt, gast.Assign):
            target, value = stmt.targets[0], stmt.value
            if not isinstance(target, gast.Name):
                break
            if isinstance(value, gast.Name) and value.id in params - found:
                callers[target.id] = value.id
            elif (
                isinstance(value, gast.Call)
                and scope.resolve(value.func) is runtime.entry_copy
                and value.args
                and isinstance(value.args[0], gast.Name)
                and value.args[0].id in callers
            ):
                found.add(callers[value.args[0].id])
            if target.id in params:
                params.discard(target.id)  # bound here: its later values are asked for
    bound = _bound_anywhere(fn)
    return frozenset(
        p for p in found if all(bound.get(c, 0) == 1 for c, q in callers.items() if q == p)
    )


def _bound_anywhere(fn: gast.FunctionDef) -> dict[str, int]:
    """How many times each name is stored anywhere in fn."""
    counts: dict[str, int] = {}
    for n in walk(fn):
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def _before_returns(stmts: list[gast.stmt], exit_: list[gast.stmt], checks) -> list[gast.stmt]:
    """stmts with `checks(return)` and a copy of `exit_` before each `return`, in nested
    blocks too."""
    out: list[gast.stmt] = []
    for stmt in stmts:
        for part in ("body", "orelse"):
            if isinstance(getattr(stmt, part, None), list):
                setattr(stmt, part, _before_returns(getattr(stmt, part), exit_, checks))
        if isinstance(stmt, gast.Return):
            out += [nodes.located(s, stmt) for s in checks(stmt)]
            out += [nodes.located(nodes.deepcopy(s), stmt) for s in exit_]
        out.append(stmt)
    return out


def _rebound(fn: gast.FunctionDef) -> set[str]:
    """Names the body binds anew (`y = ...`, `for y in ...`); `y op= v` keeps y's array."""
    updated = {id(s.target) for s in walk(fn) if isinstance(s, gast.AugAssign)}
    return {
        n.id
        for stmt in fn.body
        for n in walk(stmt)
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store) and id(n) not in updated
    }


def _globals_read(fn: gast.FunctionDef, aliases: Aliases, scope: Scope) -> list[str]:
    """Global names the function reads that hold arrays, lists or dicts."""
    found = []
    for node in walk(fn):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            if node.id in aliases.locals or node.id in found:
                continue
            obj = scope.resolve(node)
            if obj is not MISSING and _mutable_data(obj):
                found.append(node.id)
    return found


def _mutable_data(obj: object) -> bool:
    import numpy as np

    return isinstance(obj, (np.ndarray, list, dict))


def _copy_advice(fn: gast.FunctionDef, p: str, stmt: gast.stmt) -> str:
    """What to copy so that `stmt` changes no value of the caller's."""
    target = stmt.target if isinstance(stmt, gast.AugAssign) else None
    alias = target.id if isinstance(target, gast.Name) and target.id != p else None
    if fn.args.vararg is not None and fn.args.vararg.id == p:
        what = f"`*{p}` is a tuple of the caller's values: copy "
        if alias is None:
            return what + f"the item you change first (item = {p}[i].copy())"
        return what + f"what you change first ({alias} = {alias}.copy())"
    if alias is not None:  # an item of p (a copy of the list would still hold it)
        return f"copy what you change first ({alias} = {alias}.copy())"
    return (
        f"pass an array, or build the changed values anew in the function (a new list or "
        f"dict, not {p!r} itself)"
    )


def _names(names: list[str]) -> str:
    words = [repr(n) for n in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
