"""Which local values may be complex, from the operations that made them.

Assumes: A-normal form; `role(call)` gives what a call does with complex values
(Registry.complex_roles, or "source" for a call with a complex dtype
argument, None when unknown). Guarantees: `complex_names` is the least fixpoint
of: a name may be complex when a value bound to it (by assignment, unpacking,
a loop over it, or a write into it by index) may be; a value may be complex
when it is a complex literal, the call of a source, or any other operation
(call, arithmetic, element, container display) on a value that may be complex,
except a sink (np.real, np.abs, np.fft.irfft, ...: a real result). Parameters
start real: a complex argument is followed at run time instead (its adjoint
stays complex and the gradient refuses it, runtime/boundary.py).
"""

from __future__ import annotations

from collections.abc import Callable

import gast

from ..syntax import nodes
from ..syntax.nodes import walk

Role = Callable[[gast.Call], "str | None"]


def may_be_complex(value: gast.expr, known: frozenset[str], role: Role) -> bool:
    """Whether `value` may be complex, given the names `known` that may be."""
    if isinstance(value, gast.Constant):
        return isinstance(value.value, complex)
    if isinstance(value, gast.Name):
        return value.id in known
    if isinstance(value, gast.Call):
        kind = role(value)
        if kind == "sink":
            return False
        if kind in ("source", "real-source"):
            return True
        parts = [*value.args, *(k.value for k in value.keywords)]
        if isinstance(value.func, gast.Attribute):  # a method of a complex value
            parts.append(value.func.value)
        return any(may_be_complex(p, known, role) for p in parts)
    if isinstance(value, (gast.Compare, gast.Lambda)):
        return False
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.Not):
        return False
    return any(
        may_be_complex(child, known, role)
        for child in gast.iter_child_nodes(value)
        if isinstance(child, gast.expr)
    )


def complex_names(fn: gast.FunctionDef, role: Role) -> frozenset[str]:
    """The locals of `fn` that may hold a complex value (module docstring)."""
    bindings: list[tuple[list[str], gast.expr]] = []
    for node in walk(fn):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                names = sorted(nodes.names_stored(target))
                if isinstance(target, gast.Subscript):  # y[i] = v: y holds v now
                    names = sorted(nodes.names_read(target.value))
                bindings.append((names, node.value))
        elif isinstance(node, gast.AugAssign):
            names = sorted(nodes.names_read(node.target))
            bindings.append((names, gast.BinOp(left=node.target, op=node.op, right=node.value)))
        elif isinstance(node, (gast.For, gast.comprehension)):
            bindings.append((sorted(nodes.names_stored(node.target)), node.iter))
        elif isinstance(node, gast.Expr) and isinstance(node.value, gast.Call):
            func = node.value.func  # xs.append(z): xs may hold z now
            if isinstance(func, gast.Attribute):
                bindings.append((sorted(nodes.names_read(func.value)), node.value))
    known: frozenset[str] = frozenset()
    while True:
        more = {
            name
            for names, value in bindings
            if may_be_complex(value, known, role)
            for name in names
        }
        if more <= known:
            return known
        known = known | more
