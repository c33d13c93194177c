"""Values pushed only to be read back for their shape: stand-ins on the chain of the
differentiable form.

A generated gradient pushes a name before rebinding it and pops it back in its backward
sweep, where it often reads the popped value only for its shape: `unbroadcast(g, z1)`,
`add_item(b, _seq1, i, g)` (a loop over an array's rows), `zeros_of(_seq1)`. Where the
pushed object is (a view of) an array the gradient writes into in place afterwards
(`_seq1 = iterable(A)`, `z1 = v5`, then `A[i] = ...`, `v5[...] = ...`), the chain holds
that array when it is written, and the second pass, which reads the chain as a value,
refuses the write (hvp fuzz seed 12 programs 69, 56). Where every pop of the name is
read only for its type, structure, shape and dtype until the name is bound again, the
form pushes `shape_kept(X)` instead (runtime/forms.py): for an array, zeros of its
shape and dtype that share no memory (a number's zero; a list, dict or other object as
it is, whose length or keys a change in place could alter). A write into an array
changes its values only, so every such read of a pop gives what it gave with the object
itself, and the chain no longer holds the array written.

Assumes: the form of a generated function after the stack rewrite and pops_paired (a
push `S = (X, S)`, a pop `X = S[0]; S = S[1]`, paired pops `X = _pushedN`), whose chain
S is its own (`S = None` opening it, no parameter): each pop returns what a push of the
same name saved (transform/sweep.py pairs a site's push and restore by the variable;
analyze/stack_entries.py relies on the same), and a pop paired by form_pairs checks the
key on top, so it raises rather than take a stand-in. Guarantees: a push of X is
rewritten only in a function that writes in place somewhere, where X has at least one
plain pop, is bound from the chain in no other way, is never written into (`X[...] = `,
`X op= `), and every read of X that a plain pop's value may reach (loops and branches
joined, conservatively) is a shape read (below); the values the function computes are
unchanged.
"""

from __future__ import annotations

import ast

import numpy as np

from .. import runtime
from ..syntax.nodes import walk
from .form_pairs import KEY, PREFIX

HELPER = "shape_kept"

# Calls that read the argument at these positions for its type, structure, shape and
# dtype only (the result is the same for shape_kept of it).
_SHAPE_READERS = {
    runtime.unbroadcast: (1,),
    runtime.spread: (1,),
    runtime.zeros_of: (0,),
    runtime.gradient_like: (1,),
    runtime.add_item: (1,),
    runtime.unsequence: (1,),
    runtime.unsubscript: (1,),
    runtime.unadd: (1, 2),
    runtime.unappend: (1,),
    runtime.unsum: (1,),
    # which view made again after a restore the name is (higher/form_views.py): 0 for a
    # stand-in, which is then left as it is, of the shape and dtype of the view it
    # stands for, where the view would be made again with that shape and dtype
    runtime.same_view: (0,),
    np.shape: (0,),
    np.ndim: (0,),
    np.size: (0,),
    np.zeros_like: (0,),
    np.ones_like: (0,),
}
_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})


