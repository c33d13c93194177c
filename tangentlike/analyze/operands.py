"""Where a value's operands go: into its derivative, nowhere for a reason, or nowhere.

Assumes: A-normal form, and normalize.methods (an object whose class defines
`__getitem__` with `def` is indexed by calling it). Guarantees:
`operands(value)` sorts every local name a value reads into these kinds (a call that
does not fit its rule's signature has its names both flow and refused):
  - flows: the value depends on it differentiably; the transform gives it a
    contribution, or refuses the operation with a located error;
  - dropped for a reason that makes its gradient zero: an operator or function
    of the registry's non-differentiable list (integer, boolean or locally
    constant result), a comparison, a shape attribute, a parameter a rule marks
    constant (a shape, a dtype), an index into an array, list, tuple or dict
    (an index selects: integer, boolean or a key); a local made by a user class
    and indexed by a varied value is refused, a parameter of unknown class so indexed
    is checked at run time (`selections`), a local from elsewhere is taken for a
    container;
  - refused: read where no gradient can follow (a dictionary key, text, a rule
    parameter without derivative, the index of a global object's own `[...]`).
`check` raises, at the statement, when a name of the third kind varies with the
differentiated inputs and the statement's value reaches the output: unknown is
never zero.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import gast
import numpy as np

from ..normalize.objects import constructed
from ..parse.resolve import MISSING, Scope
from ..parse.source import ParsedFunction
from ..rules.instantiate import BindError, bind_arguments
from ..rules.registry import Registry
from ..syntax import nodes

# Attribute reads that never carry a gradient.
SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype", "itemsize", "nbytes"})


@dataclass(frozen=True)
class Refused:
    """Names read where no gradient can follow, with what to tell the user."""

    names: tuple[str, ...]
    what: str
    hint: str


@dataclass(frozen=True)
class Operands:
    flows: tuple[str, ...] = ()
    refused: tuple[Refused, ...] = field(default=())


def _names(exprs: list[gast.expr]) -> list[str]:
    """Local names among call arguments, literal elements and star-unpacked values."""
    out = []
    for e in exprs:
        if isinstance(e, gast.Name):
            out.append(e.id)
        elif isinstance(e, (gast.List, gast.Tuple)):
            out.extend(_names(e.elts))
        elif isinstance(e, gast.Starred):  # g(*seq): seq flows into the call
            out.extend(_names([e.value]))
    return out


def _read(node: gast.AST | None) -> tuple[str, ...]:
    return () if node is None else tuple(sorted(nodes.names_read(node)))


def _text_hint(registry: Registry) -> str:
    """What to do instead of making text of a differentiated value: the registry's advice
    for `str`, which f-strings and %-formatting share."""
    refusal = registry.refusal(builtins.str)
    return refusal.hint if refusal is not None else "compute with the number itself"


def operands(value: gast.expr, scope: Scope, registry: Registry) -> Operands:
    """Classify the local names `value` reads (see the module docstring)."""
    if isinstance(value, gast.Name):
        return Operands((value.id,))
    if isinstance(value, gast.BinOp):
        if isinstance(value.op, gast.Mod) and _is_text(value.left):
            what = "%-formatting a differentiated value makes text, which carries no gradient"
            return Operands(refused=(Refused(_read(value.right), what, _text_hint(registry)),))
        if registry.is_nondifferentiable(type(value.op)):
            return Operands()
        return Operands(tuple(_names([value.left, value.right])))
    if isinstance(value, gast.UnaryOp):
        if registry.is_nondifferentiable(type(value.op)):
            return Operands()
        return Operands(tuple(_names([value.operand])))
    if isinstance(value, gast.Compare):
        return Operands()  # a boolean
    if isinstance(value, (gast.Tuple, gast.List)):
        return Operands(tuple(_names(value.elts)))
    if isinstance(value, gast.Dict):
        keys = tuple(n for k in value.keys for n in _read(k))
        what = "a dictionary key computed from a differentiated value"
        hint = "use keys that do not depend on the differentiated inputs"
        return Operands(tuple(_names(value.values)), (Refused(keys, what, hint),))
    if isinstance(value, gast.Subscript):
        return _subscript(value, scope, registry)
    if isinstance(value, gast.Call):
        return _call(value, scope, registry)
    if isinstance(value, gast.Attribute):
        if value.attr in SHAPE_ATTRIBUTES:
            return Operands()
        return Operands(tuple(_names([value.value])))
    if isinstance(value, gast.JoinedStr):
        what = "an f-string of a differentiated value makes text, which carries no gradient"
        return Operands(refused=(Refused(_read(value), what, _text_hint(registry)),))
    # Any other value: everything it reads flows, so the transform differentiates it
    # or refuses it; nothing is dropped silently.
    return Operands(_read(value))


def _is_text(node: gast.expr) -> bool:
    return isinstance(node, gast.Constant) and isinstance(node.value, (str, bytes))


def _spelled(node: gast.expr) -> str:
    """The dotted name of a global (`np.r_`)."""
    if isinstance(node, gast.Attribute):
        return f"{_spelled(node.value)}.{node.attr}"
    return node.id if isinstance(node, gast.Name) else "this object"


def _subscript(value: gast.Subscript, scope: Scope, registry: Registry) -> Operands:
    """A local (an array, list, tuple or dict) or a global container, indexed: the index
    selects, so it is integer, boolean or a key, and the result is locally constant in it.
    Any other global object's `[...]` is its own code: refused unless the registry knows
    it concatenates (np.r_)."""
    base = value.value
    if isinstance(base, gast.Name) and scope.resolve(base) is MISSING:
        return Operands((base.id,))
    if isinstance(base, gast.Constant):
        return Operands()
    obj = scope.resolve(base)
    if registry.concatenates(obj):  # np.r_[a, 0:3, b]: the items flow, slices are ranges
        items = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
        if any(_is_text(e) for e in items):
            what = f"{_spelled(base)}[...] with a string directive"
            hint = "concatenate with np.concatenate, np.stack or np.column_stack"
            return Operands(refused=(Refused(_read(value.slice), what, hint),))
        flows = tuple(n for e in items if not isinstance(e, gast.Slice) for n in _read(e))
        bounds = tuple(n for e in items if isinstance(e, gast.Slice) for n in _read(e))
        what = f"a range bound in {_spelled(base)}[...] computed from a differentiated value"
        hint = "use np.linspace (whose endpoints are differentiable) or constant bounds"
        return Operands(flows, (Refused(bounds, what, hint),))
    if isinstance(obj, CONTAINERS):
        return Operands()
    what = f"indexing the global object {_spelled(base)} with a differentiated value"
    hint = (
        "index arrays, lists, tuples or dicts only; compute the value with NumPy operations "
        "on the differentiated arrays"
    )
    return Operands(refused=(Refused(_read(value.slice), what, hint),))


# Global objects whose `[index]` selects (integer, boolean or key index).
CONTAINERS = (np.ndarray, np.generic, list, tuple, dict, str, bytes, range)


def _call(value: gast.Call, scope: Scope, registry: Registry) -> Operands:
    callee = scope.resolve(value.func)
    arguments = [*value.args, *(k.value for k in value.keywords)]
    if callee is not MISSING and registry.is_nondifferentiable(callee):
        return Operands()
    refusal = registry.refusal(callee)
    name = getattr(callee, "__qualname__", None) or getattr(callee, "__name__", "this function")
    if refusal is not None:
        # The arguments still flow into the result: a refused call's result may reach the
        # output through another refused call (top_right(expm(frechet_block(x, g))) in a
        # gradient), and the first refusal must fire there, never a zero derivative.
        names = tuple(_names(arguments))
        return Operands(names, (Refused(names, f"{name} {refusal.what}", refusal.hint),))
    rule = registry.lookup(callee)
    if rule is None:
        return Operands(tuple(_names(arguments)))
    keywords = {k.arg: k.value for k in value.keywords}
    try:
        bound = bind_arguments(rule, value.args, keywords)
    except BindError as err:
        what = f"cannot apply the derivative rule of {rule.name}: {err}"
        hint = "call it with the arguments its rule expects"
        return Operands(tuple(_names(arguments)), (Refused(tuple(_names(arguments)), what, hint),))
    flows = tuple(_names([bound[p] for p in rule.params if p in rule.differentiable]))
    refused = tuple(
        Refused(
            _read(bound[p]),
            f"the gradient with respect to argument {p!r} of {rule.name} is not implemented",
            f"register a rule that covers {p!r} with @tangentlike.adjoint, "
            "or pass a value that does not depend on the differentiated inputs",
        )
        for p in rule.params
        if p not in rule.differentiable and p not in rule.constant
    )
    return Operands(flows, refused)


def data_operands(value: gast.expr, scope: Scope, registry: Registry) -> list[str]:
    """Local names whose value flows differentiably into `value`."""
    return list(operands(value, scope, registry).flows)


def check(
    parsed: ParsedFunction,
    fn: gast.FunctionDef,
    varied: frozenset[str],
    useful: frozenset[str],
    scope: Scope,
    registry: Registry,
    known: Mapping[str, object] | None = None,
) -> None:
    """Raise where a varied name is read, by a statement whose value reaches the output,
    in a place no gradient follows; also where a local made by a user class, or a
    parameter of a known class other than a container, is indexed by a varied value.
    `known`: the classes of parameters the gradient is built for."""
    objects = frozenset(constructed(fn, scope))
    for stmt in _assignments(fn.body):
        target = nodes.assigned_name(stmt)
        if target not in useful:
            continue
        if nodes.is_item_write(stmt):
            continue  # `y[index] = atom`: the atom flows into y, the index selects
        for refused in operands(stmt.value, scope, registry).refused:
            hit = [n for n in refused.names if n in varied]
            if hit:
                raise parsed.error(stmt.value, f"{refused.what} ({hit[0]!r})", refused.hint)
        base = _indexed_by_varied(stmt, varied)
        if base is None:
            continue
        cls = (known or {}).get(base)
        param = base in nodes.all_param_names(fn)
        if (param and cls is not None and not _container(cls)) or base in objects:
            raise parsed.error(
                stmt.value,
                f"indexing {base!r}, an object with its own [...], with a differentiated value",
                "define __getitem__ with `def` in its class (it is then differentiated), "
                "or index an array, list, tuple or dict",
            )


def selections(
    parsed: ParsedFunction,
    fn: gast.FunctionDef,
    varied: frozenset[str],
    useful: frozenset[str],
    known: Mapping[str, object] | None = None,
) -> dict[int, tuple[str, str]]:
    """id(statement) -> (the parameter it indexes by a varied value, where), for the
    statements whose parameter's class is unknown when the gradient is built: the
    generated code checks at run time that the parameter is a container
    (runtime.selects), since an object with its own `__getitem__` would compute from the
    index."""
    found = {}
    for stmt in _assignments(fn.body):
        base = _indexed_by_varied(stmt, varied)
        if (
            base is not None
            and nodes.assigned_name(stmt) in useful
            and base in nodes.all_param_names(fn)
            and (known or {}).get(base) is None
        ):
            line = getattr(stmt, "lineno", None) or parsed.first_line
            where = f"{parsed.basename}:{line}: {base!r} is indexed by a differentiated value"
            found[id(stmt)] = (base, where)
    return found


def _indexed_by_varied(stmt: gast.Assign, varied: frozenset[str]) -> str | None:
    """The local a statement `t = base[index]` indexes when the index varies and the
    local does not (a varied local holds arrays and containers the inputs flow into)."""
    value = stmt.value
    if (
        not nodes.is_item_write(stmt)
        and isinstance(value, gast.Subscript)
        and isinstance(value.value, gast.Name)
        and value.value.id not in varied
        and set(_read(value.slice)) & varied
    ):
        return value.value.id
    return None


def _container(cls: object) -> bool:
    return isinstance(cls, type) and issubclass(cls, CONTAINERS)


def _assignments(stmts: list[gast.stmt]) -> Iterator[gast.Assign]:
    for stmt in stmts:
        if isinstance(stmt, gast.Assign):
            yield stmt
        for part in ("body", "orelse"):
            yield from _assignments(getattr(stmt, part, None) or [])
