"""The registry of derivative rules: an object, built from the rule files.

Keys are the primal objects themselves (np.exp, a user function) or gast
operator classes for Python operators. The machinery asks the registry; it
never names a NumPy function itself.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..errors import InternalError
from .tangent import NoForwardFormError, TangentRule, derived_tangent, tangent_from_function
from .template import Rule, rule_from_expressions, rule_from_function
from .value_kinds import ValueKinds


@dataclass(frozen=True)
class Method:
    """How an array method call `x.name(...)` maps to a function form `func(x, ...)`."""

    dotted: str  # "numpy.sum"
    pack_varargs: bool = False  # x.reshape(2, 3) -> np.reshape(x, (2, 3))
    copies: bool = False  # x.flatten() -> np.ravel(np.copy(x)): never a view of x


@dataclass(frozen=True)
class Refusal:
    """Why a function must not receive a differentiated value its caller's result needs."""

    what: str  # "converts a number to text"
    hint: str  # what to do instead


class Registry(ValueKinds):
    """Rules, non-differentiable functions and array methods known to the compiler
    (and, from ValueKinds, what kinds of values functions make).

    Non-differentiable functions (`nondifferentiable`) have an integer, boolean or
    locally constant result in every floating argument: their gradient is zero. Refused
    functions (`refuse`) lose the derivative in another way (text), so a differentiated
    value reaching the output through them is an error, never a zero.
    """

    def __init__(self) -> None:
        self._rules: dict[object, Rule] = {}
        self._tangents: dict[object, TangentRule] = {}  # forward forms given as templates
        self._no_tangent: dict[object, str] = {}  # rules without a forward form, and why
        self._nondiff: dict[object, str] = {}
        self._methods: dict[str, Method] = {}
        self._attributes: dict[str, str] = {}
        # module -> its rules' registration (None while it runs)
        self._deferred: dict[str, Callable[[Registry], None] | None] = {}
        self._init_kinds()
        self._refused: dict[object, Refusal] = {}
        self._concatenators: set[object] = set()
        # complex values (analyze/complexness.py): each function's role, and the forms
        # of a rule that hold for complex values where the real form does not
        self._complex_roles: dict[object, str] = {}
        self._complex_forms: dict[object, tuple[Rule, TangentRule | None]] = {}
        # primals with a rule from `tl.adjoint`: a rule file loaded later (SciPy's are
        # deferred) never replaces it, nor gives it a forward form or a listing
        self._user: set[object] = set()
        self._filing: int | None = None  # the thread whose rule files are registering
        self._builtins: Callable[[Registry], None] | None = None
        # Loading rule files is lazy; threads asking at once wait for the one loading them
        # (reentrant: the rule files register through the methods that wait).
        self._loading = threading.RLock()
        self._loaded = False
        self._in_load = False
        self._broken: InternalError | None = None  # a rule file failed to load
        self.version = 0

    def builtins(self, load: Callable[[Registry], None]) -> None:
        """Rule files to load on first use: a gradient loaded from the disk cache never
        needs them, and importing them costs more than loading the gradient."""
        with self._loading:
            self._builtins, self._loaded = load, False

    def _ready(self) -> None:
        """Load the built-in rule files once; a query from another thread waits for them."""
        if self._loaded:
            return
        with self._loading:
            if self._broken is not None:  # never answer from a half-loaded registry
                raise self._broken
            if self._builtins is not None:
                load, self._builtins = self._builtins, None
                version = self.version
                self._in_load = True
                filing, self._filing = self._filing, threading.get_ident()
                try:
                    load(self)
                except BaseException as err:
                    self._broken = InternalError(
                        f"loading the built-in derivative rules failed: {err!r}"
                    )
                    raise self._broken from err
                finally:
                    self._filing = filing
                    self._in_load = False
                self.version = version  # built-in rules are part of the compiler, not a change
            if not self._in_load:  # not a rule file registering through this method
                self._loaded = True

    def defer(self, module: str, register: Callable[[Registry], None]) -> None:
        """Register rules for `module` (e.g. scipy.special) once that module is imported.

        Importing SciPy costs a third of a second; a program that never imports it
        should not pay for its rules.
        """
        self._deferred[module] = register

    def _load_deferred(self, everything: bool = False) -> None:
        import sys

        with self._loading:  # another thread waits until the rules are in
            for module, register in list(self._deferred.items()):
                if register is not None and (everything or module in sys.modules):
                    self._deferred[module] = None  # being loaded: a nested query skips it
                    filing, self._filing = self._filing, threading.get_ident()
                    try:
                        register(self)
                    finally:
                        self._filing = filing
                        del self._deferred[module]

    # -- building -------------------------------------------------------------
    def _kept(self, primal: object) -> bool:
        """Whether a rule file is registering something for a primal the user gave a rule."""
        return self._filing == threading.get_ident() and _key(primal) in self._user

    def add(self, rule: Rule) -> Rule:
        self._ready()
        key = _key(rule.primal)
        if rule.origin == "user":
            self._user.add(key)
            self._complex_forms.pop(key, None)  # the user's rule serves complex values too
        elif self._kept(key):
            return self._rules[key]
        self._rules[key] = rule
        self._tangents.pop(_key(rule.primal), None)  # a new reverse form needs its own tangent
        self._no_tangent.pop(_key(rule.primal), None)
        self._nondiff.pop(_key(rule.primal), None)
        self.version += 1
        return rule

    def adjoint(
        self,
        primal: object,
        *,
        unbroadcast: bool = False,
        origin: str = "builtin",
        restriction: str = "",
        constant: tuple[str, ...] = (),
    ) -> Callable[[Callable], Callable]:
        """Decorator: register the template function as the rule for `primal`.

        `constant`: parameters the result is locally constant in (shapes, dtypes, an
        array read for its shape only); any other parameter the template gives no
        `d[param]` is refused when a differentiated value reaches it."""

        def register(template: Callable) -> Callable:
            self.add(
                rule_from_function(
                    primal,
                    template,
                    unbroadcast=unbroadcast,
                    origin=origin,
                    restriction=restriction,
                    constant=constant,
                )
            )
            return template

        return register

    def tangent(self, primal: object, *, origin: str = "builtin") -> Callable[[Callable], Callable]:
        """Decorator: register the template function as the forward form (tangent) of
        `primal`'s rule, which must be registered first (rules/tangent.py)."""

        def register(template: Callable) -> Callable:
            self._ready()
            if self._kept(primal):
                return template
            rule = self._rules.get(_key(primal))
            users = rule is not None and rule.origin == "user"  # the user's own rule's form
            self._tangents[_key(primal)] = tangent_from_function(
                rule, template, origin="user" if users else origin
            )
            self.version += 1
            return template

        return register

    def add_tangent(self, trule: TangentRule) -> TangentRule:
        """Register a forward form built by a rule kind (rules/kinds.py)."""
        self._ready()
        if self._kept(trule.primal):
            return trule
        self._tangents[_key(trule.primal)] = trule
        self._no_tangent.pop(_key(trule.primal), None)
        self.version += 1
        return trule

    def no_tangent(self, reasons: Mapping[object, str]) -> None:
        """Rules that have no forward form yet, each with the reason: asking for one is
        an error that says so (unknown is never zero)."""
        self._ready()
        for primal, why in reasons.items():
            if not self._kept(primal):
                self._no_tangent[_key(primal)] = why

    def lookup_tangent(self, primal: object) -> TangentRule | None:
        """The forward form of `primal`'s rule: its template, one a rule kind derived, or
        the one derived from an elementwise rule's expressions. None when `primal` has no
        rule at all (ask `lookup` and `is_nondifferentiable` first); a rule without a
        forward form raises NoForwardFormError naming the rule and why."""
        rule = self.lookup(primal)
        if rule is None:
            return None
        key = _key(primal)
        if key not in self._tangents:
            derived = derived_tangent(rule)
            if derived is None:
                raise NoForwardFormError(rule, self._no_tangent.get(key, ""))
            self._tangents[key] = derived
        return self._tangents[key]

    def has_tangent(self, primal: object) -> bool:
        """Whether `primal` has a rule with a forward form."""
        try:
            return self.lookup_tangent(primal) is not None
        except NoForwardFormError:
            return False

    def expressions(
        self,
        primal: object,
        params: tuple[str, ...],
        exprs: dict[str, str],
        *,
        unbroadcast: bool,
        globals_: dict[str, object],
        defaults: dict[str, object] | None = None,
        restriction: str = "",
    ) -> None:
        self.add(
            rule_from_expressions(
                primal,
                params,
                exprs,
                unbroadcast=unbroadcast,
                globals_=globals_,
                defaults=defaults,
                restriction=restriction,
            )
        )

    def nondifferentiable(self, reasons: Mapping[object, str]) -> None:
        """Functions (or operator classes) whose gradient is zero, each with the reason:
        its result is integer, boolean or locally constant in every floating argument
        (tests/rules/test_nondifferentiable.py checks each one numerically)."""
        self._ready()
        for primal, why in reasons.items():
            if not self._kept(primal):
                self._nondiff[_key(primal)] = why
        self.version += 1

    def nondifferentiable_reason(self, primal: object) -> str | None:
        """Why `primal` has no gradient, or None if it is not listed."""
        self._ready()
        self._load_deferred(everything=True)
        try:
            return self._nondiff.get(_key(primal))
        except TypeError:
            return None

    def refuse(self, primals: Iterable[object], what: str, hint: str) -> None:
        """Functions whose result depends on their arguments in a way no gradient follows."""
        self._ready()
        for primal in primals:
            if not self._kept(primal):
                self._refused[_key(primal)] = Refusal(what, hint)
        self.version += 1

    def refusal(self, primal: object) -> Refusal | None:
        self._ready()
        try:
            return self._refused.get(_key(primal))
        except TypeError:
            return None

    def index_concatenators(self, objects: Iterable[object]) -> None:
        """Objects whose subscript concatenates its items (`np.r_[a, 0:3, b]`): the
        backward sweep gives each item its piece (`runtime.unconcatenate_index`)."""
        self._ready()
        self._concatenators.update(objects)

    def concatenates(self, obj: object) -> bool:
        self._ready()
        try:
            return obj in self._concatenators
        except TypeError:
            return False

    def refused_primals(self) -> dict[object, Refusal]:
        self._ready()
        self._load_deferred(everything=True)
        return dict(self._refused)

    def concatenator_objects(self) -> list[object]:
        self._ready()
        return list(self._concatenators)

    def method(
        self, name: str, dotted: str, *, pack_varargs: bool = False, copies: bool = False
    ) -> None:
        self._ready()
        self._methods[name] = Method(dotted, pack_varargs, copies)

    def attribute(self, name: str, dotted: str) -> None:
        """An attribute read `x.name` that is the call `func(x)`, e.g. `.T`."""
        self._ready()
        self._attributes[name] = dotted

    def complex_roles(self, roles: Mapping[object, str]) -> None:
        """What each function (or operator class) does with complex values: "safe" (its
        rule holds for them), "source" (also makes them from real ones: np.fft.fft),
        "real-source" (makes them from real values only: np.fft.rfft) or "sink" (takes
        them, gives a real result: np.abs). With no role, refused where one may be."""
        self._ready()
        self._complex_roles.update({_key(p): r for p, r in roles.items()})

    def complex_form(self, primal: object, rule: Rule, tangent: TangentRule | None) -> None:
        """The rule (and forward form) that `primal` takes where a value may be complex,
        when its real form would be wrong there (np.abs: `g * np.sign(x)`)."""
        self._ready()
        if not self._kept(primal):
            self._complex_forms[_key(primal)] = (rule, tangent)

    # -- queries ----------------------------------------------------------------
    def complex_role(self, primal: object) -> str | None:
        return self._complex_lookup(self._complex_roles, primal)

    def complex_rule(self, primal: object) -> tuple[Rule, TangentRule | None] | None:
        """The complex form of `primal`'s rule, None when its rule serves both."""
        return self._complex_lookup(self._complex_forms, primal)

    def _complex_lookup(self, table: dict, primal: object):
        self._ready()
        try:
            return table.get(_key(primal))
        except TypeError:  # an unhashable object has no role
            return None

    def complex_table(self) -> tuple[dict[object, str], dict[object, tuple]]:
        """(every role, every complex form), for docs/supported.md and the tests."""
        self._ready()
        return dict(self._complex_roles), dict(self._complex_forms)

    def lookup(self, primal: object) -> Rule | None:
        self._ready()
        try:
            rule = self._rules.get(_key(primal))
        except TypeError:
            return None
        if rule is None and self._deferred:
            self._load_deferred()
            rule = self._rules.get(_key(primal))
        return rule

    def is_nondifferentiable(self, primal: object) -> bool:
        self._ready()
        try:
            key = _key(primal)
        except TypeError:
            return False
        if key not in self._nondiff and self._deferred:
            self._load_deferred()
        return key in self._nondiff

    def method_for(self, name: str) -> Method | None:
        self._ready()
        return self._methods.get(name)

    def attribute_for(self, name: str) -> str | None:
        self._ready()
        return self._attributes.get(name)

    def rules(self) -> list[Rule]:
        self._ready()
        self._load_deferred(everything=True)
        return list(self._rules.values())

    def nondifferentiable_primals(self) -> list[object]:
        self._ready()
        self._load_deferred(everything=True)
        return list(self._nondiff)

    def copy(self) -> Registry:
        self._ready()
        with self._loading:
            return self._copy()

    def _copy(self) -> Registry:
        other = Registry()
        other._rules = dict(self._rules)
        other._tangents = dict(self._tangents)
        other._no_tangent = dict(self._no_tangent)
        other._nondiff = dict(self._nondiff)
        other._methods = dict(self._methods)
        other._attributes = dict(self._attributes)
        other._deferred = {m: r for m, r in self._deferred.items() if r is not None}
        other._copy_kinds(self)
        other._refused = dict(self._refused)
        other._concatenators = set(self._concatenators)
        other._complex_roles = dict(self._complex_roles)
        other._complex_forms = dict(self._complex_forms)
        other._user = set(self._user)
        other.version = self.version
        return other

    def fingerprint(self) -> str:
        """A digest of the user-registered rules (built-in rules are fixed per version)."""
        h = hashlib.sha256()
        for rule in self._rules.values():
            if rule.origin == "user":
                body = [_dump(s) for s in rule.body]
                h.update(repr((rule.name, rule.where, rule.params, body)).encode())
        return h.hexdigest()[:16]


