"""What the transform refuses for lists and dicts, and which appends it must undo.

Assumes: A-normal form, `Context.structured` set. Guarantees: `check` raises a
located error for every container mutation whose gradient could not be followed
exactly (appending to an argument, to a list held in another container, to a
list another name refers to, inside a loop over that list; writing into a list
or dict by index or key: a write transform/view_updates.py marks `into_array`, or
one under a test of memory sharing (transform/array_guards.py), runs only where its
base is an array, and is left to transform.plan); `restored`
says which `xs.append` / `xs.extend` the backward sweep must undo: those of lists it
reads under any name.
"""

from __future__ import annotations

import ast
import linecache
from typing import Any

import gast
import numpy as np

from .. import runtime
from ..analyze import alias_messages, tuple_items
from ..analyze import aliases as alias_analysis
from ..analyze import containers as container_analysis
from ..analyze.activity import user_function
from ..analyze.calls import hides_arguments
from ..analyze.containers import mutation
from ..parse import form_words, origins
from ..syntax import nodes
from ..syntax.nodes import walk
from . import array_guards, container_writes
from .containers import assignments, binds_array, may_hold_container, statements


def restored(ctx: Any, reads: set[str]) -> tuple[frozenset[int], frozenset[str]]:
    """The mutations whose list the backward sweep reads, under its name or another
    (`_seq = iterable(xs)` is xs itself): they are undone there, so those lists are
    read by the backward sweep too (and saved where they are rebound)."""
    stmts = [
        stmt
        for stmt in container_analysis.mutations(ctx.fn.body)
        if _may_refer_to(ctx, mutation(stmt)[0]) & reads
    ]
    return frozenset(id(s) for s in stmts), frozenset(mutation(s)[0] for s in stmts)


def _may_refer_to(ctx: Any, xs: str) -> set[str]:
    """xs and the names that may be bound to the same object: copies, and results of
    calls that take one of them whole (iterable(xs) returns xs itself)."""
    names = {xs}
    bindings = [
        (a.targets[0].id, a.value)
        for a in assignments(ctx.fn.body)
        if isinstance(a.targets[0], gast.Name)
    ]
    changed = True
    while changed:
        changed = False
        for target, value in bindings:
            if target in names:
                continue
            if isinstance(value, gast.Call):  # a function that may return its argument
                callee = ctx.scope.resolve(value.func)
                same = callee in (runtime.iterable, runtime.stop_gradient) or (
                    ctx.registry.lookup(callee) is None and not isinstance(callee, np.ufunc)
                )
                parts = value.args if same else []
            else:
                parts = [value]
            if any(isinstance(p, gast.Name) and p.id in names for p in parts):
                names.add(target)
                changed = True
    return names


