"""Python numbers stay Python numbers: `math` functions for NumPy's on them.

In a build specialised to calls passing some parameters Python floats or ints,
`np.sin(x)` of such a number returns a NumPy float64, and every later operation
on it (the forward sweep's and the backward sweep's) is NumPy scalar arithmetic,
several times slower than float arithmetic. `math.sin(x)` returns a float.

Assumes: `job.scalars` are passed Python floats or ints (not bools; the wrapper
runs this build for no other call); in the gradient of a scalar output the seed
(the last parameter, default 1.0) is not passed; the function's stack is plain
(optimize/restores.py) and a restore `x = _pop()` takes a value a `_push(x)` of the
same function pushed, so a value x held before.

Guarantees: a call `np.f(a)` (f in MATH, a single argument) becomes `math.f(a)` only
when a is certainly a Python number (a number parameter, the seed, a literal, an
item of a float64 vector parameter (optimize/items.py: a NumPy float64, which is a
float), or a name every binding of which makes one: + - * / and unary minus of
numbers, a restore, another such call, `np.zeros_like` of a number (made 0.0), or
`None`, the generated code's value before a first push, which math and NumPy both
refuse), and only if every value these calls make (and every value computed from
them) is read where a float and a NumPy float64 behave the same: arithmetic with
other Python numbers, comparisons with them, branch tests, pushes, `np.ndim`,
`unbroadcast`, `gradient_like`, and stores into the items of an adjoint array
`np.zeros_like(x)` of a float64 vector x (its dtype stays). Otherwise (a value
meeting an array, a method, a helper, the returned value) the function keeps every
NumPy call: a float32 array times a Python float stays float32, times a float64
does not.

`math` raises where NumPy returns inf or nan (math.log(0.0), math.exp(1000.0), and
then 1.0 / 0.0 in float arithmetic): the wrapper runs the generic build for such a
call (wrapper.wrap), which computes what the function computes. Values agree with
NumPy's to rounding (NumPy's SIMD loops and the C library may differ in the last
bit).
"""

from __future__ import annotations

import math

import gast
import numpy as np

from ..job import Job
from ..runtime import gradient_like, unbroadcast
from ..syntax import nodes
from ..syntax.nodes import walk
from . import copies, items, restores, zeros
from .accumulate import Resolve

# NumPy's unary float functions and their `math` twins (same function of a float)
MATH = {
    getattr(np, name): getattr(math, twin)
    for name, twin in (
        ("sin", "sin"),
        ("cos", "cos"),
        ("tan", "tan"),
        ("arcsin", "asin"),
        ("arccos", "acos"),
        ("arctan", "atan"),
        ("sinh", "sinh"),
        ("cosh", "cosh"),
        ("tanh", "tanh"),
        ("arcsinh", "asinh"),
        ("arccosh", "acosh"),
        ("arctanh", "atanh"),
        ("exp", "exp"),
        ("expm1", "expm1"),
        ("log", "log"),
        ("log1p", "log1p"),
        ("log2", "log2"),
        ("log10", "log10"),
        ("sqrt", "sqrt"),
    )
}
_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div)
_SIGNS = (gast.USub, gast.UAdd)


def run(fn: gast.FunctionDef, job: Job, resolve: Resolve, namespace, ctx) -> gast.FunctionDef:
    """The specialisations to number and array parameters: zeros (optimize/zeros.py),
    copies of arrays (optimize/copies.py), then `math` calls (see the module docstring)
    in the entry function of `job`."""
    zeros.run(fn, job.scalars, resolve)
    copies.run(fn, job, resolve)
    if not (job.scalars or job.doubles) or job.jit or job.mode.forward:
        return fn
    if not restores.plain_stack(fn, ctx.stack, ctx.push, ctx.pop):
        return fn
    numbers = _numbers(fn, job, resolve, ctx.push, ctx.pop)
    calls = [
        node
        for node in walk(fn)
        if isinstance(node, gast.Call) and _math_call(node, resolve, numbers) is not None
    ]
    zeroed = [  # `b = np.zeros_like(m)` of a number m: a 0-d array, 0.0 here
        node
        for node in walk(fn)
        if isinstance(node, gast.Assign) and _zeros_of_number(node.value, numbers, resolve)
    ]
    if not calls or not _reads_safe(fn, numbers, calls, resolve, ctx.push, zeroed):
        return fn
    module = nodes.name(namespace.bind("math", math, ctx.namer))
    for call in calls:
        twin = _math_call(call, resolve, numbers)
        call.func = nodes.located(nodes.attribute(module, twin.__name__), call.func)
    for assign in zeroed:
        assign.value = nodes.located(nodes.const(0.0), assign.value)
    return fn


