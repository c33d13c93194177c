"""Which names may share memory, on A-normal form ("in place is in place", DESIGN.md).

Assumes: A-normal form (normalize.anf), where `name op= atom` may still appear.
Guarantees: `analyze` returns a frozen `Aliases` and never writes to the tree.
For each simple statement s, `Aliases.before[id(s)]` is the `Memory` when s runs:
  - `roots`: name -> the memories it may refer to, whole or in part: a
    parameter's, a global object's, or one made by a statement ("new"). Numbers,
    strings and None refer to none: they are immutable. A result of arithmetic,
    a ufunc or a function the registry says allocates (`makes_new_array`) is
    new; a subscript, a view-making or unknown function (reshape, transpose,
    asarray, ...), a helper that may return an argument (analyze.effects) or a
    list, tuple or dict refers to its operands' memories too.
  - `views`: name -> View: the name certainly is the view base[index] (an index
    with a slice and otherwise integers, of a base that is certainly no list),
    and neither the name, the base nor the index was rebound since.
  - `ints` / `arrays`: names certainly holding an integer / certainly not a list,
    tuple or dict; `ranges`: names certainly holding a range, whose items are
    integers (`i = _seq1[_k1]` in a loop that can end early, normalize.jumps).
  - `made`: name -> the statements that may have bound it last (for messages).
  - `read`: the memories read by earlier statements `reads` selects (if given).
Liveness comes with it (`live`, from analyze.liveness).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import gast

from ..parse.resolve import Scope
from ..rules.registry import Registry
from ..syntax import nodes
from ..syntax.nodes import walk
from . import liveness, shape_reads, tuple_items
from .activity import user_function
from .calls import hides_arguments
from .effects import Effects
from .memory import NONE, Memory, Root, Roots, Values, View, bound_arguments
from .stack_entries import StackEntries

__all__ = ["Aliases", "Memory", "View", "analyze", "bound_arguments"]

# The views of z that `z op= v` leaves views of z (or copies of it, asked at run time).
_KEPT_BY_UPDATES = ("index", "item", "expand", "reshape", "transpose")


@dataclass(frozen=True)
class Aliases:
    before: dict[int, Memory]  # id(simple statement) -> memory when it runs
    live: dict[int, frozenset[str]]  # id(simple statement) -> names read later
    # id(simple statement) -> names read later for more than their shape (shape_reads)
    valued: dict[int, frozenset[str]]
    statements: dict[int, gast.stmt]  # id -> every statement (to point at where names are made)
    params: tuple[str, ...]
    locals: frozenset[str]  # parameters and every name the function binds

    def roots(self, stmt: gast.stmt, name: str) -> Roots:
        return self.before[id(stmt)].roots.get(name, NONE)

    def sharers(self, stmt: gast.stmt, name: str) -> list[str]:
        """The other names that may share memory with `name` when stmt runs, user names
        first. Parameters may be one array passed twice (f(a, a)): a name holding one
        parameter's memory may share any other's."""
        mine = self.roots(stmt, name)
        params = any(r[0] == "param" for r in mine)
        found = [
            n
            for n, r in self.before[id(stmt)].roots.items()
            if n != name and (r & mine or (params and any(k[0] == "param" for k in r)))
        ]
        return sorted(found, key=lambda n: (n.startswith("_"), n))

    def live_sharers(self, stmt: gast.stmt, name: str, skip: tuple[str, ...] = ()) -> list[str]:
        """Sharers of `name` read after stmt (`name` itself counts unless skipped): what a
        write into name's memory would change. Where name certainly is an array (no list,
        tuple or dict), whose writes change values only, reads of a shape do not count
        (analyze.shape_reads)."""
        arrays = self.before[id(stmt)].arrays if id(stmt) in self.before else frozenset()
        table = self.valued if name in arrays else self.live
        live = table.get(id(stmt), frozenset())
        found = [n for n in [name, *self.sharers(stmt, name)] if n in live and n not in skip]
        return found if self.roots(stmt, name) else []

    def global_roots(self, stmt: gast.stmt, name: str) -> list[Root]:
        return sorted((r for r in self.roots(stmt, name) if r[0] == "global"), key=str)

    def params_of(self, stmt: gast.stmt, name: str) -> list[str]:
        roots = self.roots(stmt, name)
        return [p for p in self.params if ("param", p) in roots]

    def view(self, stmt: gast.stmt, name: str) -> View | None:
        return self.before[id(stmt)].views.get(name)

    def made_at(self, stmt: gast.stmt, name: str) -> gast.stmt | None:
        """The earliest statement that may have bound `name` before stmt, if any; one
        binding a value rather than a placeholder `name = None` where there is one (a
        gradient's differentiable form binds the names it saves so at its top)."""
        made = [self.statements[i] for i in self.before[id(stmt)].made.get(name, ())]
        made = [s for s in made if getattr(s, "lineno", None) is not None]
        made = [s for s in made if not _binds_none(s)] or made
        return min(made, key=lambda s: (s.lineno, s.col_offset)) if made else None


def analyze(
    fn: gast.FunctionDef,
    scope: Scope,
    registry: Registry,
    effects_of: Callable[[object], Effects | None],
    structured: frozenset[str] = frozenset(),
    reads: Callable[[gast.stmt], bool] | None = None,
    form: bool = False,
) -> Aliases:
    """`effects_of(callee)`: a user function's Effects, None when unknown (its result may
    share any argument's memory); `structured`: names that may hold lists, tuples or dicts
    (analyze.containers); `reads(stmt)`: whether stmt's reads count in `Memory.read`;
    `form`: fn is a function of a gradient's differentiable form, whose pops from its own
    stack chain return what the pushes of their variable saved (analyze/stack_entries)."""
    forward = _Forward(fn, scope, registry, effects_of, structured, reads)
    if form:
        forward.entries = StackEntries(fn, scope.resolve)
    params = nodes.all_param_names(fn)
    start = Memory(roots={p: frozenset({("param", p)}) for p in params})
    forward.block(fn.body, start)
    return Aliases(
        before=forward.before,
        live=liveness.live_after(fn),
        valued=liveness.live_after(fn, lambda stmt: shape_reads.shape_only(stmt, scope)),
        statements=forward.statements,
        params=tuple(params),
        locals=frozenset(forward.locals),
    )


class _Forward:
    """The forward may/must analysis; `before` fills as it runs."""

    def __init__(self, fn, scope, registry, effects_of, structured, reads) -> None:
        self.structured, self.reads = structured, reads
        self.statements: dict[int, gast.stmt] = {}
        self.locals = set(nodes.all_param_names(fn))
        for node in walk(fn):
            if isinstance(node, gast.stmt):
                self.statements[id(node)] = node
            elif isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param)):
                self.locals.add(node.id)
        self.number = {k: n for n, k in enumerate(self.statements)}
        self.values = Values(scope, registry, effects_of, self.locals)
        self.before: dict[int, Memory] = {}
        self.entries: StackEntries | None = None

    # -- statements ---------------------------------------------------------------
    def block(self, stmts: list[gast.stmt], m: Memory) -> Memory:
        for stmt in stmts:
            m = self.stmt(stmt, m)
        return m

    def stmt(self, stmt: gast.stmt, m: Memory) -> Memory:
        if isinstance(stmt, gast.If):
            return self.block(stmt.body, m).join(self.block(stmt.orelse, m))
        if isinstance(stmt, (gast.For, gast.While)):
            head, rounds = m, 0
            while True:
                inside = head
                if isinstance(stmt, gast.For):  # the position: an integer
                    inside = self.bind(
                        head, stmt.target.id, NONE, stmt, integer=True, array=True, floats=False
                    )
                rounds += 1  # names first bound in the loop keep their facts while that settles,
                # and "same" views (`e = y[i]` or a new e, from the round before) a bit longer
                joined = m.join(self.block(stmt.body, inside), rounds <= 3, rounds <= 8)
                if joined == head:
                    return head
                head = joined
        self.before[id(stmt)] = m
        if self.reads is not None and self.reads(stmt):
            read = set().union(*(m.roots.get(n, NONE) for n in liveness.reads(stmt)))
            m = replace(m, read=m.read | read)
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            value, values = stmt.value, self.values
            name = stmt.targets[0].id
            new = self.bind(
                m,
                name,
                self.popped(stmt, m, values.value_roots(value, m, self.fresh(stmt))),
                stmt,
                integer=values.is_int(value, m),
                array=values.is_array(value, m),
                floats=values.is_float(value, m),
                range_=values.is_range(value),
            )
            view = values.view(value, m, stmt)
            if view is not None and name not in (view.base, *view.reads):
                new = replace(new, views={**new.views, name: view})
            return self.pushed(self.tuple_items(new, name, value, m, stmt), stmt, m)
        if nodes.is_item_write(stmt):
            y = nodes.assigned_name(stmt)
            if y in self.structured and y not in m.arrays:  # a list or dict holds the value
                return self.grow(m, y, self.values.value_roots(stmt.value, m, self.fresh(stmt)))
            return m
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            z, value = stmt.target.id, stmt.value
            more = self.fresh(stmt)
            if isinstance(stmt.op, (gast.Add, gast.Mult)) and z not in m.arrays:
                more |= self.values.value_roots(value, m, more)  # `xs += ys` extends xs
            integer = z in m.ints and self.values.int_op(stmt.op, value, m)
            ints = m.ints if integer else m.ints - {z}
            grown = replace(self.grow(m, z, more), ints=ints, ranges=m.ranges - {z})
            return self.killed(grown, z, keep_own=True, in_place=True)
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            call = stmt.value
            if isinstance(call.func, gast.Attribute) and isinstance(call.func.value, gast.Name):
                xs = call.func.value.id  # xs.append(v), xs.extend(ys): xs holds them now
                if xs in self.locals:
                    return self.grow(m, xs, self.values.atoms_roots(call.args, m))
        return m

    def popped(self, stmt: gast.stmt, m: Memory, roots: Roots) -> Roots:
        """What a pop from a form's own stack chain may return: what the pushes of its
        variable saved (analyze/stack_entries.py), not anything the chain holds."""
        key = self.entries.popped(stmt) if self.entries is not None else None
        return roots if key is None else m.roots.get(key, NONE)

    def pushed(self, m: Memory, stmt: gast.stmt, before: Memory) -> Memory:
        """A push on a form's own stack chain: its value's roots (before it) added under
        the keys of the variables a pop may return it to (analyze/stack_entries.py)."""
        keys = self.entries.pushed(stmt) if self.entries is not None else []
        if not keys:
            return m
        value = self.values.name_roots(stmt.value.elts[0], before)
        return replace(m, roots={**m.roots, **{k: m.roots.get(k, NONE) | value for k in keys}})

    def bind(self, m, name, roots, stmt, *, integer, array, floats, range_=False) -> Memory:
        m = self.killed(m, name, keep_own=False)
        return replace(
            m,
            roots={**m.roots, name: roots},
            items={n: i for n, i in m.items.items() if n != name},
            ints=m.ints | {name} if integer else m.ints - {name},
            ranges=m.ranges | {name} if range_ else m.ranges - {name},
            arrays=m.arrays | {name} if array or floats else m.arrays - {name},
            floats=m.floats | {name} if floats else m.floats - {name},
            made={**m.made, name: frozenset({id(stmt)})},
        )

    def grow(self, m: Memory, name: str, more: Roots) -> Memory:
        items = {n: i for n, i in m.items.items() if n != name}
        return replace(m, roots={**m.roots, name: m.roots.get(name, NONE) | more}, items=items)

    def tuple_items(
        self, new: Memory, name: str, value: gast.expr, m: Memory, stmt: gast.stmt
    ) -> Memory:
        """`name = value` with the facts of analyze.tuple_items: a tuple of atoms, a name
        holding one, a user function's returned tuple, or one of their items; a user
        function's result that its Effects say is an array is one."""
        values = self.values
        held: tuple_items.Items | None = None
        if isinstance(value, gast.Tuple):
            held = tuple_items.literal(
                value, lambda e: values.name_roots(e, m), lambda e: values.is_array(e, m)
            )
        elif isinstance(value, gast.Name):
            held = m.items.get(value.id)
        elif isinstance(value, gast.Constant) and value.value is None:
            held = ()  # no item can be read from it
        elif isinstance(value, gast.Call):
            effects = self.user_effects(value)
            returned = effects.items if effects is not None else ()
            if effects is not None and effects.array:  # `v = h(x)`: certainly an array
                new = replace(new, arrays=new.arrays | {name})
            if returned:
                whole = new.roots[name]
                held = tuple_items.from_call(returned, whole, self.number[id(stmt)])
                own = [i.roots for i, r in zip(held, returned, strict=True) if r.own]
                new = replace(new, roots={**new.roots, name: whole.union(*own)})
        item = tuple_items.index(value, m.items)
        if item is not None:  # `s = _t[k]`: item k only
            arrays = new.arrays | {name} if item.array else new.arrays
            return replace(new, roots={**new.roots, name: item.roots}, arrays=arrays)
        return new if held is None else replace(new, items={**new.items, name: held})

    def user_effects(self, call: gast.Call) -> Effects | None:
        """The callee's Effects, for a plain call of a user function."""
        values = self.values
        callee = values.scope.resolve(call.func)
        if not user_function(callee, values.registry) or hides_arguments(call):
            return None
        return values.effects_of(callee)

    @staticmethod
    def killed(m: Memory, name: str, keep_own: bool, in_place: bool = False) -> Memory:
        """Drop the view facts `name` being rebound breaks. `in_place`: `name op= v`, which
        keeps the views of name by index (`w = name[1:3]`, "index"; `w = name[0]`,
        "item"): name then is an array of one or more axes, which the update changes in
        place, so w still is name[1:3] (transform.in_place lowers it so, or makes w
        again from name); an item that is a number, not a view, is asked at run time.
        It keeps the views that may be copies too (`w = np.reshape(name, s)`, its
        transpose, `name[None]`): where name is an array the update leaves w what it was
        (a view or a copy), where it is a number w is a copy; transform.view_updates asks
        at run time which (runtime.same_memory) before it makes w again.
        An alias of name (`w = name`) is name's object: where name itself is a view
        (`name = y[1:3]`), w keeps that view when name is rebound (`_pushed1 = z1`
        before `z1 = y[1:3]` again, higher/form_pairs.py)."""
        own = m.views.get(name)
        views = {
            n: v
            for n, v in m.views.items()
            if (n != name or keep_own)
            and (v.base != name or (in_place and v.kind in _KEPT_BY_UPDATES))
            and name not in v.reads
        }
        if own is not None and not in_place:
            views.update(
                (n, own)
                for n, v in m.views.items()
                if n != name
                and v.base == name
                and v.kind == "alias"
                and n != own.base
                and n not in own.reads
            )
        return replace(m, views=views) if views != m.views else m

    # -- values -----------------------------------------------------------------------
    def fresh(self, stmt: gast.stmt) -> Roots:
        """The memory a value `stmt` makes is, when it is new."""
        return frozenset({("new", self.number[id(stmt)])})


def _binds_none(stmt: gast.stmt) -> bool:
    """`name = None`."""
    value = getattr(stmt, "value", None)
    return (
        isinstance(stmt, gast.Assign) and isinstance(value, gast.Constant) and value.value is None
    )