def check(ctx: Any) -> None:
    """Refuse container mutations whose gradient could not be followed exactly."""
    params = set(nodes.param_names(ctx.fn))
    grown = {}
    _check_iterated(ctx)
    for stmt in container_analysis.mutations(ctx.fn.body):
        xs, method, _ = mutation(stmt)
        if xs in params:
            raise ctx.error(
                stmt,
                f"`{xs}.{method}(...)` changes the caller's list {xs!r}",
                "build a new list in the function instead (`out = []`, then `out.append(...)`)",
            )
        grown.setdefault(xs, stmt)
    literals = {
        s.targets[0].id
        for s in assignments(ctx.fn.body)
        if isinstance(s.value, (gast.List, gast.Tuple, gast.Dict))
    }
    arrays = None  # certain_arrays(ctx), when first needed
    guarded = array_guards.guarded(ctx.fn, ctx.scope.resolve)
    for stmt in assignments(ctx.fn.body):
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, gast.Subscript):
            name = target.value.id
            if name in params:
                continue  # reverse.check_item_write: writing into an argument
            if name in ctx.container_writes:
                continue  # a list or dict the function made (transform/container_writes.py)
            if getattr(stmt, "into_array", False) or id(stmt) in guarded:
                continue  # runs only where `name` is an array (transform/view_updates.py)
            held = name in grown or name in literals
            if not held and may_hold_container(ctx, target.value):
                arrays = certain_arrays(ctx) if arrays is None else arrays
                held = not arrays.get(id(stmt), False)
            if held or _item_of(name, literals | set(grown) | ctx.container_writes, ctx):
                _refuse_write(ctx, target, name)
            continue
        if target.id in grown and isinstance(value, gast.Subscript):
            raise ctx.error(
                grown[target.id],
                "appending to a list held inside another list or dict is not supported",
                "grow a local list (`trace = []`, `trace.append(...)`) and put it into the "
                "container once it is complete",
            )
        if (
            target.id in grown
            and not isinstance(value, (gast.List, gast.BinOp))
            and not (isinstance(value, gast.Constant) and value.value is None)  # no object
            and not _new_list(ctx, value)
            and not _handed_over(ctx, value)
        ):
            raise ctx.error(
                stmt,
                f"{target.id!r} is appended to, but here it is bound to a value that may be "
                "shared with another variable",
                f"start it as a new list: {target.id} = [] (or a list literal, or xs + ys)",
            )
        if isinstance(value, gast.Name) and value.id in grown and not _handed_over(ctx, value):
            raise ctx.error(
                stmt,
                f"{target.id!r} refers to the list {value.id!r}, which is appended to",
                f"take a copy where it is needed, or append to {value.id!r} only",
            )


def _refuse_write(ctx: Any, target: gast.Subscript, name: str) -> None:
    """Refuse writing into `name`, which may be a list or dict the function did not make;
    a compiler temporary (the base an update in place is written into, an inlined
    helper's variable) is named by the line that made it."""
    user = _user_update(ctx, target, name)
    if user is not None:
        variable, line = user
        raise ctx.error(
            target,
            f"differentiating the gradient again, the update in place of {variable!r} at "
            f"line {line} writes into a value the gradient made ({name!r}: {variable!r} or "
            "the array it is a view of) that tangentlike cannot show is an array there; "
            "writing into a list or dict by index or key is supported only when the "
            "function made it itself, and only there",
            f"make it visible that {variable!r}, and the array it is a view of, are arrays "
            "where they are made (np.array(...), np.copy(...), or arithmetic with a float: "
            f"2.0 * a rather than a + a), or update it out of place ({variable} = "
            f"{variable} + ...)",
        )
    if not container_writes.temporary(ctx, name):
        raise ctx.error(
            target,
            f"writing into the list or dict {name!r} by index or key is supported only "
            "when the function made it itself, and only there",
            f"make {name!r} in this function ({name} = [0.0] * n, {name} = {{}}, "
            f"list(...), dict(...)) and write into it by name; for a list held in "
            "another list or dict, build the inner list first and put it in once "
            f"complete; if {name!r} is an array, make that visible where it is made "
            f"({name} = np.array(...), np.copy(...) or arithmetic with a float)",
        )
    made = [
        a
        for a in assignments(ctx.fn.body)
        if isinstance(a.targets[0], gast.Name) and a.targets[0].id == name
    ]
    where = [f"`{alias_messages.text(ctx.parsed, a)}` at line {a.lineno}" for a in made[:1]]
    what = f"the value of {where[0]}" if where else "a value"
    raise ctx.error(
        target,
        f"this writes into {what}, which may be a list, tuple or dict here, not an array; "
        "writing into a list or dict by index or key is supported only when the function "
        "made it itself, and only there",
        "make it visible that the value is an array where it is made (np.array(...), "
        "np.copy(...), or arithmetic with a float: 2.0 * a rather than a + a), or update "
        "out of place (z = z + ...)",
    )


