"""Whether a user function's only writes into memory are those its Effects summarise.

analyze.effects sees the in-place updates the compiler lowers: `z op= v`, writes by
index, `out=`, `xs.append`, and the calls of other user functions. A call it does
not model may write too (`np.copyto(a, x)`, `np.put`, `a.fill(x)`, `a.sort()`,
`setattr`), and the Effects of a function making one would miss it. `summarized`
says a function makes none: every call in its source (and, the same way, in the
user functions it calls) goes to a registered derivative rule or non-differentiable
function (none of them writes its arguments; `out=` is refused here), to a
builtin that makes a new value, to an array method with a rule (`a.sum()`, never
`a.sort()`), or to a dict's reading methods, and is passed no function (which it
might call: `max(xs, key=g)`); and it has no `del`, `global`,
`nonlocal`, attribute assignment or nested definition. Anything else, a library
function without a rule, or a source that cannot be read: False. The texts read and
the names resolved are recorded (parse.record), as a build's other dependencies.
"""

from __future__ import annotations

import builtins
import inspect

import gast

from ..errors import TangentlikeError
from ..parse.resolve import MISSING, Scope
from ..parse.source import parse_function
from ..rules.registry import Registry
from ..syntax.nodes import walk
from .activity import user_function

# Builtins whose result is new (or an argument, read only): none writes its arguments.
_BUILTINS = frozenset(
    {"abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "float"}
    | {"int", "isinstance", "len", "list", "max", "min", "pow", "print", "range"}
    | {"reversed", "round", "sorted", "str", "sum", "tuple", "zip"}
)
_READ_METHODS = frozenset({"items", "keys", "values", "get", "index", "count"})
_STATEMENTS = (gast.Delete, gast.Global, gast.Nonlocal, gast.Lambda, gast.ClassDef)


def summarized(
    func: object, registry: Registry, recorder=None, seen: frozenset[int] = frozenset()
) -> bool:
    """Whether every write `func` (a plain function) may make is one analyze.effects
    models (see the module docstring); functions already being checked count as such.
    `recorder` (parse.record) is told the texts and names the answer rests on."""
    if id(func) in seen:
        return True
    if not inspect.isfunction(func) or not user_function(func, registry):
        return False
    module = getattr(func, "__module__", None) or ""
    if module.split(".")[0] in ("numpy", "scipy", "tangentlike"):
        return False  # a library function without a rule (np.put writes its argument)
    try:
        fn = parse_function(func, recorder).node
    except TangentlikeError:
        return False
    if not isinstance(fn, gast.FunctionDef):
        return False  # a lambda
    local = {  # parameters and assigned names: values, whatever a global of the name is
        n.id
        for n in walk(fn)
        if isinstance(n, gast.Name) and isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))
    }
    scope = Scope(func, frozenset(local), {}, recorder)
    inner = seen | {id(func)}
    for node in walk(fn):
        if isinstance(node, _STATEMENTS) or (isinstance(node, gast.FunctionDef) and node is not fn):
            return False
        if isinstance(node, gast.Attribute) and isinstance(node.ctx, (gast.Store, gast.Del)):
            return False
        if (
            isinstance(node, gast.Subscript)
            and not isinstance(node.ctx, gast.Load)
            and not isinstance(node.value, (gast.Name, gast.Subscript))
        ):
            return False  # `a.flat[0] = x`: a write through an attribute
        if isinstance(node, gast.Call) and not _plain_call(node, scope, registry, inner):
            return False
    return True


def _plain_call(call: gast.Call, scope: Scope, registry: Registry, seen: frozenset[int]) -> bool:
    if any(k.arg in (None, "out") for k in call.keywords):
        return False  # out= writes; **mapping may hold out
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(arg, gast.Starred):
            return False
        passed = scope.resolve(arg) if isinstance(arg, (gast.Name, gast.Attribute)) else MISSING
        if callable(passed) and not isinstance(passed, type):
            return False  # `max(xs, key=g)`, `np.apply_along_axis(g, ...)`: g runs too
    func = call.func
    callee = scope.resolve(func)
    if callee is MISSING:  # a method of a value (`a.sum()`, `d.items()`), or a local
        attribute = isinstance(func, gast.Attribute) and scope.resolve(func.value) is MISSING
        return attribute and (
            registry.method_for(func.attr) is not None or func.attr in _READ_METHODS
        )
    if isinstance(func, gast.Name) and callee is getattr(builtins, func.id, MISSING):
        return func.id in _BUILTINS
    if registry.lookup(callee) is not None or registry.is_nondifferentiable(callee):
        return True
    return summarized(callee, registry, scope.recorder, seen)
