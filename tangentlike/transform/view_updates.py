"""Lower an in-place update of a view of a local array into writes the gradient follows.

`z op= v`, where z is a view of the local array b (analyze.aliases: `b[index]`,
a row `b[i]`, b itself, `np.transpose(b)`, `np.reshape(b, s)`, `np.ravel(b)`),
changes b and every other view of b. It becomes

    _z1 = z op v                     # the new value of z
    _shares = same_memory(z, b)      # for views that may be copies or numbers (not b[1:3])
    if _shares:
        b[...] = <_z1 back in b's shape>   # b[index] = _z1 for b[index], b[i]
        z = <z's value, made again from b>
    else:
        z = _z1                      # z was a copy or a number: it alone changes
    w = <w's value made again>       # every other view of b read afterwards (asked at
                                     # run time for one that may be a copy: if it shares)

Where b is itself a view of c (`b = c[1:3]`, a row `c[i]`, `b = c`, and so up a
chain) and c, or another view of c, is read afterwards, the update goes up the
chain: `_b1 = copy(b); _b1[index] = _z1; c[1:3] = _b1`, then b and z made again
from c, top down (only the top is written; b's copy has no other name). Links
above the first are index views, rows and aliases: once z shares b, b is an array
and these certainly share c.

which is the program's meaning when b's memory is the function's own (made by
a statement: never an argument's or a global's) and every name read afterwards
that may share it is z, b, or a view (certain or asked at run time, like z) of b
or of such a view; and, inside a checkpointed loop, each view was made in the
loop's step (a view made before it, restored from the stored state, would no
longer be one). The write into b is an item write into an array the function
owns, which both modes differentiate.

Assumes: the Aliases of the function before the update; A-normal form.
Guarantees: the statements are A-normal form; `remade` returns None (nothing
lowered) when the conditions above do not hold.
"""

from __future__ import annotations

from collections.abc import Callable

import gast
import numpy as np

from .. import runtime
from ..analyze.aliases import Aliases, View
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk

# Above the updated view, the links that certainly share memory once the view does (b is
# then an array: `c[i]` a row of c, `c` itself), so that no run-time test is needed there;
# "same" links (c itself on one path only) and views that may be copies (a reshape, a
# transpose, a new axis of c) are asked at run time (transform.view_updates.upwards).
_CERTAIN_ABOVE = ("index", "item", "alias")
_ASKED_ABOVE = ("same", "reshape", "transpose", "expand")
# Views written back by their index (the others by their base's shape: `b[...] = ...`).
_BY_INDEX = ("index", "item", "expand")


def into_array(write: gast.Assign) -> gast.Assign:
    """Mark `b[...] = v` into the array b a view was made of (analyze.memory makes views
    of arrays only; the write runs where `same_memory`/`same_array` hold, true of arrays
    only, or for a sure view): transform.container_checks lets it write into b."""
    write.into_array = True
    return write


def _asked(view: View | None, maybe: bool = False) -> bool:
    """Whether a name read afterwards that may share the written memory, but is not made
    again from it, can be asked at run time to share none of it (runtime.untouched): no
    view, or a "same" view (its base itself on one path, something else on another:
    `e = y[i]` there, a row or a number, and `e = t` here) whose base is not the written
    array's; a certain view of something else refuses (it would share for certain), but
    where the update is of a "maybe" view (`maybe`: its base may be no array, whose
    sharing with anything is known only at run time)."""
    return view is None or view.kind == "same" or maybe


def keys_of(names: list[str], keyed: dict[str, tuple]) -> gast.Tuple:
    """For runtime.untouched and runtime.unshared: the keys each name is read at (None:
    read whole)."""
    keys = [nodes.tuple_([nodes.const(k) for k in keyed[n]]) if n in keyed else None for n in names]
    return nodes.tuple_([nodes.const(None) if k is None else k for k in keys])


def _made_from(order: list[tuple[str, View]], names: tuple[str, ...]) -> set[str]:
    """The names of `order` (bases first) made again from one of `names`, or from such a
    name: views of them, whose memory is theirs."""
    found = set(names)
    for name, w in order:
        if w.base in found:
            found.add(name)
    return found - set(names)