def _math_call(node: gast.Call, resolve: Resolve, numbers: set[str]):
    """The `math` twin of a call `np.f(a)` of a number a, else None."""
    if len(node.args) != 1 or node.keywords or not _is_number(node.args[0], numbers, resolve):
        return None
    try:
        return MATH.get(resolve(node.func))
    except TypeError:  # an unhashable callee
        return None


def _is_number(node: gast.expr, numbers: set[str], resolve: Resolve) -> bool:
    """Whether `node` certainly evaluates to a Python int or float (not a bool) when
    the names `numbers` hold them and calls of MATH functions become `math` calls."""
    if isinstance(node, gast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, gast.Name):
        return node.id in numbers
    if isinstance(node, gast.BinOp):
        return (
            isinstance(node.op, _ARITHMETIC)
            and _is_number(node.left, numbers, resolve)
            and _is_number(node.right, numbers, resolve)
        )
    if isinstance(node, gast.UnaryOp):
        return isinstance(node.op, _SIGNS) and _is_number(node.operand, numbers, resolve)
    if isinstance(node, gast.Call):
        return _math_call(node, resolve, numbers) is not None
    if isinstance(node, gast.Subscript):  # an item of a float64 vector (optimize/items.py)
        return id(node) in getattr(numbers, "items", ())
    return False


def _zeros_of_number(node: gast.expr, numbers: set[str], resolve: Resolve) -> bool:
    """Whether node is `np.zeros_like(a)` of a number a (run makes it 0.0)."""
    return (
        isinstance(node, gast.Call)
        and len(node.args) == 1
        and not node.keywords
        and _is_number(node.args[0], numbers, resolve)
        and resolve(node.func) is np.zeros_like
    )


class _Numbers(set):
    """The names holding numbers, with the facts of optimize/items.py: `items`, the
    id() of the subscripts that are float64 items; `arrays`, the float64 arrays."""

    items: set[int]
    arrays: set[str]


def _numbers(fn: gast.FunctionDef, job: Job, resolve: Resolve, push: str, pop: str) -> set[str]:
    """The local names that hold Python numbers wherever they are read: the largest set
    whose every binding makes a number from numbers (a value held at any time was made
    by a binding that ran before, from values held before)."""
    pushed = {restores.pushed(s, push) for s in walk(fn) if isinstance(s, gast.Expr)}
    params = nodes.param_names(fn)
    starting = {p for p in params if p in job.scalars}
    if job.mode.scalar_output and fn.args.defaults and params:
        seed = fn.args.defaults[-1]
        if isinstance(seed, gast.Constant) and type(seed.value) is float:
            starting.add(params[-1])  # the seed of a scalar output: 1.0, never passed
    bindings: dict[str, list[gast.AST]] = {}
    followed: set[int] = set()  # the targets of the bindings followed
    for node in walk(fn):
        if isinstance(node, gast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, gast.AugAssign):
            target = node.target
        else:
            continue
        if isinstance(target, gast.Name):
            bindings.setdefault(target.id, []).append(node)
            followed.add(id(target))
    blocked = {p for p in nodes.all_param_names(fn) if p not in starting}
    for node in walk(fn):  # a loop target, an unpacking, a deletion: not followed
        stored = isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del))
        if stored and id(node) not in followed:
            blocked.add(node.id)
    numbers = _Numbers((set(bindings) | starting) - blocked)
    numbers.items = items.items(fn, job, resolve)
    numbers.arrays = items.float64_arrays(fn, job, resolve)
    changed = True
    while changed:
        changed = False
        for name in sorted(numbers):
            made = (_makes_number(b, numbers, resolve, pushed, pop) for b in bindings.get(name, ()))
            if not all(made):
                numbers.discard(name)
                changed = True
    return numbers


def _makes_number(binding, numbers: set[str], resolve: Resolve, pushed: set, pop: str) -> bool:
    if isinstance(binding, gast.AugAssign):
        return isinstance(binding.op, _ARITHMETIC) and _is_number(binding.value, numbers, resolve)
    target = binding.targets[0].id
    if restores.popped(binding, pop) == target:
        return target in pushed  # restores a value the name held before
    if isinstance(binding.value, gast.Constant) and binding.value.value is None:
        return True  # `x = None` before a first push: None fails in math as in NumPy
    if _zeros_of_number(binding.value, numbers, resolve):
        return True  # becomes 0.0 (run)
    return _is_number(binding.value, numbers, resolve)


