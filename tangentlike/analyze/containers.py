"""Which variables may hold lists, tuples or dicts, and where lists are mutated.

Assumes: A-normal form. Guarantees: `structured(fn)` holds every local whose
adjoint may be a container adjoint (a list or dict of per-element adjoints, None
for zero): names bound to list, tuple or dict literals, names read by subscript
(`x[k]` may pick from a list or dict), lists grown by `append`/`extend`, names
passed to or returned from user functions, results of functions that return
lists (np.split), names passed as a list to np.stack or sum, a `*args` tuple and a
`**kwargs` dict, closed under plain copies `a = b`;
but never a name every binding of which is certainly an array or a number (analyze.numeric:
`u = u0 * 1.0`, `u = u + k * lap`, `b = a * a`), whatever it is indexed or passed to,
unless (in a gradient's differentiable form) it is ever bound to None: its adjoint may
stay None, which only `add` adds.
Every other variable's adjoint is an array or a float. `mutations(stmts)` lists
the `xs.append(v)` / `xs.extend(ys)` statements, the only mutations of containers
A-normal form keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import gast

from ..syntax import nodes
from ..syntax.nodes import walk
from .numeric import floating_names, numeric, plain_names

MUTATORS = ("append", "extend")


def mutation(stmt: gast.stmt) -> tuple[str, str, gast.expr] | None:
    """(list name, method, argument) for `xs.append(v)` / `xs.extend(ys)`, else None."""
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return None
    call = stmt.value
    func = call.func
    if (
        isinstance(func, gast.Attribute)
        and func.attr in MUTATORS
        and isinstance(func.value, gast.Name)
        and len(call.args) == 1
        and not call.keywords
    ):
        return func.value.id, func.attr, call.args[0]
    return None


def mutations(stmts: list[gast.stmt]) -> Iterator[gast.Expr]:
    for stmt in stmts:
        if mutation(stmt) is not None:
            yield stmt
        for field in ("body", "orelse"):
            yield from mutations(getattr(stmt, field, []) or [])


def _statements(stmts: list[gast.stmt]) -> Iterator[gast.stmt]:
    for stmt in stmts:
        yield stmt
        for field in ("body", "orelse"):
            yield from _statements(getattr(stmt, field, []) or [])


def structured(
    fn: gast.FunctionDef,
    user_call: Callable[[gast.Call], bool] | None = None,
    sequence_call: Callable[[gast.Call], bool] | None = None,
    sequence_args: Callable[[gast.Call], list[str]] | None = None,
    makes_array: Callable[[gast.Call], bool] | None = None,
    shares_structure: Callable[[gast.Call], list[str]] | None = None,
    none_is_structured: bool = False,
    arrays_given: frozenset[str] = frozenset(),
    no_containers: frozenset[str] = frozenset(),
    checked_params: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """Locals whose adjoint may be a container adjoint (see the module docstring).

    `user_call(call)` says whether a call goes to a user function (differentiated
    through its source), whose arguments and results may be containers;
    `sequence_call(call)` whether it returns a list of arrays (np.split);
    `sequence_args(call)` the names it takes as lists whose adjoint is a list (np.stack);
    `makes_array(call)` whether it certainly returns a new array (a ufunc);
    `shares_structure(call)` the names whose structure its result has (`add(a, b)`):
    the result is a container where they are, and they are where it is.
    `none_is_structured`: a name bound to None counts (in a gradient's differentiable
    form, names prebound to None hold flags and saved values whose adjoints stay None).
    `arrays_given`: parameters known to be passed an ndarray (a build specialised to it).
    `no_containers`: locals never bound to a container (a copy of an argument the
    function changes, which raises for anything but an array or a number).
    `checked_params`: parameters whose value on entry is checked so (by that copy).
    """
    floating = floating_names(fn, makes_array, arrays_given)
    bound: dict[str, list[gast.expr]] = {}
    as_lists: set[str] = set()  # taken whole as a list by a rule: kept whatever they hold
    found: set[str] = set()
    copies: list[tuple[str, str]] = []
    derived: list[tuple[str, str]] = []  # (result, operand): a container operand, a container
    for stmt in _statements(fn.body):
        found_mutation = mutation(stmt)
        if found_mutation is not None:
            xs, method, arg = found_mutation
            found.add(xs)
            if method == "extend" and isinstance(arg, gast.Name):
                found.add(arg.id)  # its adjoint is the list of the added elements' adjoints
            continue
        if not isinstance(stmt, gast.Assign):
            continue
        target, value = stmt.targets[0], stmt.value
        for node in walk(value):
            if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name):
                found.add(node.value.id)
        if isinstance(target, gast.Subscript):
            continue
        bound.setdefault(target.id, []).append(value)
        if isinstance(value, (gast.List, gast.Tuple, gast.Dict)):
            found.add(target.id)
        elif none_is_structured and _none(value):
            found.add(target.id)  # its adjoint may stay None: accumulated with `add`, not `+`
        elif isinstance(value, gast.Name):
            copies.append((target.id, value.id))
        elif (
            isinstance(value, gast.BinOp)
            and isinstance(value.op, (gast.Add, gast.Mult))
            and not numeric(value, floating, makes_array)
        ):
            # `xs + ys` concatenates lists, `xs * 3` repeats one
            for operand in (value.left, value.right):
                if isinstance(operand, gast.Name):
                    derived.append((target.id, operand.id))
        elif isinstance(value, gast.Call) and sequence_call is not None and sequence_call(value):
            found.add(target.id)
        elif isinstance(value, gast.Call) and shares_structure is not None:
            derived.extend((target.id, name) for name in shares_structure(value))
        if isinstance(value, gast.Call) and sequence_args is not None:
            as_lists.update(sequence_args(value))
            found.update(as_lists)
        elif isinstance(value, gast.Call) and user_call is not None and user_call(value):
            found.add(target.id)
            found.update(a.id for a in value.args if isinstance(a, gast.Name))
            found.update(k.value.id for k in value.keywords if isinstance(k.value, gast.Name))
    changed = True
    while changed:
        changed = False
        for a, b in copies:
            if (a in found) != (b in found):
                found.update((a, b))
                changed = True
        for result, operand in derived:  # both ways: a concatenation's parts are lists too
            if (result in found) != (operand in found):
                found.update((result, operand))
                changed = True
    # in a form, a name ever bound to None may keep a None adjoint (None is numeric, no
    # container, but `None + None` fails): never certainly an array, nor a copy of one
    nones = frozenset(
        n for n, values in bound.items() if none_is_structured and any(map(_none, values))
    )
    arrays = {
        n
        for n, values in bound.items()
        if all(numeric(v, floating, makes_array) for v in values) and n not in as_lists
    } | (no_containers - as_lists)
    arrays |= (
        plain_names(
            fn, floating, makes_array, no_containers, checked_params, shares_structure, nones
        )
        - as_lists
    )
    arrays -= nones
    params = set(nodes.param_names(fn))
    given = {  # parameters passed arrays that stay arrays
        p
        for p in params & arrays_given
        if all(numeric(v, floating, makes_array) for v in bound.get(p, [])) and p not in as_lists
    } | ((params & no_containers) - as_lists)  # rebound to a copy before any other use
    given |= params & checked_params & arrays
    packed = {p.id for p in (fn.args.vararg, fn.args.kwarg) if p is not None}  # tuple, dict
    return frozenset(
        ((found - arrays - params) | (found & (params - given)) | as_lists | packed) & _locals(fn)
    )


def _none(value: gast.expr) -> bool:
    return isinstance(value, gast.Constant) and value.value is None


def _locals(fn: gast.FunctionDef) -> set[str]:
    names = set(nodes.all_param_names(fn))
    for stmt in fn.body:
        names |= nodes.names_stored(stmt)
    return names
