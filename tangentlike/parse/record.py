"""What a build relied on: every name and attribute it resolved, every text it parsed.

The resolver (parse/resolve.py Scope), the parser (parse/source.py) and the passes that
look inside objects (normalize/methods.py: partials, bound methods, classes) report to
the Recorder of their build, handed to them explicitly. A build's record is complete:
whatever the generated text depends on outside itself is one of its Resolutions (an
object reached from another by one step), Texts or Watches.

Guarantees: each Resolution is kept once per (base object, step); an object reached
from a root (the entry function, a class the gradient is specialised for) through
recorded steps has a Locator, the path a fresh process can follow to find it again.
The record holds references to every object in it (so ids stay unique while it lives).
compile/guards.py turns the record into the checks a gradient runs before each call;
compile/manifest.py into what a disk-cache entry must match before it is trusted.
"""

from __future__ import annotations

import builtins
import hashlib
import types
from collections.abc import Callable
from dataclasses import dataclass, field

from .resolve import object_classes

# One step from an object to another:
#   ("global", name)   a function's global          ("builtin", name)  a builtin it reads
#   ("cell", name)     a function's closure cell    ("attr", name)     getattr(obj, name)
#   ("type", "")       type(obj)                    ("mro", "i")       cls.__mro__[i]
#   ("code", "")       a function's __code__        ("defaults", "")   its __defaults__
#   ("kwdefaults", "") its __kwdefaults__
Step = tuple[str, str]
# (root name, steps): "entry" is the differentiated function, "param:<path>" a class (or
# function) the gradient is specialised for
Locator = tuple[str, tuple[Step, ...]]


@dataclass(frozen=True, eq=False)
class Resolution:
    base: object
    step: Step
    value: object


@dataclass(frozen=True, eq=False)
class Text:
    """The file text a function was parsed from, exactly as read (all its lines)."""

    func: types.FunctionType
    filename: str
    lines: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Watch:
    """`FINGERPRINTS[kind](obj) == value` was true when the gradient was built."""

    obj: object
    kind: str
    value: object


@dataclass
class Recorder:
    roots: dict[str, object] = field(default_factory=dict)
    resolutions: list[Resolution] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    watches: list[Watch] = field(default_factory=list)
    # (id of a function, ("global" or "cell", name)) -> the name the generated module binds
    # that value to
    bindings: dict[tuple[int, Step], str] = field(default_factory=dict)
    _seen: set[tuple[int, Step]] = field(default_factory=set)
    _where: dict[int, Locator] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, obj in self.roots.items():
            self._where.setdefault(id(obj), (name, ()))

    def resolved(self, base: object, step: Step, value: object) -> object:
        """Note that the build found `value` one `step` away from `base`; returns value."""
        key = (id(base), step)
        if key not in self._seen:
            self._seen.add(key)
            self.resolutions.append(Resolution(base, step, value))
            where = self._where.get(id(base))
            if where is not None and id(value) not in self._where:
                self._where[id(value)] = (where[0], (*where[1], step))
        return value

    def parsed(self, func: types.FunctionType, filename: str, lines: list[str]) -> None:
        """Note the text `func` was parsed from, and what of the function object it used."""
        if any(t.func is func for t in self.texts):
            return
        self.texts.append(Text(func, filename, tuple(lines)))
        self.resolved(func, ("code", ""), func.__code__)
        self.resolved(func, ("defaults", ""), func.__defaults__)
        self.resolved(func, ("kwdefaults", ""), func.__kwdefaults__)

    def watch(self, obj: object, kind: str) -> None:
        """Note that the build relied on `FINGERPRINTS[kind](obj)` (a dict's keys...)."""
        if not any(w.obj is obj and w.kind == kind for w in self.watches):
            self.watches.append(Watch(obj, kind, FINGERPRINTS[kind](obj)))

    def bound(self, func: object, step: Step, bound: str) -> None:
        """Note that the value of `func`'s global or cell (`step`) is bound as `bound` in
        the generated module."""
        self.bindings[(id(func), step)] = bound

    def locator(self, obj: object) -> Locator | None:
        """How a fresh process finds `obj` again, or None when no recorded path reaches it."""
        return self._where.get(id(obj))

    def classes(self, path: str, value: object) -> list[tuple[str, type]]:
        """`object_classes(path, value)`, recording the attributes and classes it read."""
        found = object_classes(path, value)
        by_path: dict[str, object] = {path: value}
        for p, cls in found:
            if "[]" in p:
                continue  # items of a list: classes_of (a watch) or the build's key holds them
            obj = by_path.get(p)
            if obj is None:
                parent, _, attr = p.rpartition(".")
                obj = self.resolved(by_path[parent], ("attr", attr), getattr(by_path[parent], attr))
                by_path[p] = obj
            if obj is not cls:  # a function held in an attribute: the attribute step says it
                self.resolved(obj, ("type", ""), cls)
        return found


