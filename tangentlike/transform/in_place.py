"""Lower `z op= v`, and check calls of helpers that change an argument in place.

First, a function that may change an argument array in place gets its own copy of
it, written back into the caller's array before each return (transform.
argument_copies; a list or dict argument written into: transform.argument_containers).
Then, an augmented assignment changes the array z refers to;
generated code can differentiate a new value or a write by index, so each
`z op= v` becomes (decided by analyze.aliases on the whole function):
  - `_z1 = z op v; z = _z1` where that is the program's meaning: no other name
    that may share z's memory is read afterwards (numbers share nothing);
  - where z is a view of a local array b (b[index], a row, b itself, its
    transpose or a reshape) and every other name read afterwards that may share
    b is a view of it: the write of `z op v` into b, and the views made again
    (transform.view_updates; asked at run time for views that may be copies; up
    a chain of views, b a view of c, ..., written into the top array);
  - where z itself is a local array and every other name read afterwards that may
    share it is a view of it: `_z1 = z op v`, `z[...] = _z1` (for an array), and
    those views made again;
  - a located error where z is certainly a view b[index] and that is not possible;
  - otherwise the first form preceded by `unshared(z, (w, ...), "<message>")`,
    which raises at run time when z turns out to be an array one of the names
    read later shares (it never does for numbers).
`y[index] = v` into such a view of b, which other names read afterwards share,
is written back likewise (`_y1 = copy(y); _y1[index] = v`, then as above); into
a local array y whose views are read afterwards, the views are made again after it.
A call of a helper that may change a parameter in place (analyze.effects), whose
argument is shared with a name read later, gets the same check (a helper's
parameter is never certainly an array). `run` returns the function's own
Effects for its callers.

Assumes: A-normal form with `name op= atom` statements; closures inlined. Runs before
activity (whose A-normal form has no AugAssign).
Guarantees: no AugAssign; A-normal form otherwise unchanged.
Invalidates: every analysis.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import gast

from .. import runtime
from ..analyze import alias_messages as messages
from ..analyze import containers, keyed, tuple_items, zero_dim
from ..analyze.activity import user_function
from ..analyze.aliases import Aliases, analyze, bound_arguments
from ..analyze.calls import writes_first_argument
from ..analyze.effects import Effects, Mutation
from ..checkpoint import is_checkpointed
from ..parse import form_words
from ..parse.resolve import Scope
from ..parse.shown import own_param, shown
from ..parse.source import ParsedFunction
from ..rules.registry import Registry
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from . import argument_containers, argument_copies, check_bindings, item_updates
from .view_updates import ViewUpdates, into_array, keys_of

EffectsOf = Callable[[object], Effects | None]


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    scope: Scope,
    registry: Registry,
    namespace: Namespace,
    namer: Namer,
    effects_of: EffectsOf,
    temps: dict[int, str] | None = None,
    checkpointed: frozenset[int] = frozenset(),
    kinds: dict[str, object] | None = None,
    top: bool = False,
    not_0d: frozenset[str] = frozenset(),
) -> Effects:
    """`temps`: id(`z op= v`) -> the name A-normal form chose for its result;
    `checkpointed`: the ids of the checkpointed loops; `kinds`, `top`: for
    transform.argument_containers (the classes the build is made for; fn is the
    function asked for); `not_0d`: parameters never passed a 0-d ndarray."""
    written = argument_containers.run(fn, parsed, scope, namespace, namer, kinds or {}, top)

    def structure(**copies: object) -> dict:
        return containers.structured(
            fn,
            lambda call: user_function(scope.resolve(call.func), registry),
            lambda call: registry.makes_sequence(scope.resolve(call.func)),
            **copies,
        )

    structured = structure()
    form = form_words.in_form(parsed)  # a gradient's differentiable form: its pops known
    aliases = analyze(fn, scope, registry, effects_of, structured, form=form)
    own = argument_containers.own_names(fn, scope)
    changed = argument_copies.changed_params(
        fn, parsed, aliases, scope, registry, effects_of, structured, own
    )
    copied = {}
    if changed:
        copied = argument_copies.copy_arguments(
            fn, parsed, aliases, changed, structured, scope, namespace, namer, registry
        )
    copies = {}
    if copied:  # the function changes its own copies of these arguments now
        copies = {
            "no_containers": argument_copies.own_copies(fn, scope),
            "checked_params": argument_copies.checked_params(fn, scope),
        }
        structured = structure(**copies)
        aliases = analyze(fn, scope, registry, effects_of, structured, form=form)
    lowering = _Lowering(parsed, scope, registry, namespace, namer, effects_of, aliases)
    lowering.keyed = keyed.keyed_reads(fn)
    lowering.other_writes = _writes_in_place(fn, scope, registry, effects_of) > 1
    lowering.temps = temps or {}
    lowering.not_0d = not_0d
    lowering.mutated.update(copied)
    lowering.mutated.update(written)
    if lowering.unshared(fn.body) and _updates_left(fn):  # the facts after them changed
        lowering.aliases = analyze(fn, scope, registry, effects_of, structure(**copies), form=form)
    lowering.loops = _loops_around(fn.body, checkpointed, frozenset())
    fn.body = lowering.block(fn.body)
    check_bindings.prebind(fn, namespace)
    check(fn)
    return lowering.effects(fn)


def _loops_around(
    stmts: list[gast.stmt], checkpointed: frozenset[int], around: frozenset[int]
) -> dict[int, frozenset[int]]:
    """id(statement) -> the checkpointed loops around it."""
    found: dict[int, frozenset[int]] = {}
    for stmt in stmts:
        found[id(stmt)] = around
        inside = around | {id(stmt)} if id(stmt) in checkpointed else around
        for part in ("body", "orelse"):
            found.update(_loops_around(getattr(stmt, part, None) or [], checkpointed, inside))
    return found


def _updates_left(fn: gast.FunctionDef) -> bool:
    """Whether fn still holds an update `z op= v` or a write by index."""
    return any(
        isinstance(n, gast.AugAssign) or (isinstance(n, gast.stmt) and nodes.is_item_write(n))
        for n in walk(fn)
    )


def _writes_in_place(fn: gast.FunctionDef, scope: Scope, registry: Registry, effects_of) -> int:
    """How many statements of fn may write into an array in place (2: more than one):
    updates, writes by index, calls of NumPy's writers and of helpers that change (or
    may change) a parameter."""
    found = 0
    for node in walk(fn):
        if isinstance(node, gast.AugAssign) or (
            isinstance(node, gast.stmt) and nodes.is_item_write(node)
        ):
            found += 1
        elif isinstance(node, gast.Call):
            callee = scope.resolve(node.func)
            if writes_first_argument(callee):
                found += 1
            elif user_function(callee, registry):
                effects = effects_of(callee)
                found += 2 if effects is None or effects.mutated else 0
    return found


def check(fn: gast.FunctionDef) -> None:
    """Assert no augmented assignment is left (a compiler bug if it fails)."""
    assert not any(isinstance(n, gast.AugAssign) for n in walk(fn)), "AugAssign left"


class _Lowering:
    def __init__(self, parsed, scope, registry, namespace, namer, effects_of, aliases) -> None:
        self.parsed: ParsedFunction = parsed
        self.scope: Scope = scope
        self.registry: Registry = registry
        self.namespace: Namespace = namespace
        self.namer: Namer = namer
        self.effects_of: EffectsOf = effects_of
        self.aliases: Aliases = aliases
        self.mutated: dict[str, Mutation] = {}
        self.temps: dict[int, str] = {}
        self.loops: dict[int, frozenset[int]] = {}
        self.keyed: dict[str, tuple] = {}  # names read only at constant keys
        self.other_writes = True  # whether fn may write in place more than once
        self.not_0d: frozenset[str] = frozenset()  # parameters never passed a 0-d array

    def block(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            for part in ("body", "orelse"):
                if isinstance(getattr(stmt, part, None), list):
                    setattr(stmt, part, self.block(getattr(stmt, part)))
            if isinstance(stmt, gast.AugAssign):
                lowered = self.augmented(stmt)
            elif nodes.is_item_write(stmt):  # refused where it is compiled; callers know
                for param in self.aliases.params_of(stmt, nodes.assigned_name(stmt)):
                    self.mutated.setdefault(param, self.mutation(stmt))
                lowered = self.numeric_item(stmt)
                if len(lowered) == 1:
                    lowered = self.item_write(stmt) or lowered
            elif isinstance(stmt, (gast.Assign, gast.Expr)) and isinstance(stmt.value, gast.Call):
                lowered = [*self.call(stmt), stmt]
            else:
                lowered = [stmt]
            out.extend(nodes.located(s, stmt) for s in lowered)
        return out

    # -- z op= v ----------------------------------------------------------------------
    def unshared(self, stmts: list[gast.stmt]) -> bool:
        """Lower first, out of place, each `z op= v` whose memory no other name read
        afterwards shares; True if one was. z is a new array after it, so the facts
        about the names made from z afterwards change: in `y = b; y -= y; w = y;
        w += x; return y`, w is y's new array, not a view of b (the write into b that
        the facts of the original program ask for leaves y alone: a wrong value)."""
        lowered = False
        out: list[gast.stmt] = []
        for stmt in stmts:
            for part in ("body", "orelse"):
                inner = getattr(stmt, part, None)
                if isinstance(inner, list):
                    lowered = self.unshared(inner) or lowered
            z = stmt.target.id if isinstance(stmt, gast.AugAssign) else None
            if z is None or self.shared(stmt, z, skip=(z,)):
                out.append(stmt)
                continue
            for param in self.aliases.params_of(stmt, z):
                self.mutated.setdefault(param, self.mutation(stmt))
            out.extend(nodes.located(s, stmt) for s in self.out_of_place(stmt))
            lowered = True
        stmts[:] = out
        return lowered

    def augmented(self, stmt: gast.AugAssign) -> list[gast.stmt]:
        a = self.aliases
        z = stmt.target.id
        view = a.view(stmt, z)
        for param in a.params_of(stmt, z):
            self.mutated.setdefault(param, self.mutation(stmt))
        shared = self.shared(stmt, z, skip=(z,))
        if not shared:
            return self.out_of_place(stmt)
        if view is not None:
            updates = self.updates(stmt)
            order = updates.remade(z, view)
            if order is not None:
                tmp = self.temp(stmt)
                update = nodes.assign(tmp, nodes.binop(nodes.name(z), stmt.op, stmt.value))
                return updates.lowered(z, view, [update], tmp, order)
            certain = view.kind == "index" and not view.maybe
            if certain and updates.made_outside(view):
                raise messages.checkpointed_view_refusal(self.parsed, stmt, view)
            if certain:
                others = self.shared(stmt, view.base, skip=(view.base, z))
                raise messages.view_refusal(self.parsed, a, stmt, view, others or shared)
        updates = self.updates(stmt)
        order = updates.remade_from_base(z, update=True)
        if order is not None:  # z's own views read afterwards: made again after the write
            tmp = self.temp(stmt)
            update = nodes.assign(tmp, nodes.binop(nodes.name(z), stmt.op, stmt.value))
            return updates.lowered_base(z, [update], tmp, order)
        text = messages.augmented_guard(self.parsed, a, stmt, shared)
        return [self.guard(z, shared, text), *self.out_of_place(stmt)]

    def item_write(self, stmt: gast.Assign) -> list[gast.stmt] | None:
        """`y[index] = v` into a view y of a local array that other names read afterwards
        share: `_y1 = copy(y); _y1[index] = v`, then written back like `y op= v`; into a
        local array y whose views are read afterwards: the write, then the views made
        again."""
        a = self.aliases
        y = nodes.assigned_name(stmt)
        view = a.view(stmt, y)
        if view is not None and view.maybe:  # y perhaps a list: `np.copy(y)` is no list
            view = None
        if not self.shared(stmt, y, skip=(y,)) or a.global_roots(stmt, y):
            return None
        updates = self.updates(stmt)
        order = updates.remade(y, view) if view is not None else None
        if order is None:  # y's own views read afterwards: made again after the write
            order = updates.remade_from_base(y)
            return None if order is None else updates.lowered_base(y, [stmt], None, order)
        tmp = self.namer.temp(y)
        target = stmt.targets[0]
        write = gast.Subscript(
            value=nodes.name(tmp), slice=nodes.deepcopy(target.slice), ctx=gast.Store()
        )
        update = [
            nodes.assign(tmp, nodes.call(updates.numpy("copy"), [nodes.name(y)])),
            nodes.assign(write, stmt.value),
        ]
        return updates.lowered(y, view, update, tmp, order, self.alone(stmt, y, view))

    def alone(self, stmt: gast.Assign, y: str, view) -> list[gast.stmt] | None:
        """Where y, "the same" as its base b on one path only, is not b (runtime.same_array:
        then y shares none of b), the write into y itself, not into a copy that y is then
        bound to: y keeps its object (the pops of a gradient's form check identity,
        higher/form_pairs.py) and the views of y made again share it as before. Only
        where y's memory is the function's own (a copy changes no caller's array); the
        write may share b (asked at run time, `untouched`)."""
        roots = self.aliases.roots(stmt, y)
        if view.kind != "same" or not roots or any(r[0] != "new" for r in roots):
            return None
        write = into_array(nodes.deepcopy(stmt))
        write.untouched = frozenset({view.base})
        return [write]

    def updates(self, stmt: gast.stmt) -> ViewUpdates:
        what = f"{messages.place(self.parsed, stmt)}: `{messages.said(self.parsed, stmt)}`"

        def labels(names: list[str]) -> str:
            text = messages.labels(self.parsed, self.aliases, stmt, [(n, None) for n in names])
            return shown(text, self.parsed.node, self.parsed.source)

        def own(name: str) -> str | None:
            return own_param(name, self.parsed.node, self.parsed.source)

        return ViewUpdates(
            self.namespace,
            self.namer,
            self.aliases,
            stmt,
            self.loops,
            what,
            labels,
            own,
            self.keyed,
        )

    def temp(self, stmt: gast.AugAssign) -> str:
        return self.temps.get(id(stmt)) or self.namer.temp(stmt.target.id)

    def out_of_place(self, stmt: gast.AugAssign) -> list[gast.stmt]:
        """`_z1 = z op v; z = _z1`, or `z = updated(z, _z1)` where z may be a 0-d array
        (which stays one, unlike `z op v`) that a later write in place may reach."""
        z = stmt.target.id
        tmp = self.temp(stmt)
        value = nodes.binop(nodes.name(z), stmt.op, stmt.value)
        new: gast.expr = nodes.name(tmp)
        if (
            self.other_writes
            and self.aliases.roots(stmt, z)
            and zero_dim.may_be_0d(self.aliases, stmt, z, self.scope.resolve, self.not_0d)
        ):
            helper = nodes.name(self.namespace.bind("updated", runtime.updated, self.namer))
            new = nodes.call(helper, [nodes.name(z), new])
        rebinding = nodes.assign(z, new)
        if isinstance(new, gast.Name):  # z is the temporary's memory, no view of it
            rebinding.update_result = True  # (analyze/memory.py Memory.view)
        return [nodes.assign(tmp, value), rebinding]

    def numeric_item(self, stmt: gast.Assign) -> list[gast.stmt]:
        """`L[k] op= v` (normalize/desugar.py marks it) into what may be a list or dict:
        Python updates the item in place when it is an array or a list, which other names
        may hold; the lowered `L[k] = L[k] op v` is right for a number there, and for an
        array no name read afterwards holds or shares (L's other slots included) and that
        is no argument's or global's (whose change the caller sees), which
        runtime.numeric_item checks."""
        target = stmt.targets[0]
        y = target.value.id
        if not getattr(target, "augmented", False) or y in self.before_arrays(stmt):
            return [stmt]
        line = messages.text(self.parsed, stmt)
        written = re.match(r"(\w+)\s*\[", line)  # as written (an inlined helper's `D`)
        name = written.group(1) if written and y.startswith("_") else y
        what = (
            f"{messages.place(self.parsed, stmt)}: `{line}` updates "
            f"the item of {shown(repr(name), self.parsed.node, self.parsed.source)} in place"
        )
        a = self.aliases  # an argument's or a global's array changes for the caller: refused
        live = None
        if not a.global_roots(stmt, y) and not a.params_of(stmt, y):
            live = a.live_sharers(stmt, y)  # who would see the item change
        kept = self.other_writes
        return item_updates.lowered(stmt, y, what, live, self.namespace, self.namer, kept)

    def before_arrays(self, stmt: gast.stmt) -> frozenset[str]:
        """Names certainly not a list or dict when stmt runs."""
        memory = self.aliases.before.get(id(stmt))
        return memory.arrays if memory is not None else frozenset()

    # -- calls of helpers that change an argument --------------------------------------
    def call(self, stmt: gast.Assign | gast.Expr) -> list[gast.stmt]:
        call = stmt.value
        callee = self.scope.resolve(call.func)
        if writes_first_argument(callee) and call.args and isinstance(call.args[0], gast.Name):
            for param in self.aliases.params_of(stmt, call.args[0].id):  # np.copyto(a, x)
                self.mutated.setdefault(param, self.mutation(stmt))  # callers see it
        if not user_function(callee, self.registry):
            return []
        effects = self.effects_of(callee)
        if effects is None or not effects.mutated:
            return []
        target = nodes.assigned_name(stmt) if isinstance(stmt, gast.Assign) else None
        bound = bound_arguments(callee, call)
        checks = []
        for param, mutation in effects.mutated:
            for atom in bound.get(param, []):
                found = self.argument(stmt, callee, param, mutation, atom, target)
                if found is not None:
                    checks.append(found)
        return checks

    def argument(self, stmt, callee, param, mutation, atom, target) -> gast.stmt | None:
        """The check for one argument of a call that may change it in place, if needed."""
        a = self.aliases
        if isinstance(atom, gast.Starred):
            atom = atom.value
        if not isinstance(atom, gast.Name):
            return None
        arg = atom.id
        if arg not in a.locals:  # a global passed in: it changes for good
            shared: list[tuple[str, gast.expr]] = [(arg, nodes.name(arg))]
        else:
            where = f"{callee.__qualname__}({arg}) at {messages.place(self.parsed, stmt)}"
            for p in a.params_of(stmt, arg):
                chained = Mutation(mutation.where, mutation.text, (*mutation.via, where))
                self.mutated.setdefault(p, chained)
            shared = self.shared(stmt, arg, skip=(target,) if target else ())
            if is_checkpointed(callee) and a.roots(stmt, arg) and arg not in dict(shared):
                shared.append((arg, nodes.name(arg)))  # recomputed later from the argument
        if not shared:
            return None
        text = messages.call_guard(self.parsed, a, stmt, callee, param, mutation, arg, shared)
        return self.guard(arg, shared, text)

    # -- shared ----------------------------------------------------------------------
    def shared(self, stmt: gast.stmt, name: str, skip: tuple) -> list[tuple[str, gast.expr]]:
        """(label, expression) of what shares `name`'s memory and is read afterwards."""
        a = self.aliases
        found = [(n, nodes.name(n)) for n in a.live_sharers(stmt, name, skip)]
        for root in a.global_roots(stmt, name):  # visible after the call: always shared
            found.append((str(root[1]), nodes.name(name)))
        return found

    def guard(self, name: str, shared: list[tuple[str, gast.expr]], text: str) -> gast.stmt:
        helper = nodes.name(self.namespace.bind("unshared", runtime.unshared, self.namer))
        others = nodes.tuple_([expr for _, expr in shared])
        args = [nodes.name(name), others, nodes.const(text)]
        names = [n for n, e in shared if isinstance(e, gast.Name) and e.id == n]
        if len(names) == len(shared) and any(n in self.keyed for n in names):
            args.append(keys_of(names, self.keyed))  # the keys each is read at
        return nodes.expr_stmt(nodes.call(helper, args))

    def mutation(self, stmt: gast.stmt) -> Mutation:
        return Mutation(self.parsed.location(stmt), messages.text(self.parsed, stmt))

    def effects(self, fn: gast.FunctionDef) -> Effects:
        ret = fn.body[-1]
        a = self.aliases
        name = ret.value.id if isinstance(ret, gast.Return) and id(ret) in a.before else None
        returned = frozenset(a.params_of(ret, name)) if name else frozenset()
        shares = frozenset(a.global_roots(ret, name)) if name else frozenset()
        items, array = (), False
        if name:
            m = a.before[id(ret)]
            items = tuple_items.summarize(name, m.items, m.roots, _outside)
            array = name in m.arrays
        mutated = tuple(sorted(self.mutated.items()))
        return Effects(mutated, returned, shares, items, array)


def _outside(roots: frozenset) -> bool:
    """Whether memories include a parameter's or a global's (which callers hold)."""
    return any(r[0] in ("param", "global") for r in roots)
