"""Pops paired with their pushes, checked, in the differentiable form of a generated
derivative module (higher/forms.py): the stack discipline made visible.

A pop returns exactly the object its push saved, but the chain `_stack` (a tuple of
pairs) holds every value pushed: read through it, a popped value may be anything
pushed, may share memory with any of them, and is a list for all the second pass
knows. Where a name X is pushed and popped by the same function outside loops, the
form keeps the object it pushes under a name of its own and, at the pop, binds X to
that name after checking that it is the very object on top of the chain:

    _stack = (z1, _stack)           ->   _pushed1 = z1
                                         _stack = (pushed(z1), _stack)
    ...                                  ...
    z1 = _stack[0]                  ->   if _stack[0] is not _pushed1:
                                             raise ValueError('tangentlike: ...')
                                         z1 = _pushed1
    _stack = _stack[1]                   _stack = _stack[1]

The check makes the rewrite exact whatever pairs with what: X is bound to the object
the chain holds, read from a name whose origin (`_pushed1 = z1`: z1's object, and the
memory it shares) the second pass follows like any copy in user code. The chain still
holds the object (for the check, and for a pop elsewhere, which reads it as before),
marked `pushed(z1)` (runtime/forms.py: z1 itself): the second pass counts that entry
as sharing no memory (analyze/memory.py), since this function reads it back only
through `_pushed1` (every pop of z1 in it is rewritten, or none), so an update of
z1's array in place is not one of the chain, read afterwards. With several
push sites of X (the two branches of an `if`), the pop tries each site's name in turn;
where the pop and some sites are in the same branch of `if c:` tests on one name c
bound once outside loops (`if _shares1:` in the forward and the backward sweep of an
update in place), the pop tries those sites only. Every saved name is prebound to None:
an unbound one would end a pop's search, and the second pass's run-time checks read
saved names on paths where their push did not run (`same_memory(_pushed3, y)`: an
UnboundLocalError there, seed 12 program 143). A pop binds only the object on top of
the chain (identity), so a None prebinding never gives another value.
A check that fails raises (never a wrong value): a push site run twice before its pop
is one, so no push or pop inside a loop is rewritten. A name pushed and popped both
outside and inside loops is paired outside them only: the generated code pushes in a
loop what the backward sweep's loop pops (transform/sweep.py pairs a site's push and
restore by the variable, loop with loop), so a pop outside loops takes what a push
outside them saved (checked), and a pop in a loop, left reading the chain, never takes
an entry marked `pushed` (the entry of an argument's array before its entry copy,
say, which would otherwise count as what every pop of the name in a loop may return).

Assumes: the form of a generated function, after the stack rewrite (`_stack = (v,
_stack)` pushes, `X = _stack[0]; _stack = _stack[1]` pops). Guarantees: a rewritten
pop binds the same object as before, or raises ValueError; a rewritten push pushes the
same object, and saves it first under its own name (prebound to None at the start).
"""

from __future__ import annotations

import ast

from .. import runtime
from ..syntax.nodes import walk
from .form_lists import statement_lists

PREFIX = "_pushed"
HELPER = "pushed"
SAME = "same_pushed"


def pops_paired(fn: ast.FunctionDef, external: dict[str, object]) -> None:
    """Rewrite the pushes and pops of fn's names paired within fn (module docstring)."""
    chain = _chain(fn)
    if chain is None:
        return
    in_loops = _inside_loops(fn)
    pushes: dict[str, list[tuple[list[ast.stmt], int]]] = {}
    pops: dict[str, list[tuple[list[ast.stmt], int]]] = {}
    spoiled: set[str] = set()
    for stmts in statement_lists(fn, nested=False):
        for k, stmt in enumerate(stmts):
            pushed = _pushed_name(stmt, chain)
            if pushed is not None:
                if id(stmt) not in in_loops:  # a loop's pushes pair with its adjoint's pops
                    pushes.setdefault(pushed, []).append((stmts, k))
                continue
            popped = _popped_name(stmts, k, chain)
            if popped is not None:
                if id(stmt) not in in_loops:
                    pops.setdefault(popped, []).append((stmts, k))
                continue
            spoiled |= _other_chain_bindings(stmt, chain)
    used = {n.id for n in walk(fn) if isinstance(n, ast.Name)}
    counter = 0
    saved_names: list[str] = []
    edits: list[tuple[list[ast.stmt], int, list[ast.stmt]]] = []
    branch_of = _branches(fn)
    for name in sorted(set(pushes) & set(pops) - spoiled):
        sites: list[tuple[str, tuple[str, bool] | None]] = []
        for stmts, k in pushes[name]:
            counter += 1
            while f"{PREFIX}{counter}" in used:
                counter += 1
            saved = f"{PREFIX}{counter}"
            sites.append((saved, branch_of.get(id(stmts))))
            push = stmts[k]
            push.value.elts[0] = ast.Call(
                func=_load(HELPER), args=[push.value.elts[0]], keywords=[]
            )
            edits.append((stmts, k, [_assign(saved, _load(name)), push]))
        for stmts, k in pops[name]:
            tried = _candidates(sites, branch_of.get(id(stmts)))
            edits.append((stmts, k, [_checked_pop(stmts[k], name, tried, chain, fn.name)]))
        saved_names += [saved for saved, _ in sites]
    # replace from the end of each list, so that earlier positions stay valid
    for stmts, k, new in sorted(edits, key=lambda e: (id(e[0]), -e[1])):
        stmts[k : k + 1] = [ast.fix_missing_locations(ast.copy_location(s, stmts[k])) for s in new]
    if edits:
        external[HELPER] = runtime.pushed
        external[SAME] = runtime.same_pushed
        first = fn.body[0]
        fn.body[0:0] = [
            ast.fix_missing_locations(ast.copy_location(_assign(s, ast.Constant(None)), first))
            for s in saved_names
        ]