def _user_update(ctx: Any, target: gast.Subscript, name: str) -> tuple[str, int] | None:
    """(the user's variable, its line) where a gradient's temporary `name` (`_y3`) is
    written into, differentiating a gradient again (higher/forms.py): the variable the
    user's line updates (`z2 += ...`, `v[k] = ...`); None elsewhere, or if unclear."""
    filename = ctx.parsed.filename
    if not (origins.is_form(filename) and name.startswith("_")):
        return None
    found = origins.origin(filename, ctx.parsed.location(target).line)
    if found is None:
        return None
    text = linecache.getline(*found).strip()
    try:
        stmt = ast.parse(text).body[0] if text else None
    except SyntaxError:
        return None
    if isinstance(stmt, ast.AugAssign):
        updated = stmt.target
    elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        updated = stmt.targets[0]
    else:
        return None
    while isinstance(updated, ast.Subscript):
        updated = updated.value
    return (updated.id, found[1]) if isinstance(updated, ast.Name) else None


def certain_arrays(ctx: Any) -> dict[int, bool]:
    """id(`y[k] = v`) -> whether y certainly is no list, tuple or dict when it runs:
    every binding that may reach the write (analyze.aliases follows the statements in
    order) makes an array by the rules may_hold_container applies to every binding
    (`v = y` then `v = np.array(...)` leaves an array, where analyze.containers, for the
    whole function, says v may hold y's list), and y holds no argument's or global's
    memory there (an argument's own binding reaches no `made`)."""
    aliases = alias_analysis.analyze(
        ctx.fn,
        ctx.scope,
        ctx.registry,
        ctx.effects_of,
        ctx.structured,
        form=form_words.in_form(ctx.parsed),
    )
    found = {}
    for stmt in statements(ctx.fn.body):
        if not nodes.is_item_write(stmt) or id(stmt) not in aliases.before:
            continue
        y, m = nodes.assigned_name(stmt), aliases.before[id(stmt)]
        made = [aliases.statements[k] for k in m.made.get(y, ())]
        found[id(stmt)] = (
            y in m.arrays
            and bool(made)
            and all(r[0] == "new" for r in m.roots.get(y, ()))
            and all(isinstance(s, gast.Assign) and _array_binding(ctx, aliases, s, y) for s in made)
        )
    return found


def _array_binding(ctx: Any, aliases: alias_analysis.Aliases, stmt: gast.Assign, y: str) -> bool:
    """`y = value` binds an array: by its form, as a user function's result or an item of
    a tuple it returned that its Effects say is an array (`s, y = h(x)`: analyze.
    tuple_items), or
    as part of a name certainly no list, tuple or dict there (`y = b[::-1]`: a slice
    of an array is an array; of a number, an error), or, in a gradient differentiated
    again (higher/forms.py), as arithmetic of such names and numbers (`_y3 = y * _y2`,
    y the argument's own copy there: no list is repeated or joined); user code keeps
    the first-order rules (tests/transform/test_arrays_by_construction.py)."""
    if binds_array(ctx, stmt.value, y):
        return True
    memory = aliases.before.get(id(stmt))
    if memory is None:
        return False
    value = stmt.value
    if (
        isinstance(value, gast.Subscript)
        and isinstance(value.value, gast.Name)
        and value.value.id in memory.arrays
    ):
        return True
    if _copy_of_array(ctx, value, memory):
        return True
    if (
        isinstance(value, gast.BinOp)
        and origins.is_form(ctx.parsed.filename)
        and all(_no_container(o, memory) for o in (value.left, value.right))
    ):
        return True  # `_y3 = y * _y2`, y an array there: neither repeats nor joins a list
    if isinstance(value, gast.Call):  # a user function's result, an array by its Effects
        callee = ctx.scope.resolve(value.func)
        effects = ctx.effects_of(callee) if user_function(callee, ctx.registry) else None
        return effects is not None and effects.array and not hides_arguments(value)
    item = tuple_items.index(value, memory.items)
    return item is not None and item.array


def _copy_of_array(ctx: Any, value: gast.expr, memory: Any) -> bool:
    """`y = v`, or `y = updated(z, v)` (what `z op= ...` leaves, `v` = `z op ...`: v
    itself, or a 0-d array of it), where v is certainly no list, tuple or dict there
    (analyze.aliases follows the statements in order: `v1 = _v11` after
    `_v11 = updated(v1, _v10)`, `_v10 = v1 * 3`, v1 an array)."""
    if (
        isinstance(value, gast.Call)
        and ctx.scope.resolve(value.func) is runtime.updated
        and len(value.args) == 2
        and not value.keywords
    ):
        value = value.args[1]
    return isinstance(value, gast.Name) and value.id in memory.arrays


