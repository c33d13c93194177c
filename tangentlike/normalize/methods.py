"""Calls of bound methods and functools.partial objects become calls of the plain
function behind them, so that they are differentiated like any module-level helper;
`*T` and `**M` of tuples and dicts known now (globals) are spelled out (a tuple's
literal items as literals, a dict's values read from it when the call runs; its
keys are watched).

`model.loss(x)` -> `Model.loss(model, x)` when the class of `model` is known: a
global object, or a parameter whose class the caller fixed (`self` of a bound
method given to `grad`, an argument the gradient was specialised for). `p(x)`
with `p = functools.partial(base, W, s=2.0)` -> `base(p.args[0], x, s=2.0)`
(literals are spelled out; other bound values are read from the partial).
A staticmethod is called without the receiver. `table[k]` of such an object whose
class defines `__getitem__` is `Table.__getitem__(table, k)`. Attribute reads of
objects (`self.W`) are untouched: objects are never differentiated, so they are
constants.

Assumes: the fence passed and nested functions were collected. Guarantees: no
call left in the tree resolves to a bound method or a partial; a call of a
method on a known-class parameter either was rewritten or raised an error at
its line. Reports, through `note_types`, the class of each argument passed to
a parameter of a rewritten callee (so its own `self.method()` calls resolve).
Invalidates: every analysis.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from dataclasses import dataclass, field

import gast
import numpy as np

from .. import runtime
from ..errors import UnknownClassError
from ..parse.resolve import MISSING, Scope, object_classes, primal_of, user_class
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from . import objects
from .star_items import spelled

_LITERALS = (bool, int, float, complex, str, type(None))


@dataclass
class Methods(gast.NodeTransformer):
    parsed: ParsedFunction
    scope: Scope
    namespace: Namespace
    namer: Namer
    # parameter (or attribute path) -> the class its value is known to have, or, for a
    # function passed in, that function
    known: dict[str, object]
    note_types: Callable[[Callable, str, type], bool]  # False: a different class was noted
    # a global object and what about it the generated code relies on (its attributes'
    # classes, a dict's keys: a parse.record.FINGERPRINTS kind): rebuilt when that changes
    watch: Callable[[object, str], None]
    # locals only ever assigned an instance of one user class (`t = Table()`)
    constructed: dict[str, type] = field(default_factory=dict)
    # a bound method or callable object with a derivative rule of its own
    # (`scipy.stats.norm.logpdf`), or listed non-differentiable (`np.random.default_rng`),
    # is called as it is, never peeled into its class's function and differentiated
    has_rule: Callable[[object], bool] = lambda obj: False
    # loop variables over sequences whose items have no one known class -> the sequence
    items_of: dict[str, str] = field(default_factory=dict)

    def visit_Call(self, node: gast.Call) -> gast.expr:
        self.generic_visit(node)
        self.spell_out(node)
        func = node.func
        obj = self.scope.resolve(func)
        peeled = None
        if isinstance(obj, (functools.partial, types.MethodType)) and not self.has_rule(obj):
            peeled = self.peel(func, obj)
        elif obj is MISSING and isinstance(func, gast.Attribute):
            peeled = self.super_method(func) or self.method_of_known(func)
        elif (
            obj is not MISSING
            and user_class(type(obj))
            and not inspect.isfunction(obj)
            and not self.has_rule(obj)
        ):
            cls = self.scope.note(obj, ("type", ""), type(obj))
            peeled = self.called_object(func, cls)  # a global `layer(x)`
        elif obj is MISSING and isinstance(func, gast.Name):
            peeled = self.called_parameter(func)
        if peeled is None:
            if inspect.isfunction(obj):
                self.note(node)
            return node
        ref, args, keywords = peeled
        given = {k.arg: k for k in node.keywords}
        kept = [gast.keyword(arg=k, value=v) for k, v in keywords.items() if k not in given]
        new = gast.Call(func=ref, args=[*args, *node.args], keywords=[*kept, *node.keywords])
        self.note(new)
        return nodes.located(new, node)

    def visit_For(self, node: gast.For) -> gast.For:
        """`for layer in self.layers` (or a global list) of objects of one known class:
        `layer` has that class in the body (its calls resolve), when the loop is the only
        place that binds it."""
        it = node.iter
        if (
            isinstance(it, gast.Call)
            and len(it.args) == 1
            and self.scope.resolve(it.func) is runtime.iterable
        ):
            it = it.args[0]
        target = node.target.id if isinstance(node.target, gast.Name) else None
        stored = [s for s in walk(self.parsed.node) if isinstance(s, gast.Name)]
        once = (
            target is not None
            and sum(1 for n in stored if n.id == target and isinstance(n.ctx, gast.Store)) <= 1
        )
        if once and target not in self.known:
            found = self.item_classes(it)
            for p, cls in found:
                self.known[target + p[2:]] = cls
            if not found:
                self.items_of[target] = dotted(it) or "the sequence looped over"
        self.generic_visit(node)
        return node

    def item_classes(self, seq: gast.expr) -> list[tuple[str, object]]:
        """("[]...", class) for the items of a list of objects of one class (and their
        attributes): from the known classes of `self.layers`, or a global list now."""
        path = dotted(seq)
        if path is not None and path + "[]" in self.known:
            return [
                ("[]" + p[len(path) + 2 :], t)
                for p, t in self.known.items()
                if p == path + "[]" or p.startswith(path + "[].")
            ]
        obj = self.scope.resolve(seq)
        if not isinstance(obj, (list, tuple)):
            return []
        found = object_classes("", obj)
        if found:
            self.watch(obj, "classes")  # rebuilt when the items change class
        return found

    def visit_Attribute(self, node: gast.Attribute) -> gast.expr:
        """`self.T` of a known user object is its attribute, not an array's transpose:
        read it with getattr, which nothing maps to an array function."""
        self.generic_visit(node)
        known = self.known.get(dotted(node.value) or "")
        if (
            isinstance(node.ctx, gast.Load)
            and isinstance(known, type)
            and user_class(known)
            and hasattr(np.ndarray, node.attr)
            and not node.attr.startswith("__")  # `table.__getitem__`: its own method
        ):
            read = nodes.call(
                nodes.name(self.namespace.bind("getattr", getattr, self.namer)),
                [node.value, nodes.const(node.attr)],
            )
            return nodes.located(read, node)
        return node

    def visit_Subscript(self, node: gast.Subscript) -> gast.expr:
        """`table[k]` of a user object whose class defines `__getitem__` with `def` (a
        global object, a parameter or attribute of known class, a local made by the
        class) is the method call `Table.__getitem__(table, k)`."""
        self.generic_visit(node)
        obj = self.scope.resolve(node.value)
        if obj is MISSING:
            path = dotted(node.value) or ""
            obj = self.known.get(path, self.constructed.get(path))
            cls = obj if isinstance(obj, type) else None
        else:
            cls = type(obj)
        method = objects.getitem(cls) if cls is not None and user_class(cls) else None
        if method is None or not isinstance(node.ctx, gast.Load):
            return node
        index = objects.index_value(
            node.slice, lambda: self.namespace.bind("slice", slice, self.namer)
        )
        owner = cls if obj is cls else obj  # a global instance: its class is recorded too
        ref = self.function_ref(method, owner)
        call = gast.Call(func=ref, args=[node.value, index], keywords=[])
        self.note(call)
        return nodes.located(call, node)

    def spell_out(self, node: gast.Call) -> None:
        """`g(*T, **M)` with T a tuple/list and M a dict known now (globals): the items as
        arguments (literals spelled out, others read as T[i], M[key])."""
        args = []
        for a in node.args:
            seq = self.scope.resolve(a.value) if isinstance(a, gast.Starred) else MISSING
            if isinstance(seq, tuple):  # a list may change length: left to run time
                args += [self.literal(v, a.value, i) for i, v in enumerate(seq)]
            elif isinstance(a, gast.Starred) and isinstance(a.value, (gast.Tuple, gast.List)):
                args += a.value.elts  # g(*(x, y)): g(x, y)
            elif isinstance(a, gast.Starred) and spelled(a.value, self.parsed.node) is not None:
                args += spelled(a.value, self.parsed.node)  # g(*args[1:]): g(args[1], ...)
            else:
                args.append(a)
        keywords = []
        for k in node.keywords:
            mapping = self.scope.resolve(k.value) if k.arg is None else MISSING
            if isinstance(mapping, dict) and all(isinstance(key, str) for key in mapping):
                self.watch(mapping, "keys")
                keywords += [  # a dict may change after the build: read it at run time
                    gast.keyword(arg=key, value=nodes.subscript(k.value, nodes.const(key)))
                    for key in mapping
                ]
            else:
                keywords.append(k)
        node.args, node.keywords = args, keywords

    def literal(self, value: object, container: gast.expr, key: object) -> gast.expr:
        if nodes.is_literal(value) and not isinstance(value, tuple):
            return nodes.const(value)  # exactly a literal: np.float64(2.0) is read as T[i]
        return nodes.subscript(nodes.deepcopy(container), nodes.const(key))

    def peel(self, expr: gast.expr, obj: object) -> tuple[gast.expr, list, dict]:
        """(reference to the plain function, leading arguments, keywords) for `obj`,
        denoted by `expr` in the source."""
        if isinstance(obj, functools.partial):
            self.watch(obj, "literals")  # its literals are spelled out; keywords may change
            for part in ("args", "keywords"):
                self.scope.note(obj, ("attr", part), getattr(obj, part))
            inner = self.scope.note(obj, ("attr", "func"), obj.func)
            ref, args, keywords = self.peel(nodes.attribute(expr, "func"), inner)
            for i, value in enumerate(obj.args):
                args.append(self.value(value, expr, "args", i))
            for k, value in obj.keywords.items():
                keywords[k] = self.value(value, expr, "keywords", k)
            return ref, args, keywords
        if isinstance(obj, types.MethodType):
            receiver = self.scope.note(obj, ("attr", "__self__"), obj.__self__)
            self.scope.note(obj, ("attr", "__func__"), obj.__func__)
            if isinstance(expr, gast.Attribute) and self.scope.resolve(expr.value) is receiver:
                recv = expr.value
            else:
                recv = nodes.attribute(expr, "__self__")
            ref = self.function_ref(obj.__func__, receiver)
            return ref, [nodes.deepcopy(recv)], {}
        return self.function_ref(primal_of(obj), None), [], {}

    def called_object(self, func: gast.expr, cls: type) -> tuple[gast.expr, list, dict] | None:
        """`obj(x)` for an instance of a class defining `__call__` with `def`."""
        call = primal_of(inspect.getattr_static(cls, "__call__", MISSING))
        if inspect.isfunction(call):
            self.scope.note(cls, ("attr", "__call__"), cls.__call__)
        else:
            raise self.parsed.error(
                func,
                f"calling {dotted(func) or 'this object'}, a {cls.__qualname__}, whose class "
                "defines no __call__ with `def`",
                "call one of its methods, or define __call__ in its class",
            )
        return self.function_ref(call, cls), [nodes.deepcopy(func)], {}

    def called_parameter(self, func: gast.Name) -> tuple[gast.expr, list, dict] | None:
        """`layer(x)` where `layer` is a parameter: its class's `__call__`, once known;
        `act(x)` where the gradient was specialised to the function `act` holds."""
        if func.id in self.known:
            known = self.known[func.id]
            if not isinstance(known, type):  # a function passed in (np.tanh, a helper)
                return self.function_ref(known, None, preferred=func.id), [], {}
            return self.called_object(func, known) if user_class(known) else None
        if func.id in self.items_of:
            raise self.parsed.error(
                func,
                f"cannot tell what calling {func.id!r} runs: it is an item of "
                f"{self.items_of[func.id]}, whose items are not all objects of one class "
                "(holding the same functions) when the gradient is built",
                "give the items one class, and their functions as methods (def __call__) "
                "rather than as attributes set per object; or call each by name",
            )
        if func.id in nodes.all_param_names(self.parsed.node):
            raise UnknownClassError(
                f"cannot tell what calling {func.id!r} runs: its class is not known "
                f"(in {self.parsed.func.__qualname__})",
                self.parsed.location(func),
                hint="What to do: call a module-level function, or an object whose class "
                "defines __call__.",
                param=func.id,
            )
        return None

    def super_method(self, func: gast.Attribute) -> tuple[gast.expr, list, dict] | None:
        """`super().meth` in a method whose `self` has a known class: the next `meth` in
        that class's method resolution order after the class defining this method."""
        sup = func.value
        if not (
            isinstance(sup, gast.Call)
            and isinstance(sup.func, gast.Name)
            and self.scope.resolve(sup.func) is super
            and not sup.args
            and not sup.keywords
        ):
            return None
        params = nodes.all_param_names(self.parsed.node)
        code = self.parsed.func.__code__
        if not params or params[0] not in self.known or "__class__" not in code.co_freevars:
            raise self.parsed.error(
                func,
                "cannot tell which method super() reaches here",
                "call the base class's method explicitly: Base.method(self, ...)",
            )
        cell = self.parsed.func.__closure__[code.co_freevars.index("__class__")]
        here = self.scope.note(self.parsed.func, ("cell", "__class__"), cell.cell_contents)
        known = self.known[params[0]]
        mro = known.__mro__
        for i, cls in enumerate(mro[mro.index(here) + 1 :], start=mro.index(here) + 1):
            if func.attr in vars(cls):
                found = primal_of(vars(cls)[func.attr])
                if inspect.isfunction(found):
                    self.scope.note(known, ("mro", str(i)), cls)
                    self.scope.note(cls, ("attr", func.attr), getattr(cls, func.attr))
                    return self.function_ref(found, cls), [nodes.name(params[0])], {}
                break
        raise self.parsed.error(
            func,
            f"super().{func.attr} is not a method defined with `def` in a base class",
            "call the base class's method explicitly: Base.method(self, ...)",
        )

    def method_of_known(self, func: gast.Attribute) -> tuple[gast.expr, list, dict] | None:
        """`recv.meth` where recv (a parameter, or an attribute path from one) has a known
        class; `self.layer(x)` where the attribute holds an object of known class."""
        whole = dotted(func)
        if whole in self.known and not isinstance(self.known[whole], type):
            # `self.act(h)` with `self.act = np.tanh`: the function the gradient was built for
            return self.function_ref(self.known[whole], None, preferred=func.attr), [], {}
        if whole in self.known and user_class(self.known[whole]):
            return self.called_object(func, self.known[whole])
        recv = func.value
        path = dotted(recv)
        if path in self.known and not isinstance(self.known[path], type):
            return None
        if path is not None and "." in path and path in self.known:
            return self.method_on(func, recv, path)
        if path is not None and "." in path and path.split(".")[0] in self.known:
            raise self.parsed.error(
                func,
                f"cannot tell the class of {path} here (it is not an object attribute "
                "when the gradient is built)",
                "keep objects whose methods you call in attributes of the object",
            )
        if not isinstance(recv, gast.Name):
            return None
        if recv.id not in self.known:
            if recv.id in nodes.all_param_names(self.parsed.node) and not hasattr(
                np.ndarray, func.attr
            ):
                where = self.parsed.location(func)
                raise UnknownClassError(
                    f"cannot tell which method {recv.id}.{func.attr}(...) calls: the class "
                    f"of {recv.id!r} is not known (in {self.parsed.func.__qualname__})",
                    where,
                    hint=f"What to do: call it from a function whose {recv.id!r} is a bound "
                    "`self` or a global object, or pass the function explicitly.",
                    param=recv.id,
                )
            return None
        return self.method_on(func, recv, recv.id)

    def method_on(
        self, func: gast.Attribute, recv: gast.expr, path: str
    ) -> tuple[gast.expr, list, dict] | None:
        cls = self.known[path]
        static = primal_of(inspect.getattr_static(cls, func.attr, MISSING))
        raw = getattr(cls, func.attr, MISSING)
        found = primal_of(raw)
        if raw is not MISSING and user_class(cls):
            self.scope.primal(self.scope.note(cls, ("attr", func.attr), raw))
        if isinstance(static, staticmethod) and inspect.isfunction(found):
            return self.function_ref(found, cls), [], {}
        if inspect.isfunction(static) and found is static:
            return self.function_ref(found, cls), [nodes.deepcopy(recv)], {}
        if not user_class(cls):
            return None  # an array's own methods: A-normal form maps them to rules
        what = "not defined in the class" if static is MISSING else type(static).__name__
        raise self.parsed.error(
            func,
            f"cannot tell which method {path}.{func.attr}(...) calls: {cls.__qualname__}"
            f".{func.attr} is {what}",
            "call a method defined with `def` in the class (or a staticmethod), or pass the "
            "function explicitly",
        )

    def function_ref(self, fn: Callable, owner: object, preferred: str = "") -> gast.expr:
        """`Class.meth` when the method is found on the (importable) class; else a name."""
        cls = owner if isinstance(owner, type) else type(owner) if owner is not None else None
        name = getattr(fn, "__name__", "")
        if cls is not None and name and getattr(cls, name, None) is fn:
            if owner is not cls:
                self.scope.note(owner, ("type", ""), cls)
            self.scope.note(cls, ("attr", name), fn)
            bound = self.namespace.bind(cls.__name__, cls, self.namer)
            return nodes.attribute(nodes.name(bound), name)
        if not name.isidentifier():
            name = preferred or "function"
        return nodes.name(self.namespace.bind(name, fn, self.namer))

    def value(self, value: object, expr: gast.expr, field: str, key: object) -> gast.expr:
        """A bound value of a partial: a literal, or read from the partial at run time."""
        return self.literal(value, nodes.attribute(expr, field), key)

    def note(self, call: gast.Call) -> None:
        """Tell the builder the classes of known-class arguments of a user function."""
        fn = self.scope.resolve(call.func)
        if not inspect.isfunction(fn):
            return
        try:
            bound = inspect.signature(fn).bind_partial(*call.args)
        except TypeError:
            return
        for param, arg in bound.arguments.items():
            path = dotted(arg)
            if path in self.known:  # the argument and its attributes, renamed for the callee
                classes = [
                    (param + p[len(path) :], t)
                    for p, t in self.known.items()
                    if p == path or p.startswith(path + ".")
                ]
            else:
                obj = self.scope.resolve(arg)
                if obj is MISSING:
                    continue
                recorder = self.scope.recorder
                classes = (
                    object_classes(param, obj) if recorder is None else recorder.classes(param, obj)
                )
                if classes:
                    self.watch(obj, "classes")
            for p, cls in classes:
                if not self.note_types(fn, p, cls):
                    raise self.parsed.error(
                        call,
                        f"{fn.__qualname__} is called with {p!r} of different classes in one "
                        "gradient",
                        "differentiate each variant separately, or call the methods "
                        "explicitly (Class.method(obj, ...))",
                    )


def known_classes(fn: gast.FunctionDef, given: dict[str, type]) -> dict[str, type]:
    """The given classes of parameters (and of their attributes, `self.layer`), minus
    parameters the function rebinds."""
    stored = set().union(*(nodes.names_stored(s) for s in fn.body)) if fn.body else set()
    return {p: t for p, t in given.items() if p.split(".")[0] not in stored}


def dotted(node: gast.expr) -> str | None:
    """`self.encoder.dense` for a Name/Attribute chain; None for anything else."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    scope: Scope,
    namespace: Namespace,
    namer: Namer,
    known: dict[str, type],
    note_types: Callable[[Callable, str, type], bool],
    watch: Callable[[object, str], None],
    has_rule: Callable[[object], bool] = lambda obj: False,
) -> gast.FunctionDef:
    made = objects.constructed(fn, scope)
    Methods(parsed, scope, namespace, namer, known, note_types, watch, made, has_rule).visit(fn)
    return fn