def _branches(fn: ast.FunctionDef) -> dict[int, tuple[str, bool]]:
    """id() of the body or orelse of each `if c:` outside loops, c a name bound once in fn
    outside loops (`_shares1 = same_memory(z1, y)`): (c, which branch). Two such lists of
    one key run on the same value of c, or one of them does not run."""
    bindings: dict[str, int] = {}
    in_loops = _inside_loops(fn)
    for node in walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings[node.id] = bindings.get(node.id, 0) + 1 + (id(node) in in_loops)
        elif isinstance(node, ast.arg):
            bindings[node.arg] = 2  # a parameter: bound on entry, perhaps again
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bindings.update((n, 2) for n in node.names)
    found: dict[int, tuple[str, bool]] = {}
    for node in walk(fn):
        if (
            isinstance(node, ast.If)
            and id(node) not in in_loops
            and isinstance(node.test, ast.Name)
            and bindings.get(node.test.id) == 1
        ):
            found[id(node.body)] = (node.test.id, True)
            found[id(node.orelse)] = (node.test.id, False)
    return found


def _candidates(
    sites: list[tuple[str, tuple[str, bool] | None]], branch: tuple[str, bool] | None
) -> list[str]:
    """The saved names a pop tries: the sites in the branch of the same test (c, True or
    False) as the pop's, where there are any (the other branch's push did not run), else
    all. The check at the pop is what makes either exact."""
    same = [saved for saved, where in sites if branch is not None and where == branch]
    return same or [saved for saved, _ in sites]


def _chain(fn: ast.FunctionDef) -> str | None:
    """The chain's name: a first parameter named like a stack, or `S = None` opening fn."""
    args = fn.args.args
    if args and args[0].arg.startswith("_stack"):
        return args[0].arg
    first = fn.body[0] if fn.body else None
    if (
        isinstance(first, ast.Assign)
        and len(first.targets) == 1
        and isinstance(first.targets[0], ast.Name)
        and first.targets[0].id.startswith("_stack")
        and isinstance(first.value, ast.Constant)
        and first.value.value is None
    ):
        return first.targets[0].id
    return None


def _inside_loops(fn: ast.FunctionDef) -> set[int]:
    found: set[int] = set()
    for node in walk(fn):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            found |= {id(n) for n in walk(node) if n is not node}
    return found


def _pushed_name(stmt: ast.stmt, chain: str) -> str | None:
    """X for `S = (X, S)`."""
    if _binds(stmt, chain) and isinstance(stmt.value, ast.Tuple):
        elts = stmt.value.elts
        if len(elts) == 2 and isinstance(elts[0], ast.Name) and _is_name(elts[1], chain):
            return elts[0].id
    return None


def _popped_name(stmts: list[ast.stmt], k: int, chain: str) -> str | None:
    """X for `X = S[0]` followed by `S = S[1]`."""
    stmt = stmts[k]
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and _is_item(stmt.value, chain, 0)
        and k + 1 < len(stmts)
        and _binds(stmts[k + 1], chain)
        and _is_item(stmts[k + 1].value, chain, 1)
    ):
        return None
    return stmt.targets[0].id


def _other_chain_bindings(stmt: ast.stmt, chain: str) -> set[str]:
    """Names a statement other than a plain push or pop binds from the chain (a list's
    restore as a copy, a tuple of values popped at once): their pops stay as they are."""
    if not isinstance(stmt, ast.Assign) or not any(_is_name(n, chain) for n in walk(stmt.value)):
        return set()
    spoiled: set[str] = set()
    for target in stmt.targets:  # a name bound (not an item restored: `v[1] = S[0]`)
        parts = target.elts if isinstance(target, ast.Tuple) else [target]
        spoiled |= {p.id for p in parts if isinstance(p, ast.Name)}
        if any(isinstance(p, ast.Starred) for p in parts):
            spoiled |= {n.id for n in walk(target) if isinstance(n, ast.Name)}
    return spoiled - {chain}


def _checked_pop(pop: ast.Assign, name: str, sites: list[str], chain: str, where: str):
    top = ast.Subscript(value=_load(chain), slice=ast.Constant(0), ctx=ast.Load())
    message = (
        f"tangentlike: the differentiable form of {where} pops {name!r} from its stack, "
        "and the value on top is not one it pushed (a pop out of order): differentiate "
        "the original function instead"
    )
    failed = ast.Raise(
        exc=ast.Call(func=_load("ValueError"), args=[ast.Constant(message)], keywords=[]),
        cause=None,
    )
    branch: list[ast.stmt] = [failed]
    for saved in reversed(sites):  # then the same bytes (a saved view made again)
        test = ast.Call(func=_load(SAME), args=[top, _load(saved)], keywords=[])
        branch = [ast.If(test=test, body=[_assign(name, _load(saved))], orelse=branch)]
    for saved in reversed(sites):  # the very object first
        test = ast.Compare(left=top, ops=[ast.Is()], comparators=[_load(saved)])
        branch = [ast.If(test=test, body=[_assign(name, _load(saved))], orelse=branch)]
    return branch[0]


def _binds(stmt: ast.stmt, name: str) -> bool:
    return (
        isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_name(stmt.targets[0], name)
    )


def _is_item(value: ast.expr, chain: str, index: int) -> bool:
    return (
        isinstance(value, ast.Subscript)
        and _is_name(value.value, chain)
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == index
    )


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())
