"""The checks a built gradient runs before each call, so that it never computes a stale one.

A gradient is built from what its function's names and attributes meant at build time
(parse/record.py records each step: a global, a builtin, a closure cell, an attribute, a
class, a method's function, a function's code and defaults). `Guards` re-evaluates every
step and compares with what the build found, in one generated function (`check`), cheap
enough to run on every call.

Assumes: the resolutions of one build (or of a validated disk-cache manifest). Guarantees:
`check()` is True only if every step still gives the same object (the same function and
receiver for a bound method; for a literal, the same type and repr; for an array the
generated code reads when it runs, an array); a watched fingerprint (a dict's keys, the
classes of an object's attributes) still has its value; and the rule registry has not
changed. When `check()` fails, `refresh()` decides whether the gradient still holds: a
literal rebound to an equal one, or a global array the generated module imported by name
rebound to another array (rebound there too), is refreshed in place; anything else asks
for a rebuild. A step whose value is fresh at each evaluation (a property making new
objects) is compared by a description of its value instead, so a check that holds after
the build holds until something changes.
"""

from __future__ import annotations

import builtins
import functools
import keyword
import logging
import types
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..parse.record import FINGERPRINTS, Resolution, Step, Watch, follow
from ..parse.resolve import primal_of

log = logging.getLogger("tangentlike")

_LITERALS = (bool, int, float, complex, str, bytes, type(None))
_MISSING = object()
_FUNCTION_PARTS = {"code": "__code__", "defaults": "__defaults__", "kwdefaults": "__kwdefaults__"}


def is_literal(value: object) -> bool:
    if isinstance(value, _LITERALS):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(is_literal(v) for v in value)
    return False


def _same_literal(a: object, b: object) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


def _same_callable(a: object, b: object) -> bool:
    """Whether `a` and `b` run the same code on the same objects (bound methods and
    `tl.differentiable` wrappers are made anew at each attribute read)."""
    if a is b:
        return True
    if isinstance(a, types.MethodType):
        return (
            isinstance(b, types.MethodType)
            and a.__func__ is b.__func__
            and a.__self__ is b.__self__
        )
    pa, pb = primal_of(a), primal_of(b)
    return (pa is not a or pb is not b) and _same_callable(pa, pb)


def _fresh_each_time(value: object) -> bool:
    return isinstance(value, types.MethodType) or primal_of(value) is not value


@dataclass(eq=False)
class _Guard:
    """One recorded step: how to read it again and how to compare."""

    base: object
    step: Step
    value: object
    # "is"; "literal" (the same object, or refreshed when an equal one); "equal" (type and
    # repr, for a literal made anew at each read); "callable" (same code and receiver);
    # "kind" (its type only: an array the generated code reads when it runs, or a value
    # made anew at each read); "bound" (an array the generated module imported: rebindable)
    mode: str
    target: dict | None = None  # "bound": the generated module's namespace ...
    bound: str = ""  # ... and the name the value has there

    def read(self) -> object:
        try:
            return follow(self.base, self.step)
        except Exception:
            return _MISSING

    def holds(self, now: object) -> bool:
        if self.mode in ("literal", "equal"):
            return now is self.value or _same_literal(now, self.value)
        if self.mode == "callable":
            return _same_callable(now, self.value)
        if self.mode == "kind":
            return type(now) is type(self.value)
        if self.mode == "bound":
            return now is self.target.get(self.bound, _MISSING)  # type: ignore[union-attr]
        return now is self.value

    def expression(self, i: int, constants: dict[str, object]) -> str:
        """Python source of this guard's test; the objects it names go into `constants`."""
        kind, name = self.step
        b, v = f"_b{i}", f"_v{i}"
        constants[b] = self.base
        if kind == "builtin":  # not shadowed by a global, and the builtin itself unchanged
            constants[b] = self.base.__globals__  # type: ignore[attr-defined]
            constants["_builtins"] = vars(builtins)
            test = self._compare(f"_builtins[{name!r}]", v, constants)
            return f"{name!r} not in {b} and {test}"
        if kind == "global":
            constants[b] = self.base.__globals__  # type: ignore[attr-defined]
            read = f"{b}[{name!r}]"
        elif kind == "cell":
            func = self.base
            constants[b] = func.__closure__[func.__code__.co_freevars.index(name)]  # type: ignore[attr-defined]
            read = f"{b}.cell_contents"
        elif kind == "attr":
            plain = name.isidentifier() and not keyword.iskeyword(name)
            read = f"{b}.{name}" if plain else f"getattr({b}, {name!r})"
        elif kind == "type":
            read = f"type({b})"
        elif kind == "mro":
            read = f"{b}.__mro__[{int(name)}]"
        else:
            read = f"{b}.{_FUNCTION_PARTS[kind]}"
        return self._compare(read, v, constants)

    def _compare(self, read: str, v: str, constants: dict[str, object]) -> str:
        if self.mode == "callable":
            constants["_same_callable"] = _same_callable
            constants[v] = self.value
            return f"_same_callable({read}, {v})"
        if self.mode == "kind":
            constants[v] = type(self.value)
            return f"type({read}) is {v}"
        if self.mode == "equal":
            constants["_same_literal"] = _same_literal
            constants[v] = self.value
            return f"_same_literal({read}, {v})"
        if self.mode == "bound":
            constants[v] = self.target
            return f"{read} is {v}[{self.bound!r}]"
        constants[v] = self.value
        return f"{read} is {v}"


