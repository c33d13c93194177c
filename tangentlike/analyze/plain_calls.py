"""Whether a user function's only writes into memory are those its Effects summarise.

analyze.effects sees the in-place updates the compiler lowers: `z op= v`, writes by
index, `out=`, `xs.append`, and the calls of other user functions. A call it does
not model may write too (`np.copyto(a, x)`, `np.put`, `a.fill(x)`, `a.sort()`,
`setattr`), and the Effects of a function making one would miss it. `summarized`
says a function makes none: every call in its source (and, the same way, in the
user functions it calls) goes to a registered derivative rule or non-differentiable
function (none of them writes its arguments; `out=` is refused here), to a
builtin that makes a new value, to an array method with a rule (`a.sum()`, never
`a.sort()`), or to a dict's reading methods; and it has no `del`, `global`,
`nonlocal`, attribute assignment or nested definition. Anything else, or a source
that cannot be read: False.
"""

from __future__ import annotations

import builtins
import inspect
import textwrap

import gast

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


def summarized(func: object, registry: Registry, seen: frozenset[int] = frozenset()) -> bool:
    """Whether every write `func` (a plain function) may make is one analyze.effects
    models (see the module docstring); functions already being checked count as such."""
    if id(func) in seen:
        return True
    if not inspect.isfunction(func) or not user_function(func, registry):
        return False
    try:
        tree = gast.parse(textwrap.dedent(inspect.getsource(func)))
        free = inspect.getclosurevars(func)
    except (OSError, TypeError, SyntaxError, ValueError):
        return False
    defs = [n for n in walk(tree) if isinstance(n, gast.FunctionDef)]
    if len(defs) != 1:
        return False  # a nested function (or none: a lambda)
    local = {  # parameters and assigned names: values, whatever a global of the name is
        n.id
        for n in walk(defs[0])
        if isinstance(n, gast.Name) and isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))
    }
    names = {**vars(builtins), **func.__globals__, **free.nonlocals}
    names = {k: v for k, v in names.items() if k not in local}
    inner = seen | {id(func)}
    for node in walk(defs[0]):
        if isinstance(node, _STATEMENTS):
            return False
        if isinstance(node, gast.Attribute) and isinstance(node.ctx, (gast.Store, gast.Del)):
            return False
        if (
            isinstance(node, gast.Subscript)
            and not isinstance(node.ctx, gast.Load)
            and not isinstance(node.value, (gast.Name, gast.Subscript))
        ):
            return False  # `a.flat[0] = x`: a write through an attribute
        if isinstance(node, gast.Call) and not _plain_call(node, names, registry, inner):
            return False
    return True


def _plain_call(call: gast.Call, names: dict, registry: Registry, seen: frozenset[int]) -> bool:
    if any(k.arg in (None, "out") for k in call.keywords):
        return False  # out= writes; **mapping may hold out
    func = call.func
    if isinstance(func, gast.Attribute):
        target = _resolved(func.value, names)
        if target is None:  # a method of a value: `a.sum()`, `d.items()`
            return registry.method_for(func.attr) is not None or func.attr in _READ_METHODS
        callee = getattr(target, func.attr, None)
    elif isinstance(func, gast.Name) and func.id in names:
        callee = names[func.id]
        if callee is getattr(builtins, func.id, None):
            return func.id in _BUILTINS
    else:
        return False
    if callee is None:
        return False
    if registry.lookup(callee) is not None or registry.is_nondifferentiable(callee):
        return True
    return summarized(callee, registry, seen)


def _resolved(node: gast.expr, names: dict) -> object | None:
    """The module or object a dotted name (`np`, `np.linalg`) refers to: one that is no
    local value (a module, or a global that is not an array)."""
    if isinstance(node, gast.Name):
        found = names.get(node.id)
        return found if inspect.ismodule(found) else None
    if isinstance(node, gast.Attribute):
        outer = _resolved(node.value, names)
        found = getattr(outer, node.attr, None) if outer is not None else None
        return found if inspect.ismodule(found) else None
    return None