def _reads_safe(
    fn: gast.FunctionDef,
    numbers: set[str],
    calls: list[gast.Call],
    resolve: Resolve,
    push: str,
    zeroed: list[gast.Assign],
) -> bool:
    """Whether every value the `calls` make, and every value made from one, is read
    only where a float and a NumPy float64 behave the same (module docstring)."""
    body = [node for stmt in fn.body for node in walk(stmt)]  # not the signature
    parents: dict[int, gast.AST] = {}
    for node in body:
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    converted = {id(c) for c in calls} | {id(a.value) for a in zeroed}  # values of a new type
    made: set[str] = set()  # names bound to such values
    changed = True
    while changed:
        changed = False
        for node in body:
            if id(node) in converted:
                continue
            if _carries(node, converted, made, resolve):
                converted.add(id(node))
                changed = True
        for node in body:
            name = _bound_from(node, converted, getattr(numbers, "arrays", ()))
            if name is not None and name not in made:
                made.add(name)
                changed = True
    for node in body:
        if id(node) in converted:
            parent = parents.get(id(node))
            if parent is None or not _safe_read(node, parent, numbers, resolve, push):
                return False
    return all(n in numbers for n in made)


def _carries(node: gast.AST, converted: set[int], made: set[str], resolve: Resolve) -> bool:
    """Whether `node`'s value is a converted one: a read of a name bound to one, an
    operation on one, `unbroadcast` of one (which returns it)."""
    if isinstance(node, gast.Name):
        return isinstance(node.ctx, gast.Load) and node.id in made
    if isinstance(node, (gast.BinOp, gast.UnaryOp)):
        return any(id(c) in converted for c in gast.iter_child_nodes(node))
    if isinstance(node, gast.Call) and node.args and id(node.args[0]) in converted:
        return resolve(node.func) is unbroadcast
    return False


def _bound_from(node: gast.AST, converted: set[int], arrays: set[str]) -> str | None:
    """The name an assignment binds to a converted value (or updates with one); None
    also for a store into the items of a float64 array of `arrays` (optimize/items.py:
    its dtype stays, a float stored is the float64 stored)."""
    if isinstance(node, gast.Assign) and id(node.value) in converted:
        target = node.targets[0]
        one_name = len(node.targets) == 1 and isinstance(target, gast.Name)
        if len(node.targets) == 1 and _item_of(target, arrays):
            return None
        return target.id if one_name else "<not a name>"
    if isinstance(node, gast.AugAssign) and id(node.value) in converted:
        if _item_of(node.target, arrays) and isinstance(node.op, (gast.Add, gast.Sub)):
            return None
        return node.target.id if isinstance(node.target, gast.Name) else "<not a name>"
    return None


def _item_of(target: gast.expr, arrays: set[str]) -> bool:
    """Whether target is `b[...]` of a name b in `arrays`."""
    return (
        isinstance(target, gast.Subscript)
        and isinstance(target.value, gast.Name)
        and target.value.id in arrays
    )


def _safe_read(node, parent, numbers: set[str], resolve: Resolve, push: str) -> bool:
    """Whether `parent` reads `node` (a converted value) as a float64 would be read."""

    def number(n):
        return _is_number(n, numbers, resolve)

    if isinstance(parent, gast.BinOp):
        return isinstance(parent.op, _ARITHMETIC) and number(parent.left) and number(parent.right)
    if isinstance(parent, gast.UnaryOp):
        return isinstance(parent.op, _SIGNS)
    if isinstance(parent, gast.Compare):
        return number(parent.left) and all(number(c) for c in parent.comparators)
    if isinstance(parent, (gast.Assign, gast.AugAssign)):
        return True  # the bound name must be a number (checked by the caller)
    if isinstance(parent, (gast.If, gast.While)):
        return parent.test is node
    if isinstance(parent, gast.Call):
        callee = parent.func
        if isinstance(callee, gast.Name) and callee.id == push:
            return True
        try:
            target = resolve(callee)
        except TypeError:
            return False
        if target in MATH:
            return True  # the argument of a call made a math call
        if target is np.ndim or target is gradient_like:
            return True
        if target is unbroadcast:
            return len(parent.args) == 2 and all(number(a) for a in parent.args)
    return False