def _mode(step: Step, value: object, bound: str) -> str:
    if is_literal(value):
        return "literal"
    if type(value) is np.ndarray:
        return "bound" if bound else "kind" if step[0] == "attr" else "is"
    if _fresh_each_time(value):
        return "callable"
    return "is"


def _immutable(base: object) -> bool:
    """Objects whose parts never change: a bound method, a partial, a code object."""
    return isinstance(base, (types.MethodType, functools.partial, types.CodeType))


class Guards:
    """The compiled checks of one built gradient (see the module docstring)."""

    def __init__(
        self,
        resolutions: list[Resolution],
        watches: list[Watch],
        bindings: dict[tuple[int, Step], str],
        namespace: dict,
        registry: object,
    ) -> None:
        self.namespace = namespace  # the generated module's, for rebinding arrays
        self.registry = registry
        self.version = registry.version  # type: ignore[attr-defined]
        self.guards: list[_Guard] = []
        for r in resolutions:
            if _immutable(r.base):
                continue
            bound = bindings.get((id(r.base), r.step), "")
            if bound and namespace.get(bound, _MISSING) is not r.value:
                bound = ""  # not bound by that name after all (renamed, or a generated def)
            mode = _mode(r.step, r.value, bound)
            guard = _Guard(r.base, r.step, r.value, mode, namespace if bound else None, bound)
            now = guard.read()
            if mode == "literal" and now is not r.value and guard.holds(now):
                guard.mode = "equal"  # a literal made anew at each read (a property)
            elif not guard.holds(now):  # an object made anew at each read: compare its kind
                log.debug("guard %s of %r is not steady; compared by kind", r.step, r.base)
                guard.mode = "kind"
            self.guards.append(guard)
        self.watches = list(watches)
        self.check: Callable[[], bool] = self._compile()

    def _compile(self) -> Callable[[], bool]:
        constants: dict[str, object] = {"_registry": self.registry, "_version": self.version}
        tests = [g.expression(i, constants) for i, g in enumerate(self.guards)]
        for k, w in enumerate(self.watches):
            constants[f"_w{k}"], constants[f"_f{k}"] = w.obj, FINGERPRINTS[w.kind]
            constants[f"_x{k}"] = w.value
            tests.append(f"_f{k}(_w{k}) == _x{k}")
        tests.append("_registry.version == _version")
        body = "\n            and ".join(tests)
        # the objects it compares with are closure variables of a maker
        text = (
            f"def make({', '.join(constants)}):\n"
            f"    def check():\n"
            f"        try:\n"
            f"            return (\n                {body}\n            )\n"
            f"        except Exception:\n"
            f"            return False\n"
            f"    return check\n"
        )
        scope: dict[str, object] = {}
        exec(compile(text, "<tangentlike guards>", "exec"), scope)  # our own text
        check = scope["make"](**constants)  # type: ignore[operator]
        check.source = text
        return check

    def refresh(self) -> bool:
        """After `check()` failed: whether the gradient still holds, refreshing what can
        be refreshed in place (see the module docstring). False: rebuild it."""
        if self.registry.version != self.version:  # type: ignore[attr-defined]
            return False
        if any(FINGERPRINTS[w.kind](w.obj) != w.value for w in self.watches):
            return False
        changed: list[tuple[_Guard, object]] = []
        for guard in self.guards:
            try:
                now = guard.read()
            except Exception:
                return False
            if guard.holds(now):
                if guard.mode == "literal" and now is not guard.value:
                    changed.append((guard, now))
                continue
            if guard.mode == "bound" and type(now) is np.ndarray:
                changed.append((guard, now))
                continue
            return False
        for guard, now in changed:
            if guard.mode == "bound":
                guard.target[guard.bound] = now  # type: ignore[index]
            guard.value = now
        self.check = self._compile()
        return True