def _dump(node: object) -> str:
    import gast

    return gast.dump(node)


def _key(primal: object) -> object:
    hash(primal)
    return primal


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The process-wide registry: built-in rule files plus rules from `tl.adjoint`."""
    global _default
    if _default is None:
        with _default_lock:  # two threads starting at once must share one registry
            if _default is None:
                registry = Registry()
                registry.builtins(load_rule_files)
                _default = registry
    return _default


def load_rule_files(registry: Registry) -> None:
    """The built-in rule files (SciPy's deferred until the program imports SciPy)."""
    from . import builtins as builtin_rules
    from . import math as math_rules
    from . import numpy as numpy_rules
    from . import (
        numpy_fft,
        numpy_linalg,
        operators,
        runtime_helpers,
        scipy_linalg,
        scipy_signal,
        scipy_special,
        scipy_stats,
    )

    operators.register(registry)
    builtin_rules.register(registry)
    math_rules.register(registry)
    numpy_rules.register(registry)
    numpy_linalg.register(registry)
    numpy_fft.register(registry)
    runtime_helpers.register(registry)
    registry.defer("scipy.special", scipy_special.register)
    registry.defer("scipy.stats", scipy_stats.register)
    registry.defer("scipy.signal", scipy_signal.register)
    registry.defer("scipy.linalg", scipy_linalg.register)
    registry.defer("scipy.integrate", scipy_signal.register_integrate)
