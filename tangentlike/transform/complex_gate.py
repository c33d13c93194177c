"""Where a value may be complex: which rules apply there, and what is refused.

Assumes: A-normal form, its activity, and the registry's complex roles
(rules/numpy_fft.py). Guarantees: `names` gives the locals that may be complex
(analyze/complexness.py); `check` refuses, located, before any code is made:
an operation on a varied value that may be complex whose function has no
complex role (its rule was written for real values: a wrong gradient is worse
than none), a real-input transform (np.fft.rfft) given such a value, a call of
a user function with such a value (complex values are followed within one
function), and a function returning one (outputs are real). `site` says
whether an assignment computes with a value that may be complex: there a
rule's complex form replaces its real one (`rule`, `tangent`), and a real
operand receives the real part of its adjoint (`projected`).
"""

from __future__ import annotations

import builtins

import gast
import numpy as np

from ..analyze import complexness
from ..parse.resolve import Scope
from ..rules.registry import Registry
from ..rules.template import Rule
from ..syntax import nodes
from ..syntax.nodes import walk
from .context import Context

# Results that do not depend on the values: complex or not, nothing to differentiate.
_SHAPES = (builtins.len, np.shape, np.ndim, np.size)


def names(fn: gast.FunctionDef, scope: Scope, registry: Registry) -> frozenset[str]:
    """The locals of `fn` that may be complex."""

    def role(call: gast.Call) -> str | None:
        found = registry.complex_role(scope.resolve(call.func))
        arguments = [*call.args, *(k.value for k in call.keywords)]
        if found != "sink" and any(_complex_type(a) for a in arguments):
            return "source"  # x.astype(complex), np.zeros(n, dtype=np.complex128)
        return found

    return complexness.complex_names(fn, role)


# Spellings of complex types (read from the text: resolving every argument would record
# it as a dependency of the build)
_COMPLEX_TYPES = {"complex", "complex64", "complex128", "complex256", "complex_", "cdouble"}
_COMPLEX_TYPES |= {"csingle", "clongdouble", "cfloat", "complexfloating"}


def _complex_type(node: gast.expr) -> bool:
    if isinstance(node, gast.Name):
        return node.id in _COMPLEX_TYPES
    if isinstance(node, gast.Attribute):
        return node.attr in _COMPLEX_TYPES
    value = getattr(node, "value", None) if isinstance(node, gast.Constant) else None
    if isinstance(value, str) and len(value) > 1:  # "complex128", "c16"; never order="F"
        try:
            return np.dtype(value).kind == "c"
        except Exception:  # text that names no dtype ("ij,jk->ik")
            return False
    return False


def site(stmt: gast.Assign, values: frozenset[str]) -> bool:
    """Whether `t = value` computes with a value that may be complex (t, an operand, or
    a complex literal in it)."""
    target = stmt.targets[0]
    if isinstance(target, gast.Name) and target.id in values:
        return True
    return _complex_operand(stmt.value, values)


def _complex_operand(value: gast.expr, values: frozenset[str]) -> bool:
    return any(
        (isinstance(n, gast.Name) and n.id in values)
        or (isinstance(n, gast.Constant) and isinstance(n.value, complex))
        for n in walk(value)
    )


def rule(registry: Registry, primal: object, found: Rule) -> Rule:
    """The rule that applies at a complex site: the complex form where there is one."""
    form = registry.complex_rule(primal)
    return found if form is None else form[0]


def tangent(registry: Registry, primal: object):
    """The forward form at a complex site: the complex form's, or None for the usual."""
    form = registry.complex_rule(primal)
    return None if form is None else form[1]


def projected(binding: gast.expr, values: frozenset[str]) -> bool:
    """Whether an operand at a complex site is real (statically): its adjoint contribution
    is then the real part (runtime.real_part checks the value itself)."""
    return isinstance(binding, gast.Name) and binding.id not in values


def check(ctx: Context, values: frozenset[str]) -> None:
    """Refuse what the module docstring says, located."""
    varied = ctx.activity.varied
    for stmt in _statements(ctx.fn.body):
        if isinstance(stmt, gast.Return):
            returned = stmt.value
            if isinstance(returned, gast.Name) and returned.id in values & ctx.active:
                raise ctx.error(
                    stmt,
                    "the function returns a value that may be complex; tangentlike follows "
                    "complex values inside a function, but its outputs must be real",
                    "return real values: np.real(z), np.imag(z), np.abs(z) or np.angle(z)",
                )
            continue
        if not isinstance(stmt, gast.Assign) or not site(stmt, values):
            continue
        value = stmt.value
        if not (nodes.names_read(value) & varied):
            continue
        if id(stmt) in ctx.calls:
            raise ctx.error(
                value,
                "a value that may be complex is passed to a function tangentlike "
                "differentiates from its source; complex values are followed within one "
                "function only",
                "compute the complex part in the calling function, or pass real values "
                "(np.real(z) and np.imag(z)) to the helper",
            )
        _check_operation(ctx, value, values)


def _check_operation(ctx: Context, value: gast.expr, values: frozenset[str]) -> None:
    if isinstance(value, (gast.BinOp, gast.UnaryOp)):
        primal: object = type(value.op)
        what = f"the operator {type(value.op).__name__}"
    elif isinstance(value, gast.Call):
        primal = ctx.scope.resolve(value.func)
        if primal in _SHAPES:
            return
        what = getattr(primal, "__qualname__", None) or getattr(primal, "__name__", "this call")
        what = f"{getattr(primal, '__module__', None) or ''}.{what}".lstrip(".")
    else:
        return  # a copy, an element, a container: linear, any values
    if not _complex_operand(value, values):
        return  # real operands: the real rule sees what it was written for
    role = ctx.registry.complex_role(primal)
    if role is None or role == "real-source":
        kind = "takes real values only" if role else "has a rule for real values only"
        raise ctx.error(
            value,
            f"{what} is applied where a value may be complex, and {kind}",
            "take np.real, np.imag, np.abs or np.angle of the complex value first "
            "(docs/supported.md lists the functions that take complex values)",
        )


def _statements(stmts: list[gast.stmt]):
    for stmt in stmts:
        yield stmt
        for field in ("body", "orelse"):
            yield from _statements(getattr(stmt, field, []) or [])