class ViewUpdates:
    def __init__(
        self,
        namespace: Namespace,
        namer: Namer,
        aliases: Aliases,
        stmt: gast.stmt,
        loops: dict[int, frozenset[int]] | None = None,
        what: str = "",
        labels: Callable[[list[str]], str] | None = None,
        own_param: Callable[[str], str | None] | None = None,
        keyed: dict[str, tuple] | None = None,
    ) -> None:
        """`loops`: id(statement) -> the checkpointed loops around it; `what`: the update's
        place and text, for run-time refusals (`m.py:7: `z += 1.0``); `labels`: the words
        for names in those refusals (`'s' and the value of ...`); `own_param`: the parameter
        whose own copy a name is (`_y_own1` -> 'y'), else None; `keyed`: the names read
        only at constant keys (analyze.keyed), which the run-time checks look at there."""
        self.namespace, self.namer, self.aliases, self.stmt = namespace, namer, aliases, stmt
        self.loops = loops or {}
        self.what = what
        self.labels = labels or (lambda names: ", ".join(map(repr, names)))
        self.own_param = own_param or (lambda name: None)
        self.keyed = keyed or {}
        self.unseen: list[str] = []  # names read afterwards asked at run time to share nothing

    def made_outside(self, view: View) -> bool:
        """Whether a checkpointed loop around the update does not hold where the view was
        made: its steps, recomputed from stored state, would find the name (saved as it
        was) no view of the restored base."""
        around = self.loops.get(id(self.stmt), frozenset())
        return not around <= self.loops.get(id(view.stmt), frozenset())

    def remade(self, z: str, view: View) -> list[tuple[str, View]] | None:
        """The other views to make again after the update, bases first; None when the
        update cannot be lowered so. Where a name read afterwards shares b only through
        b's own base (b a view of c: `b = c[1:3]`, `z = b`), the update is written back
        up that chain as far as needed (`self.ups`: (b, c's view b), ... in order)."""
        a, stmt = self.aliases, self.stmt
        self.ups: list[tuple[str, View]] = []
        self.maybe = view.maybe  # z may be no view of base: asked (runtime.part_of)
        if self.made_outside(view):
            return None
        top = view.base
        while True:
            bases = [view.base, *(w.base for _, w in self.ups)]
            order = self._remade_from(z, bases)
            if order is not None:
                return order
            w = a.view(stmt, top)
            if (
                w is None
                or w.maybe
                or view.maybe  # written into its own base only (a copy of it, transform.write)
                or top in w.reads
                or self.made_outside(w)
                or len(self.ups) > 8
                or w.base in (z, *(n for n, _ in self.ups))
                or w.kind not in (*_CERTAIN_ABOVE, *_ASKED_ABOVE)
            ):  # the top: names read afterwards that may share it otherwise are asked
                return self._remade_from(z, bases, lenient=True)
            self.ups.append((top, w))
            top = w.base

    def _remade_from(
        self, z: str, bases: list[str], lenient: bool = False
    ) -> list[tuple[str, View]] | None:
        """The views to make again when the update reaches every name of `bases`.
        `lenient`: a name read afterwards that may share them but is no view of them
        (a tuple's item, a dict, a value of unknown making) goes into `self.unseen`, to
        be asked at run time to share none of z's memory (then the update leaves it
        alone), instead of making the update impossible."""
        a, stmt = self.aliases, self.stmt
        self.unseen = []
        if lenient and bases[-1] not in a.before[id(stmt)].arrays and not self.maybe:
            return None  # perhaps a list: written by item, it would be refused as one
        roots = a.roots(stmt, bases[-1])
        if not roots or any(r[0] != "new" for r in roots):
            return None  # an argument's or a global's memory (or unknown)
        sharers = set(a.live_sharers(stmt, z))
        for b in bases:
            sharers |= set(a.live_sharers(stmt, b))
        known, order = {z, *bases}, []
        for n in sorted(sharers - known):
            path = self.chain(n, known)
            if path is None and lenient and _asked(a.view(stmt, n), self.maybe):
                self.unseen.append(n)
                continue
            if path is None:
                return None  # a name read afterwards shares b some other way
            for name, w in path:
                order.append((name, w))
                known.add(name)
        return order

    def remade_from_base(self, y: str, update: bool = False) -> list[tuple[str, View]] | None:
        """For a write into y itself (`y[index] = v`, `y op= v` when `update`): the views
        of y read afterwards, to make again after it; None when a name read afterwards
        shares y's memory otherwise (and is a view of something: the others are asked at
        run time, `self.unseen`), or the memory is not the function's own, or y may be no
        array and `update` (its `y[...] = ...` would be refused as a list's item write)."""
        self.ups, self.maybe = [], False
        if update and y not in self.aliases.before[id(self.stmt)].arrays:
            return None
        order = self._remade_from(y, [y])
        if order is None:
            order = self._remade_from(y, [y], lenient=True)
            if not order and update:  # nothing to make again: `unshared(y, ...)` and
                return None  # the update out of place say the same (transform.in_place)
        return order

    def lowered_base(self, y: str, update: list[gast.stmt], new: str | None, order):
        """`update` written into y: an item write into y (new None), or statements binding
        `new`, y's new value after `y op= v`, which goes into y where y is an array (a
        number changes alone); then the views of y in `order` made again."""
        out, tests, kept = self.asked(order, y, (y,))
        out = [*self.untouched(y, (y,)), *out]
        if new is None:
            out += update
        else:
            test = self.namer.temp("array")
            helper = self.helper("same_memory", runtime.same_memory)
            out.insert(0, nodes.assign(test, nodes.call(helper, [nodes.name(y), nodes.name(y)])))
            everything = nodes.const(Ellipsis)
            into = gast.Subscript(value=nodes.name(y), slice=everything, ctx=gast.Store())
            written = [into_array(nodes.assign(into, nodes.name(new)))]  # test: y is one
            out += update
            out.append(nodes.if_(nodes.name(test), written, [nodes.assign(y, nodes.name(new))]))
        return self.checked(self.marked(out + self.again(order, tests, kept)))

    def chain(self, name: str, known: set[str]) -> list[tuple[str, View]] | None:
        """The views to make again, bases first, to make `name` again from known names
        (through temporaries no longer read: `s = A[0][-2]` is `_s1 = A[0]; s = _s1[-2]`)."""
        path: list[tuple[str, View]] = []
        while name not in known:
            w = self.aliases.view(self.stmt, name)
            if w is None or name in w.reads or self.made_outside(w) or len(path) > 8:
                return None
            path.append((name, w))
            name = w.base
        return path[::-1]

    def lowered(self, z: str, view: View, update, new: str, order, alone=None) -> list[gast.stmt]:
        """The statements above; `update` binds `new`, the new value of z; `alone`: what
        runs instead of `z = new` where z changes alone (the item write into z itself)."""
        self.alone = alone
        written = (z, view.base, *(w.base for _, w in self.ups))  # z, b, c, ... up the chain
        out, tests, kept = self.asked([(z, view), *order], z, written)
        # a "maybe" view's base is written as a copy, which the base is then: the names
        # asked must share none of the base (not only z's part), or they would go on
        # sharing the old memory, which later updates no longer change
        out = [*self.untouched(view.base if view.maybe else z, written[1:]), *out]
        self.up_tests = {}
        for k, (name, w) in enumerate(self.ups):  # whether a link on one path only is its base
            if w.kind == "same":  # (not: it is the top, so it shares nothing above nor kept
                below = _made_from(order, written[: k + 2])  # but what is made again from it)
                apart = (*written[k + 3 :], *(n for n, _ in order if n not in below))
                self.up_tests[name] = self.namer.temp("same")
                out.append(nodes.assign(self.up_tests[name], self.same_test(name, w, apart)))
            elif w.kind in _ASKED_ABOVE:  # a view of its base, or a copy made of it (then the
                self.up_tests[name] = self.namer.temp("shares")  # top: it shares nothing)
                helper = self.helper("same_memory", runtime.same_memory)
                call = nodes.call(helper, [nodes.name(name), nodes.name(w.base)])
                out.append(nodes.assign(self.up_tests[name], call))
        out += update
        if self.ups:
            out += self.write_through(z, view, new, tests.get(z))
        else:
            out += self.write(z, view, new, tests.get(z))
        return self.checked(self.marked(out + self.again(order, tests, kept)))

    def marked(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        """The item writes among stmts marked with the names `untouched` asks about
        (`write.untouched`), which transform.plan then lets share the written array."""
        if self.unseen:
            for node in walk(gast.Module(body=stmts, type_ignores=[])):
                if nodes.is_item_write(node):
                    node.untouched = frozenset(self.unseen) | getattr(node, "untouched", set())
        return stmts

    def checked(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        """stmts after `array_base(b, "<message>")` for each base b of a write marked
        `into_array` that may be a list, tuple or dict: the write runs only where b is an
        array, and the other branch (the view changes alone) is right only where b is an
        array or a number, not a container holding the view's array (runtime.array_base
        raises there)."""
        memory = self.aliases.before.get(id(self.stmt))
        arrays = memory.arrays if memory is not None else frozenset()
        bases = []
        for node in walk(gast.Module(body=stmts, type_ignores=[])):
            if nodes.is_item_write(node) and getattr(node, "into_array", False):
                base = nodes.assigned_name(node)
                if base not in arrays and base not in bases:
                    bases.append(base)
        helper = self.helper("array_base", runtime.array_base) if bases else None
        checks = [
            nodes.expr_stmt(
                nodes.call(
                    helper, [nodes.name(b), nodes.const(f"{self.what} changes {self.labels([b])}")]
                )
            )
            for b in bases
        ]
        return [*checks, *stmts]

    def asked(self, views: list[tuple[str, View]], z: str, written: tuple[str, ...]):
        """Before anything changes: whether each view that may be a copy shares its base,
        and (but for z) its value, kept apart should it be a copy the write leaves alone.
        `written`: z and the bases the update may be written into. A "same" view that is
        not its base must share none of them (it is kept as it was), and z none of the
        bases above its own nor any name kept or made again but from z (z then changes
        alone, and its views are made again from it)."""
        mine = _made_from(views, (z,))
        others = tuple(n for n, _ in views if n != z and n not in mine)
        tests: dict[str, str] = {}
        kept: dict[str, str] = {}
        out: list[gast.stmt] = []
        for name, w in views:
            if w.kind == "index" and not w.maybe:
                continue
            tests[name] = self.namer.temp("shares")
            if w.maybe:  # a view of base, or sharing nothing of it
                call = self.part_test(name, w, z)
            elif w.kind == "same":  # base itself, or nothing of it nor of what changes
                if name == z:
                    apart = (*(n for n in written if n not in (z, w.base)), *others)
                else:
                    apart = tuple(n for n in written if n != w.base)
                call = self.same_test(name, w, apart)
            else:
                helper = self.helper("same_memory", runtime.same_memory)
                call = nodes.call(helper, [nodes.name(name), nodes.name(w.base)])
            out.append(nodes.assign(tests[name], call))
            if name != z:
                kept[name] = self.namer.temp(name)
                helper = self.helper("kept_apart", runtime.kept_apart)
                apart = nodes.call(helper, [nodes.name(name), nodes.name(tests[name])])
                out.append(nodes.assign(kept[name], apart))
        return out, tests, kept

    def untouched(self, z: str, bases: tuple[str, ...]) -> list[gast.stmt]:
        """`untouched(z, (s, ...), "<message>", (b, ...))`: the names in `self.unseen`
        share none of z's memory, which the update changes (raises where one does); b:
        the arrays it may be written into (forward mode asks about their tangents)."""
        if not self.unseen:
            return []
        shown = self.labels(self.unseen)  # user names first, temporaries only without them
        many = " and " in shown
        what = (
            f"{self.what} changes {self.labels([z])} in place, and "
            f"{shown} (read afterwards) {'share' if many else 'shares'} its memory"
        )
        helper = self.helper("untouched", runtime.untouched)
        others = nodes.tuple_([nodes.name(n) for n in self.unseen])
        written = nodes.tuple_([nodes.name(b) for b in bases])
        args = [nodes.name(z), others, nodes.const(what), written]
        if any(n in self.keyed for n in self.unseen):
            args.append(keys_of(self.unseen, self.keyed))
        return [nodes.expr_stmt(nodes.call(helper, args))]

    def part_test(self, name: str, w: View, z: str) -> gast.expr:
        """`part_of(name, base, "<message>")`: name is a view of base, or shares none of it
        (base perhaps no array: a tuple's item, a dict's value, a helper's result)."""
        base, read = self.labels([w.base]), "" if name == z else " (read afterwards)"
        what = (
            f"{self.what} changes {self.labels([z])} in place: {self.labels([name])}{read}, "
            f"made from {base}, shares memory with {base} without being a view of it (it "
            "holds the arrays a list or an object holds)"
        )
        helper = self.helper("part_of", runtime.part_of)
        return nodes.call(helper, [nodes.name(name), nodes.name(w.base), nodes.const(what)])

    def same_test(self, name: str, w: View, apart: tuple[str, ...] = ()) -> gast.expr:
        """`same_array(name, base, "<message>", (z, ...))`: name is base, or holds none of
        it nor of the names `apart` (those the update changes where name is not base: a
        name kept as it was must not share them)."""
        param = self.own_param(w.base)
        base = f"the array passed as {param!r}" if param else f"{w.base!r} itself"
        what = (
            f"{self.what} changes memory that {self.labels([name])} (read afterwards) shares, "
            f"and {self.labels([name])} is not {base} (whose update the gradient follows)"
        )
        helper = self.helper("same_array", runtime.same_array)
        args = [nodes.name(name), nodes.name(w.base), nodes.const(what)]
        if apart:
            args.append(nodes.tuple_([nodes.name(n) for n in apart]))
        return nodes.call(helper, args)

    def again(self, order, tests: dict[str, str], kept: dict[str, str]) -> list[gast.stmt]:
        """The views read afterwards made again, bases first."""
        out: list[gast.stmt] = []
        for name, w in order:
            again = nodes.assign(name, nodes.deepcopy(w.value))
            if name in tests:
                unchanged = nodes.assign(name, nodes.name(kept[name]))
                again = nodes.if_(nodes.name(tests[name]), [again], [unchanged])
            out.append(again)
        return out

    def write_through(self, z: str, view: View, new: str, test: str | None) -> list[gast.stmt]:
        """z's new value put in place in b (a copy of b: `_b1 = copy(b); _b1[index] = new`),
        that in c, and so on up the chain; the top base written by index, then the chain's
        names made again from it, top down. Only the top is written: the copies have no
        other name, and every name sharing the top is made again afterwards."""
        body = self.upwards([(z, view), *self.ups], new, test is not None)
        if test is None:
            return body
        return [nodes.if_(nodes.name(test), body, [nodes.assign(z, nodes.name(new))])]

    def upwards(self, links: list[tuple[str, View]], value: str, array: bool) -> list[gast.stmt]:
        """`value`, the new value of links[0]'s name, written up the links into the top
        base, then the links' names made again top down. A "same" link above the first
        (b on one path only) forks on its run-time test: b is its base (go on up), or b
        holds none of it: b is the top, and every other name read afterwards that shares
        it is made again from it, so b is bound to its new value (`b = value`). `array`:
        whether links[0]'s base is certainly an array here (a run-time test on it holds);
        so is a base above it that is the same object (an "alias" link)."""
        body: list[gast.stmt] = []
        for k, (name, w) in enumerate(links):
            if k and w.kind in _ASKED_ABOVE:  # its test: w.base is an array, if it holds
                below = self.made_again(links[:k])
                alone = [nodes.assign(name, nodes.name(value)), *below]
                above = [*self.upwards(links[k:], value, True), *below]
                return [*body, nodes.if_(nodes.name(self.up_tests[name]), above, alone)]
            array = array and (k == 0 or w.kind == "alias")
            if k == len(links) - 1:
                top = self.write_into(w, value)
                if array:
                    into_array(top[-1])
                return [*body, *top, *self.made_again(links)]
            value = self.compose(value, w, body)
        return body

    @staticmethod
    def made_again(links: list[tuple[str, View]]) -> list[gast.stmt]:
        return [nodes.assign(name, nodes.deepcopy(w.value)) for name, w in reversed(links)]

    def compose(self, value: str, w: View, body: list[gast.stmt]) -> str:
        """The name of w's base with w's part replaced by `value` (statements into body)."""
        if w.kind == "alias":
            return value
        if w.kind in _BY_INDEX:
            copy = self.namer.temp(w.base)
            body.append(nodes.assign(copy, nodes.call(self.numpy("copy"), [nodes.name(w.base)])))
            into = gast.Subscript(
                value=nodes.name(copy), slice=nodes.deepcopy(w.index), ctx=gast.Store()
            )
            body.append(nodes.assign(into, nodes.name(value)))
            return copy
        shaping, shaped = self.shaped(value, w)
        body += shaping
        return shaped

    def write_into(self, w: View, value: str) -> list[gast.stmt]:
        """`base[index] = value` (`base[...] = <value in base's shape>`)."""
        body, shaped = ([], value) if w.kind in _BY_INDEX else self.shaped(value, w)
        where = nodes.deepcopy(w.index) if w.kind in _BY_INDEX else nodes.const(Ellipsis)
        into = gast.Subscript(value=nodes.name(w.base), slice=where, ctx=gast.Store())
        return [*body, nodes.assign(into, nodes.name(shaped))]

    def shaped(self, new: str, view: View) -> tuple[list[gast.stmt], str]:
        """The statements putting `new` (the view's value) in the shape of its base."""
        b = view.base
        body: list[gast.stmt] = []
        value = new
        if view.kind == "transpose":
            value = self.namer.temp(b)
            body.append(nodes.assign(value, nodes.call(self.numpy("transpose"), [nodes.name(new)])))
        elif view.kind == "reshape":
            value, shape = self.namer.temp(b), self.namer.temp("shape")
            body.append(nodes.assign(shape, nodes.call(self.numpy("shape"), [nodes.name(b)])))
            reshaped = nodes.call(self.numpy("reshape"), [nodes.name(new), nodes.name(shape)])
            body.append(nodes.assign(value, reshaped))
        return body, value

    def write(self, z: str, view: View, new: str, test: str | None) -> list[gast.stmt]:
        b = view.base
        again = nodes.assign(z, nodes.deepcopy(view.value))
        if view.kind == "index" and not view.maybe:
            target = gast.Subscript(
                value=nodes.name(b), slice=nodes.deepcopy(view.index), ctx=gast.Store()
            )
            return [into_array(nodes.assign(target, nodes.name(new))), again]
        body, value = self.shaped(new, view)
        where = nodes.deepcopy(view.index) if view.kind in _BY_INDEX else nodes.const(Ellipsis)
        written = b
        if view.maybe:  # b perhaps no array where it is made (a list's checks would refuse
            written = self.namer.temp(b)  # the write): a copy written, which b then is
            body.append(nodes.assign(written, nodes.call(self.numpy("copy"), [nodes.name(b)])))
        into = gast.Subscript(value=nodes.name(written), slice=where, ctx=gast.Store())
        write = nodes.assign(into, nodes.name(value))  # into b (tested: an array) or a copy
        body.append(write if view.maybe else into_array(write))
        if view.maybe:
            body.append(nodes.assign(b, nodes.name(written)))
        body.append(again)
        alone = self.alone or [nodes.assign(z, nodes.name(new))]
        return [nodes.if_(nodes.name(test), body, alone)]

    def numpy(self, attr: str) -> gast.expr:
        return self.helper(attr, getattr(np, attr))

    def helper(self, preferred: str, obj: object) -> gast.expr:
        return nodes.name(self.namespace.bind(preferred, obj, self.namer))