def pushes_for_shape(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite fn's pushes of names read back for their shape only (module docstring)."""
    chain = _own_chain(fn)
    if chain is None or not _writes_in_place(fn):
        return  # no write in place: no entry of the chain changes (and no cost is added)
    pushes: dict[str, list[ast.Assign]] = {}
    pops: dict[str, set[int]] = {}
    other: set[str] = set()
    for node in walk(fn):
        if not isinstance(node, ast.Assign) or not _reads_name(node.value, chain):
            continue
        target = node.targets[0] if len(node.targets) == 1 else None
        if _is_push(node, chain):
            if isinstance(node.value.elts[0], ast.Name):
                pushes.setdefault(node.value.elts[0].id, []).append(node)
        elif isinstance(target, ast.Name) and _is_top(node.value, chain):
            pops.setdefault(target.id, set()).add(id(node))
        elif not (isinstance(target, ast.Name) and target.id == chain):
            other |= {n.id for t in node.targets for n in walk(t) if isinstance(n, ast.Name)}
    parents = {id(c): p for p in walk(fn) for c in ast.iter_child_nodes(p)}
    rewritten = False
    for name, sites in pushes.items():
        if (
            name.startswith((KEY, PREFIX, "_stack"))
            or name not in pops
            or name in other
            or _written_into(fn, name)
            or not _Reads(name, pops[name], parents, external).shape_only(fn.body)
        ):
            continue
        for push in sites:
            value = push.value.elts[0]
            push.value.elts[0] = ast.copy_location(
                ast.Call(func=ast.Name(HELPER, ast.Load()), args=[value], keywords=[]), value
            )
        rewritten = True
    if rewritten:
        external[HELPER] = runtime.shape_kept


class _Reads:
    """Whether every read of `name` that a plain pop's value may reach is a shape read:
    a forward pass over the statements with one fact, "name may hold a popped value"
    (None where no path reaches: after a raise, a return, a break or a continue)."""

    def __init__(self, name, pops, parents, external) -> None:
        self.name, self.pops, self.parents, self.external = name, pops, parents, external
        self.ok, self.seen = True, False  # seen: a popped value held anywhere in a loop

    def shape_only(self, body: list[ast.stmt]) -> bool:
        self.block(body, False)
        return self.ok

    def block(self, stmts: list[ast.stmt], popped: bool | None) -> bool | None:
        for stmt in stmts:
            if popped is None:
                return None
            popped = self.stmt(stmt, popped)
            self.seen |= bool(popped)
        return popped

    def stmt(self, stmt: ast.stmt, popped: bool) -> bool | None:
        if isinstance(stmt, ast.If):
            self.check(stmt.test, popped)
            return _join(self.block(stmt.body, popped), self.block(stmt.orelse, popped))
        if isinstance(stmt, (ast.For, ast.While)):
            head = self.loop(stmt, popped)
            return _join(self.block(stmt.orelse, head), head)
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
            self.check(stmt, popped)
            if any(isinstance(n, ast.Name) and n.id == self.name for n in _targets(stmt)):
                return id(stmt) in self.pops
            return popped
        if isinstance(stmt, (ast.Return, ast.Raise)):
            self.check(stmt, popped)
            return None
        if isinstance(stmt, (ast.Break, ast.Continue)):
            return None  # its state is in `seen`, which the loop's head and exit join
        if isinstance(stmt, ast.Pass):
            return popped
        self.ok = False  # anything else (try, with, a nested def): not followed
        return True

    def loop(self, loop: ast.For | ast.While, popped: bool) -> bool:
        """The state at the loop's head, and where it ends: the state before it joined
        with every state inside (a next round, a continue, a break)."""
        outer, head = self.seen, popped
        while True:
            self.seen = head
            self.check(loop.iter if isinstance(loop, ast.For) else loop.test, head)
            start = head
            if isinstance(loop, ast.For) and any(
                isinstance(n, ast.Name) and n.id == self.name for n in walk(loop.target)
            ):
                start = False
            end = self.block(loop.body, start)
            inside = self.seen or bool(end)
            if not inside or head:
                break
            head = True
        self.seen = outer or head or inside
        return head or inside

    def check(self, node: ast.AST, popped: bool) -> None:
        """Where the name may hold a popped value, each read of it in node must be a
        shape read."""
        if not popped:
            return
        for n in walk(node):
            name = isinstance(n, ast.Name) and n.id == self.name
            if name and isinstance(n.ctx, ast.Load) and not self.shape_read(n):
                self.ok = False

    def shape_read(self, node: ast.Name) -> bool:
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr in _SHAPE_ATTRIBUTES:
            return True
        if not isinstance(parent, ast.Call) or parent.keywords or node not in parent.args:
            return False
        if any(isinstance(a, ast.Starred) for a in parent.args):
            return False
        position = parent.args.index(node)
        func = parent.func
        if isinstance(func, ast.Name) and func.id == "len" and "len" not in self.external:
            return position == 0 and len(parent.args) == 1
        callee = _dotted(func, self.external)
        try:
            return position in _SHAPE_READERS.get(callee, ())
        except TypeError:  # an unhashable object
            return False


def _join(a: bool | None, b: bool | None) -> bool | None:
    return b if a is None else a if b is None else a or b


def _targets(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, ast.Assign):
        return [n for t in stmt.targets for n in walk(t)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return list(walk(stmt.target))
    return []


def _own_chain(fn: ast.FunctionDef) -> str | None:
    """The chain `S = None` opening fn (none for a split variant given the chain)."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    for stmt in fn.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id.startswith("_stack")
            and stmt.targets[0].id not in params
            and isinstance(stmt.value, ast.Constant)
            and stmt.value.value is None
        ):
            return stmt.targets[0].id
    return None


def _is_push(node: ast.Assign, chain: str) -> bool:
    value = node.value
    return (
        len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == chain
        and isinstance(value, ast.Tuple)
        and len(value.elts) == 2
        and isinstance(value.elts[1], ast.Name)
        and value.elts[1].id == chain
    )


def _is_top(value: ast.expr, chain: str) -> bool:
    return (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id == chain
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )


def _reads_name(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(node))


def _written_into(fn: ast.FunctionDef, name: str) -> bool:
    """Whether fn writes into name's value (`name[...] = `, `name op= `, `del name[...]`)
    or updates it (`name op= `)."""
    for node in walk(fn):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            target = node
        elif isinstance(node, ast.AugAssign):
            target = node.target
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name) and target.id == name:
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            base = node.value
            if isinstance(base, ast.Name) and base.id == name:
                return True
    return False


def _writes_in_place(fn: ast.FunctionDef) -> bool:
    """Whether fn writes into a value in place anywhere (`v[...] = `, `v op= `)."""
    return any(
        isinstance(n, ast.AugAssign)
        or (isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)))
        for n in walk(fn)
    )


def _dotted(func: ast.expr, external: dict[str, object]) -> object:
    if isinstance(func, ast.Name):
        return external.get(func.id)
    if isinstance(func, ast.Attribute):
        return getattr(_dotted(func.value, external), func.attr, None)
    return None