_FUNCTION_PARTS = {"code": "__code__", "defaults": "__defaults__", "kwdefaults": "__kwdefaults__"}


def follow(base: object, step: Step) -> object:
    """The object one `step` from `base` now; raises (KeyError, AttributeError, ...)
    when there is none."""
    kind, name = step
    if kind == "global":
        return base.__globals__[name]  # type: ignore[attr-defined]
    if kind == "builtin":
        if name in base.__globals__:  # type: ignore[attr-defined]
            raise KeyError(f"{name} is a global now")
        return getattr(builtins, name)
    if kind == "cell":
        code = base.__code__  # type: ignore[attr-defined]
        return base.__closure__[code.co_freevars.index(name)].cell_contents  # type: ignore[attr-defined]
    if kind == "attr":
        return getattr(base, name)
    if kind == "type":
        return type(base)
    if kind == "mro":
        return base.__mro__[int(name)]  # type: ignore[attr-defined]
    return getattr(base, _FUNCTION_PARTS[kind])


# What about an object a build may rely on besides what it resolves through it.


def keys_of(mapping: object) -> object:
    """A dict's keys (`g(**M)` is spelled out with them)."""
    return tuple(mapping)  # type: ignore[call-overload]


def literals_of(p: object) -> object:
    """A partial's literal arguments (spelled out) and the kinds of the others (read from
    the partial when the gradient runs)."""

    def one(v: object) -> object:
        if isinstance(v, (bool, int, float, complex, str, type(None))):
            return (type(v).__name__, repr(v))
        return f"<{type(v).__module__}.{type(v).__qualname__}>"

    return tuple(map(one, p.args)), tuple((k, one(v)) for k, v in p.keywords.items())  # type: ignore[attr-defined]


def classes_of(obj: object) -> object:
    """The classes of a user object and of its attributes (they decide which methods run)."""
    return tuple(
        (p, f"{c.__module__}.{getattr(c, '__qualname__', c.__name__)}")
        for p, c in object_classes("", obj)
    )


class _Build:
    """A tangentlike gradient's current build: equal to another only if it is the same
    generated function with the same objects bound to its module's names (a refresh,
    compile/guards.py, rebinds a global array there in place: a derivative of it, built
    from a copy of those names, higher/forms.py, is stale then); shown (in a disk-cache
    manifest) as a digest of its text."""

    def __init__(self, generated: object, source: str) -> None:
        self.generated = generated
        self.bound = list(generated.__globals__.values())  # type: ignore[attr-defined]
        self.digest = hashlib.sha256(source.encode()).hexdigest()[:32]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Build)
            and other.generated is self.generated
            and len(other.bound) == len(self.bound)
            and all(a is b for a, b in zip(other.bound, self.bound, strict=True))
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"build {self.digest}"


def current_build(gradient: object) -> object:
    """What a tangentlike gradient runs now (rebuilt first if what it was built from
    changed): a gradient differentiated again depends on it."""
    built = gradient.__tangentlike_live__.current()  # type: ignore[attr-defined]
    return _Build(built.generated, built.source)


FINGERPRINTS: dict[str, Callable[[object], object]] = {
    "keys": keys_of,
    "literals": literals_of,
    "classes": classes_of,
    "current": current_build,
}