def _no_container(operand: gast.expr, memory: Any) -> bool:
    """A number, or a name certainly no list, tuple or dict where it is read."""
    if isinstance(operand, gast.Constant):
        return isinstance(operand.value, (int, float, complex)) and not isinstance(
            operand.value, bool
        )
    return isinstance(operand, gast.Name) and operand.id in memory.arrays


def _item_of(name: str, containers: set[str], ctx: Any) -> bool:
    """Whether `name` may be bound to an item of one of `containers` (`r = rows[0]`)."""
    return any(
        isinstance(a.targets[0], gast.Name)
        and a.targets[0].id == name
        and isinstance(a.value, gast.Subscript)
        and isinstance(a.value.value, gast.Name)
        and a.value.value.id in containers
        for a in assignments(ctx.fn.body)
    )


def _handed_over(ctx: Any, value: gast.expr) -> bool:
    """A compiler temporary (a comprehension's list, `xs + ys` named by A-normal form)
    read only by this assignment: it passes the list on and is never used again, so
    the two names cannot diverge."""
    if not isinstance(value, gast.Name):
        return False
    name = value.id
    if name in nodes.param_names(ctx.parsed.node) or any(
        name in nodes.names_stored(s) for s in ctx.parsed.node.body
    ):
        return False  # the user's own variable
    reads = sum(
        1
        for stmt in statements(ctx.fn.body)
        if mutation(stmt) is None and not isinstance(stmt, (gast.For, gast.While, gast.If))
        for n in walk(stmt)
        if isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load)
    )
    return reads == 1  # its own appends aside


def _check_iterated(ctx: Any) -> None:
    """Refuse growing a list inside a loop over that same list."""
    sequences = _sequences(ctx)

    def visit(stmts: list[gast.stmt], iterated: set[str]) -> None:
        for stmt in stmts:
            found = mutation(stmt)
            if found is not None and found[0] in iterated:
                raise ctx.error(
                    stmt,
                    f"growing the list {found[0]!r} inside a loop over it is not supported",
                    "loop over a copy made before the loop, or collect into another list",
                )
            inner = iterated
            if isinstance(stmt, (gast.For, gast.While)):
                inner = iterated | _iterated_by(stmt, sequences)
            for field in ("body", "orelse"):
                visit(getattr(stmt, field, []) or [], inner)

    visit(ctx.fn.body, set())


def _iterated_by(loop: gast.For | gast.While, sequences: dict[str, str]) -> set[str]:
    """The lists `loop` runs over: xs for a `_seq = iterable(xs)` its body reads that is
    bound before it. A `_seq` bound in its body belongs to a loop nested there, which
    ends before the body goes on: `for i in ...: (for t in xs: ...); xs.append(v)` grows
    xs between two loops over it, not inside one."""
    read = set().union(*(nodes.names_read(s) for s in loop.body))
    bound = set().union(*(nodes.names_stored(s) for s in loop.body))
    return {xs for seq, xs in sequences.items() if seq in read and seq not in bound}


def _sequences(ctx: Any) -> dict[str, str]:
    """`_seq = iterable(xs)` bindings: {_seq: xs}."""
    out = {}
    for stmt in assignments(ctx.fn.body):
        value = stmt.value
        if (
            isinstance(value, gast.Call)
            and ctx.scope.resolve(value.func) is runtime.iterable
            and value.args
            and isinstance(value.args[0], gast.Name)
            and isinstance(stmt.targets[0], gast.Name)
        ):
            out[stmt.targets[0].id] = value.args[0].id
    return out


def _new_list(ctx: Any, value: gast.expr) -> bool:
    """`list(...)`, or the copy of a list argument (transform/argument_containers.py): a
    new list object, shared with nothing."""
    return isinstance(value, gast.Call) and ctx.scope.resolve(value.func) in (
        list,
        runtime.own_container,
    )
