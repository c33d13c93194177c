"""Which values are certainly arrays or numbers, from the operations that made them.

Assumes: A-normal form (or any tree: only simple assignments are read).
Guarantees: `numeric(value, known)` and `floating(value, known)` are sound given
`known` (names certainly floating) and `makes_array` (calls certainly returning a
float or float array, e.g. `float_result`): a numeric value is never a list, tuple,
dict or string, and a floating one is moreover never a Python int or bool, nor a
NumPy integer or bool (so `floating * xs` is arithmetic, never a list repeated:
`np.array(2) * 1` is an np.int64, which repeats a list). Arithmetic with a float
makes a new float or float array: `u0 * 1.0`, `u + k * lap`, `a / b`, `-u`,
`a ** 2.0`, an element or slice of a float array; `a @ b` only of a floating operand
(int vectors give an np.int64). `floating_names(fn)` is the greatest fixpoint over
the function's bindings (a name is floating when every value bound to it is), with
parameters unknown unless known to be passed arrays (a build specialised to them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import gast
import numpy as np

from .. import runtime
from ..syntax import nodes
from ..syntax.nodes import walk

ARITHMETIC = (
    gast.Add,
    gast.Sub,
    gast.Mult,
    gast.Div,
    gast.Pow,
    gast.Mod,
    gast.FloorDiv,
    gast.MatMult,
)


def floating(
    value: gast.expr, known: frozenset[str], makes_array: Callable[[gast.Call], bool] | None = None
) -> bool:
    """Certainly a float, a NumPy scalar or an array (never an int, bool or container)."""
    if isinstance(value, gast.Constant):
        return type(value.value) in (float, complex)
    if isinstance(value, gast.Name):
        return value.id in known
    if isinstance(value, gast.BinOp) and isinstance(value.op, ARITHMETIC):
        if isinstance(value.op, gast.Div):  # never an int, nor of a list
            return True
        return any(floating(o, known, makes_array) for o in (value.left, value.right))
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
        return floating(value.operand, known, makes_array)
    if isinstance(value, gast.Subscript):  # an array's element or slice
        return floating(value.value, known, makes_array)
    if isinstance(value, gast.Call) and makes_array is not None:
        return makes_array(value)
    return False


def float_result(
    callee: object, call: gast.Call, registry, is_float: Callable[[gast.expr], bool]
) -> bool:
    """Whether `call` (to `callee`) certainly returns a float, a complex or an array of
    them, never an integer or bool, given `is_float` for its arguments: a float ufunc
    (np.sin, np.divide), a ufunc of a float argument whose loops for floats all give
    floats (np.add, np.maximum; not np.isnan), a float maker given a shape alone
    (np.zeros(n)), a float keeper (np.sum, np.copy) or an argument's own copy of a
    float first argument. A `dtype=` or `out=` keyword may say otherwise: not then."""
    if any(k.arg in ("dtype", "out", "signature") for k in call.keywords):
        return False
    if isinstance(callee, np.ufunc):
        if float_ufunc(callee):
            return True
        return _float_loops(callee) and any(is_float(a) for a in call.args)
    if not call.args:
        return False
    if len(call.args) == 1 and not call.keywords and registry.makes_float_array(callee):
        return True
    if callee is runtime.updated:  # `z op v` (transform/in_place.py)
        return len(call.args) == 2 and is_float(call.args[1])
    keeper = registry.keeps_float(callee) or any(callee is c for c in _OWN_COPIES)
    return keeper and is_float(call.args[0])


_OWN_COPIES = (runtime.entry_copy, runtime.kept_apart)


@functools.cache
def float_ufunc(func: np.ufunc) -> bool:
    """A ufunc of one output that is a float (or complex) whatever its inputs are
    (np.sin, np.exp, np.divide; not np.add, np.abs or np.multiply: ints in, ints out)."""
    return func.nout == 1 and not any(t[-1] in _INTEGER_CODES for t in func.types)


@functools.cache
def _float_loops(func: np.ufunc) -> bool:
    """Every loop of `func` taking a float or complex gives one (np.add; not np.isnan,
    np.less): a float argument can only select such a loop (a float never casts to an
    integer safely), or none (an error)."""
    if func.nout != 1:
        return False
    loops = [t.split("->") for t in func.types]
    return all(out not in _INTEGER_CODES for ins, out in loops if set(ins) & _FLOAT_CODES)


_INTEGER_CODES = frozenset("?bBhHiIlLqQnNpP")
_FLOAT_CODES = frozenset("efdgFDG")


def numeric(
    value: gast.expr, known: frozenset[str], makes_array: Callable[[gast.Call], bool] | None = None
) -> bool:
    """Certainly no list, tuple, dict or string: floating, or `x * x` (a list times a
    list fails), or arithmetic other than + and * on anything but text."""
    if floating(value, known, makes_array):
        return True
    if isinstance(value, gast.Constant):
        return not isinstance(value.value, (str, bytes))
    if isinstance(value, gast.BinOp) and isinstance(value.op, ARITHMETIC):
        operands = (value.left, value.right)
        if isinstance(value.op, gast.Mult):
            same = all(isinstance(o, gast.Name) for o in operands) and (
                value.left.id == value.right.id
            )
            return same
        if isinstance(value.op, gast.Add):
            return False
        return not (isinstance(value.op, gast.Mod) and _maybe_text(value.left))
    return isinstance(value, (gast.UnaryOp, gast.Compare))


def _maybe_text(operand: gast.expr) -> bool:
    """`"%s" % x` formats text: a left operand that may be a string keeps Mod undecided."""
    return not (isinstance(operand, gast.Constant) and not isinstance(operand.value, str))


def floating_names(
    fn: gast.FunctionDef,
    makes_array: Callable[[gast.Call], bool] | None = None,
    arrays: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """Locals every binding of which is floating (given the others); parameters only
    those of `arrays`, known to be passed an ndarray (a build specialised to it)."""
    bindings: dict[str, list[gast.expr]] = {}
    for node in walk(fn):
        if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name):
            bindings.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            # z op= v keeps a floating z floating
            op = gast.BinOp(left=nodes.name(node.target.id), op=node.op, right=node.value)
            bindings.setdefault(node.target.id, []).append(op)
        elif isinstance(node, (gast.For, gast.comprehension)):
            for name in nodes.names_stored(node.target):
                bindings.setdefault(name, []).append(gast.Constant(value="?", kind=None))
    params = set(nodes.all_param_names(fn))
    known = frozenset(n for n in bindings if n not in params) | (arrays & params)
    while True:
        kept = frozenset(
            n for n in known if all(floating(v, known, makes_array) for v in bindings.get(n, []))
        )
        if kept == known:
            return known
        known = kept


def plain_names(
    fn: gast.FunctionDef,
    known: frozenset[str],
    makes_array: Callable[[gast.Call], bool] | None,
    plain: frozenset[str],
    checked: frozenset[str],
    same_kind: Callable[[gast.Call], list[str]] | None = None,
    excluded: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """Names never bound to a list, tuple or dict, given `plain` (names whose calls,
    entry_copy(...), give an array, a number, a string or None: an argument's copy) and
    `checked` (parameters whose value on entry is so): the greatest fixpoint over names
    bound only by plain assignments (`z op= v` too), each binding numeric, a copy of such
    a name, or a sum with such a name (an array or number plus a list is an array or
    fails; never `n * xs`, which repeats a list), or a call whose result is of the kind of
    such names (`same_kind(call)`: kept_apart(y, s) is y or y's copy). `excluded`: names
    never counted (nor their copies), whatever they are bound to."""
    bindings: dict[str, list[gast.expr]] = {}
    other: set[str] = (set(nodes.all_param_names(fn)) - checked) | excluded
    targets = set()
    for node in walk(fn):
        if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name):
            if len(node.targets) == 1:
                targets.add(id(node.targets[0]))
                bindings.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            targets.add(id(node.target))
            op = gast.BinOp(left=nodes.name(node.target.id), op=node.op, right=node.value)
            bindings.setdefault(node.target.id, []).append(op)
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            other.update(node.names)
        elif isinstance(node, (gast.Import, gast.ImportFrom)):
            other.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            other.add(node.name)
    for node in walk(fn):
        stored = isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del))
        if stored and id(node) not in targets:
            other.add(node.id)  # a loop target, an unpacked tuple's part, ...
    names = (set(bindings) | checked | plain) - other
    while True:
        kept = frozenset(
            n
            for n in names
            if all(
                (n in plain and isinstance(v, gast.Call))  # the checked copy itself
                or _plain(v, names, known, makes_array, same_kind)
                for v in bindings.get(n, [])
            )
        )
        if kept == names:
            return kept
        names = set(kept)


def _plain(value, names, known, makes_array, same_kind) -> bool:
    if numeric(value, known, makes_array):
        return True
    if isinstance(value, gast.Name):
        return value.id in names
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Add):
        return any(isinstance(o, gast.Name) and o.id in names for o in (value.left, value.right))
    if isinstance(value, gast.Call) and same_kind is not None:
        kinds = same_kind(value)
        return bool(kinds) and all(n in names for n in kinds)
    return False
