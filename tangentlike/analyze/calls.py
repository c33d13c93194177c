"""How a call's arguments meet the callee's parameters when star-unpacking hides some.

`g(x, *args, **kw)`: the positions before the first `*seq` and the named keywords
are known; what `*seq` and `**mapping` fill is known only at run time. Such calls
run as written; the gradient may flow only through the known arguments.

Assumes: A-normal form and its activity. Guarantees: `check` raises, at the
call's line, when a differentiated value would travel where its adjoint cannot
follow: inside `*seq`/`**mapping`, after a `*seq` (its position is unknown), into
a callee's own `*args`/`**kwargs`, or into a rule-backed function through
star-unpacking. `bind_call` binds the known arguments only.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import gast
import numpy as np

from .. import runtime
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..rules.registry import Registry
from ..syntax import nodes
from ..syntax.nodes import walk
from . import containers, plain_calls
from .activity import Activity, user_function
from .effects import Effects

EffectsOf = Callable[[object], Effects | None]


def hides_arguments(call: gast.Call) -> bool:
    return any(isinstance(a, gast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    )


def bind_call(callee: Callable, call: gast.Call) -> inspect.BoundArguments:
    """Bind the call's argument nodes to `callee`'s parameters (TypeError if they do
    not fit); with star-unpacking, only the arguments before it and named keywords."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    signature = inspect.signature(callee)
    if not hides_arguments(call):
        return signature.bind(*call.args, **keywords)
    known = []
    for a in call.args:
        if isinstance(a, gast.Starred):
            break
        known.append(a)
    return signature.bind_partial(*known, **keywords)


def active_parameters(bound: inspect.BoundArguments, active: set[str]) -> tuple[str, ...]:
    """The callee's parameters a call passes a differentiated name to: named ones, and a
    `*args` parameter one of whose collected arguments is differentiated (its adjoint is
    a tuple, one item per collected argument)."""

    def differentiated(value: object) -> bool:
        if isinstance(value, tuple):  # collected by *args
            return any(differentiated(v) for v in value)
        return isinstance(value, gast.Name) and value.id in active

    return tuple(p for p, v in bound.arguments.items() if differentiated(v))


def check(
    parsed: ParsedFunction,
    fn: gast.FunctionDef,
    activity: Activity,
    scope: Scope,
    registry: Registry,
    effects_of: EffectsOf | None = None,
) -> None:
    """`effects_of(callee)`: a user function's Effects (None: unknown), which lets a call
    whose result is unused through when it cannot change any argument it is given."""
    active = activity.active
    read = nodes.names_read(fn)
    for target, call in _calls(fn.body):
        if target is None or target not in active:
            if target is None or target not in read:  # a call made for its effects
                _check_effects(parsed, call, activity, scope, registry, effects_of)
            continue
        hidden = [a.value for a in call.args if isinstance(a, gast.Starred)]
        hidden += [k.value for k in call.keywords if k.arg is None]
        if any(nodes.names_read(h) & active for h in hidden):
            raise parsed.error(
                call,
                "a differentiated value passed by star-unpacking (*seq or **mapping)",
                "pass it as an explicit argument",
            )
        if not hides_arguments(call) and not _has_varargs(scope.resolve(call.func)):
            continue
        starred = False
        for a in call.args:
            starred = starred or isinstance(a, gast.Starred)
            if starred and nodes.names_read(a) & active:
                raise parsed.error(
                    call,
                    "a differentiated value passed after *seq (its position is unknown)",
                    "pass it before the *seq, or by keyword",
                )
        callee = scope.resolve(call.func)
        if registry.lookup(callee) is not None and hides_arguments(call):
            raise parsed.error(
                call,
                f"star-unpacking into {getattr(callee, '__name__', 'this function')}, whose "
                "derivative rule needs to see every argument",
                "spell the arguments out",
            )
        if not user_function(callee, registry):
            continue
        try:
            bound = bind_call(callee, call)
        except TypeError:
            continue  # the transform reports the mismatch
        params = inspect.signature(callee).parameters
        for name, value in bound.arguments.items():
            kind = params[name].kind
            if kind is not inspect.Parameter.VAR_KEYWORD:
                continue  # *args: a differentiated parameter holding a tuple
            values = value.values() if isinstance(value, dict) else value
            if any(nodes.names_read(v) & active for v in values):
                raise parsed.error(
                    call,
                    f"a differentiated value passed into {callee.__qualname__}'s "
                    f"{'*' if kind is inspect.Parameter.VAR_POSITIONAL else '**'}{name}",
                    f"give {callee.__qualname__} a named parameter for it",
                )


# NumPy functions writing into their first argument (np.add.at and the other ufuncs'
# `.at` too): a helper calling one changes that parameter in place for its callers.
WRITERS = ("copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis", "shuffle")


