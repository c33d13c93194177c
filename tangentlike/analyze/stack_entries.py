"""What a pop from a gradient's stack chain may return, variable by variable (for
analyze/aliases.py, at second order).

A generated gradient saves a variable before rebinding it and restores it after its
adjoint: `push(v)` ... `v = pop()` (transform/assemble.py pushes the name a site
overwrites; its restore pops into that name; debug mode checks the pairing by site
labels). In the differentiable form (higher/forms.py) and its A-normal form:

    _stack = None                       the function's own chain
    _stack1 = (v, _stack)               a push of the variable v
    _stack = _stack1
    v = _stack[0]                       a pop into v, or through a temporary:
    _v5 = _stack[0]                         `v = popped_array(_v5, '...')`
    v = popped_array(_v5, '...')            (higher/form_pops.py; popped_list and
                                            popped_dict, higher/form_items.py)

Read through the chain, a popped value may be anything the chain holds: an argument's
array pushed for another variable makes every popped array a possible view of that
argument. Here a pop into v may return only what a push of v saved: the generated code
restores each site's push where it pops (a name pushed is popped into that name, a
region an item write overwrote, `push(np.copy(v[0:2]))`, into that region), in the
order the sweeps keep; entries a push marks `pushed` (higher/form_pairs.py) are read
back through the names they are saved under. A pop of anything else (into a region, a
tuple of names, a list's copy) reads the whole chain, as before. A push of
`shape_kept(v)` (higher/form_shapes.py, through a temporary) is one of v that adds
nothing. The pushes of v in the function are gathered under the key `_stack[v]` of the
memory's roots (a name no code binds), which grows at each push and which the pop reads.

Assumes: `fn` is a function of a gradient's differentiable form, in A-normal form; its
chain is its own (`S = None` at its top level, S named `_stack...` and no parameter):
entries a callee pushes (a split variant threaded through the chain) are popped by the
callee's own backward part, never by this function's pops. Guarantees: `popped(stmt)`
is the key of the pushes a recognised pop may return, else None (the pop reads the
whole chain, as any other read); `pushed(stmt)` the keys a push adds its value to.
"""

from __future__ import annotations

import gast

from ..runtime import forms as runtime_forms
from ..syntax import nodes
from ..syntax.nodes import walk

PREFIX = "_stack"
# checks of a popped value that return it as it is (higher/form_pops.py, form_items.py)
_CHECKS = (runtime_forms.popped_array, runtime_forms.popped_list, runtime_forms.popped_dict)


def key(chain: str, name: str) -> str:
    """The roots' key of the values pushed for `name` on `chain` (no code binds it)."""
    return f"{chain}[{name}]"


class StackEntries:
    """The pushes and pops of a form function's own chains (nothing for other code)."""

    def __init__(self, fn: gast.FunctionDef, resolve) -> None:
        params = set(nodes.all_param_names(fn))
        self.chains = {
            s.targets[0].id
            for s in fn.body
            if isinstance(s, gast.Assign)
            and len(s.targets) == 1
            and isinstance(s.targets[0], gast.Name)
            and s.targets[0].id.startswith(PREFIX)
            and s.targets[0].id not in params
            and isinstance(s.value, gast.Constant)
            and s.value.value is None
        }
        self.variables: dict[str, set[str]] = {c: set() for c in self.chains}
        stand_ins = _stand_ins(fn, resolve)
        for node in walk(fn):
            entry = self._entry(node)
            if entry is not None and isinstance(entry[1], gast.Name):
                chain, value = entry
                if not value.id.startswith(PREFIX):  # a temporary of an expression pushed
                    self.variables[chain].add(value.id)
                elif value.id in stand_ins:  # pushed for v, sharing nothing (below)
                    self.variables[chain].add(stand_ins[value.id])
        self.pops: dict[int, tuple[str, str]] = {}  # id(pop) -> (chain, variable)
        for stmts in _statement_lists(fn):
            for k, stmt in enumerate(stmts):
                found = self._pop(stmt, stmts[k + 1] if k + 1 < len(stmts) else None, resolve)
                if found is not None:
                    self.pops[id(stmt)] = found

    def pushed(self, stmt: gast.stmt) -> list[str]:
        """The keys `T = (E, S)` adds E's roots to: E's own where E is a variable pushed;
        none where E is a value of an item write's restore (`np.copy(v[0:2])`, popped
        into `v[0:2]`, never into a name), a tuple of a split variant (popped into a
        tuple of names, through a temporary), or a constant (None: no memory)."""
        entry = self._entry(stmt) if isinstance(stmt, gast.Assign) else None
        if entry is None:
            return []
        chain, value = entry
        if isinstance(value, gast.Name) and value.id in self.variables[chain]:
            return [key(chain, value.id)]
        return []

    def popped(self, stmt: gast.stmt) -> str | None:
        found = self.pops.get(id(stmt))
        return key(*found) if found is not None else None

    def restored(self, stmt: gast.stmt) -> str | None:
        """The variable a recognised pop restores a value of (its pushes' name), else None."""
        found = self.pops.get(id(stmt))
        return found[1] if found is not None else None

    def _entry(self, node: gast.AST) -> tuple[str, gast.expr] | None:
        """(S, E) for `T = (E, S)`, S one of the chains."""
        if not (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and isinstance(node.value, gast.Tuple)
            and len(node.value.elts) == 2
        ):
            return None
        head, tail = node.value.elts
        if isinstance(tail, gast.Name) and tail.id in self.chains:
            return tail.id, head
        return None

    def _pop(self, stmt: gast.stmt, after: gast.stmt | None, resolve) -> tuple[str, str] | None:
        """(S, X) for `X = S[0]` (X a variable pushed on S), or for `T = S[0]` followed
        by `X = popped_array(T, ...)` (or popped_list, popped_dict)."""
        if not (
            isinstance(stmt, gast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Subscript)
            and isinstance(stmt.value.value, gast.Name)
            and stmt.value.value.id in self.chains
            and isinstance(stmt.value.slice, gast.Constant)
            and stmt.value.slice.value == 0
        ):
            return None
        chain, target = stmt.value.value.id, stmt.targets[0].id
        if target in self.variables[chain]:
            return chain, target
        if (
            isinstance(after, gast.Assign)
            and len(after.targets) == 1
            and isinstance(after.targets[0], gast.Name)
            and after.targets[0].id in self.variables[chain]
            and isinstance(after.value, gast.Call)
            and after.value.args
            and isinstance(after.value.args[0], gast.Name)
            and after.value.args[0].id == target
            and resolve(after.value.func) in _CHECKS
        ):
            return chain, after.targets[0].id
        return None


def _stand_ins(fn: gast.FunctionDef, resolve) -> dict[str, str]:
    """T -> v for each `T = shape_kept(v)` (T a temporary of the chain): a push of T is
    one of v, whose value shares no memory (higher/form_shapes.py), so it adds no roots
    to what a pop of v may return, and a pop of v still reads only v's pushes."""
    found: dict[str, str] = {}
    for node in walk(fn):
        if (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and node.targets[0].id.startswith(PREFIX)
            and isinstance(node.value, gast.Call)
            and len(node.value.args) == 1
            and isinstance(node.value.args[0], gast.Name)
            and resolve(node.value.func) is runtime_forms.shape_kept
        ):
            found[node.targets[0].id] = node.value.args[0].id
    return found


def _statement_lists(fn: gast.FunctionDef):
    yield fn.body
    for node in walk(fn):
        if node is fn:
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                yield block