def writes_first_argument(callee: object) -> bool:
    """Whether callee is a NumPy function that writes into its first argument."""
    if isinstance(getattr(callee, "__self__", None), np.ufunc):
        return getattr(callee, "__name__", "") == "at"
    module = getattr(callee, "__module__", None) or ""
    name = getattr(callee, "__name__", "")
    return name in WRITERS and module.split(".")[0] == "numpy"


def _check_effects(
    parsed: ParsedFunction,
    call: gast.Call,
    activity: Activity,
    scope: Scope,
    registry: Registry,
    effects_of: EffectsOf | None,
) -> None:
    """A call whose result carries no gradient must not be able to move a differentiated
    value into an array the output depends on (`helper(out, x)` writing x into out)."""
    callee = scope.resolve(call.func)
    if registry.is_nondifferentiable(callee) or registry.lookup(callee) is not None:
        return  # print, shapes, ...; rule-backed NumPy functions do not write their inputs
    if runtime.owns(callee):
        return  # a check the compiler inserted (runtime.unshared)
    if effects_of is not None and _writes_nothing_given(callee, call, scope, registry, effects_of):
        return
    read = [n.id for n in walk(call) if isinstance(n, gast.Name) and n is not call.func]
    varied = [n for n in read if n in activity.varied]
    useful = [n for n in read if n in activity.useful]
    if varied and writes_first_argument(callee):  # into memory other names may share
        owner = getattr(callee, "__self__", None)
        name = f"np.{owner.__name__}.at" if isinstance(owner, np.ufunc) else f"np.{callee.__name__}"
        raise parsed.error(
            call,
            f"{name}(...) writes into its first argument in place, and it receives the "
            f"differentiated value {varied[0]!r}: the gradient cannot follow that write "
            "(nor the other names sharing that memory)",
            "make the new array out of place (b = np.where(mask, v, b), b = v.copy(), "
            f"b = b + ...), or pass tl.stop_gradient({varied[0]}) if no gradient should flow",
        )
    if varied and useful:
        name = getattr(callee, "__qualname__", None) or getattr(callee, "__name__", "this call")
        raise parsed.error(
            call,
            f"the result of {name}(...) is not used, but it receives the differentiated "
            f"value {varied[0]!r} together with {useful[0]!r}, which the output depends on: "
            "if it writes one into the other in place, the gradient cannot follow",
            "use the function's return value (y = f(...)), or pass "
            f"tl.stop_gradient({varied[0]}) if no gradient should flow",
        )


def _writes_nothing_given(
    callee: object, call: gast.Call, scope: Scope, registry: Registry, effects_of: EffectsOf
) -> bool:
    """Whether `callee` is a plain user function that writes only as its Effects say
    (analyze.plain_calls: no `np.copyto`, `a.fill`, ...), whose Effects are known, and
    whose parameters it may change in place (by `+=`, by index, by `out=`, by list
    methods, through the helpers it calls) receive only constants or their defaults at
    this call: then it changes no memory the caller holds."""
    if not inspect.isfunction(callee) or not plain_calls.summarized(
        callee, registry, scope.recorder
    ):
        return False  # a bound method may change its object
    if hides_arguments(call):
        return False  # *seq / **mapping may fill any parameter
    effects = effects_of(callee)
    if effects is None:
        return False
    try:
        bound = bind_call(callee, call)
    except TypeError:
        return False
    params = inspect.signature(callee).parameters
    for param, _ in effects.mutated:
        value = bound.arguments.get(param)
        if value is None:  # its default: a number, a string or None changes nothing held
            default = params[param].default if param in params else None
            if not isinstance(default, (int, float, complex, str, bytes, type(None))):
                return False
            continue
        atoms = list(value.values()) if isinstance(value, dict) else value
        atoms = list(atoms) if isinstance(atoms, tuple) else [atoms]
        if not all(isinstance(a, gast.Constant) for a in atoms):
            return False
    return True


def _has_varargs(callee: object) -> bool:
    if not inspect.isfunction(callee):
        return False
    kinds = {p.kind for p in inspect.signature(callee).parameters.values()}
    return bool(kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD})


def _calls(stmts: list[gast.stmt]) -> Iterator[tuple[str | None, gast.Call]]:
    for stmt in stmts:
        if isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call):
            yield nodes.assigned_name(stmt), stmt.value
        elif (
            isinstance(stmt, gast.Expr)
            and isinstance(stmt.value, gast.Call)
            and containers.mutation(stmt) is None  # xs.append(v): transform/containers.py
        ):
            yield None, stmt.value
        for part in ("body", "orelse"):
            yield from _calls(getattr(stmt, part, None) or [])
