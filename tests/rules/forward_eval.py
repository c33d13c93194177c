"""Evaluate a case's expression with tangents, one rule application at a time.

`evaluate(expr, values, tangents)` walks the expression as a forward sweep would
run its A-normal form: every operator, call, method and attribute that has a
rule is applied through the rule's forward (tangent) template
(tests/rules/templates.py runs it on values), subscripts and containers carry
their tangents along, comprehensions go through the helpers normalize inserts
(`runtime.iterable`, `runtime.dict_of`), and anything the registry calls
non-differentiable has a zero tangent (None). Each application whose inputs have
a tangent is recorded, so a test can check it against the reverse template (the
dot product <u, J t> == <J^T u, t>). What the registry does not know is an error,
never a zero.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import gast
import numpy as np
from templates import tangent_of

from tangentlike import runtime
from tangentlike.normalize import builtin_calls, vectorized
from tangentlike.rules.instantiate import bind_arguments
from tangentlike.rules.registry import default_registry
from tangentlike.rules.tangent import TangentRule
from tangentlike.rules.template import Rule
from tangentlike.syntax import nodes

OPERATORS = {
    gast.Add: operator.add,
    gast.Sub: operator.sub,
    gast.Mult: operator.mul,
    gast.Div: operator.truediv,
    gast.Pow: operator.pow,
    gast.Mod: operator.mod,
    gast.MatMult: operator.matmul,
    gast.FloorDiv: operator.floordiv,
    gast.USub: operator.neg,
    gast.UAdd: operator.pos,
}


class Unsupported(Exception):
    """The expression uses a form this evaluator does not run."""


@dataclass
class Application:
    """One rule applied with at least one input tangent."""

    rule: Rule
    trule: TangentRule
    args: dict  # parameter -> value, and "result"
    tangents: dict  # parameter -> tangent (only those that are not zero)
    jt: object  # the result's tangent


@dataclass
class Evaluator:
    namespace: dict
    values: dict
    tangents: dict
    applications: list[Application] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.registry = default_registry()

    # -- plain values -----------------------------------------------------------
    def constant(self, node: gast.expr) -> bool:
        return not any(isinstance(n, gast.Name) and n.id in self.values for n in gast.walk(node))

    def plain(self, node: gast.expr, scope: dict | None = None) -> object:
        expr = gast.gast_to_ast(gast.fix_missing_locations(gast.Expression(body=node)))
        code = compile(expr, "<case>", "eval")
        return eval(code, {**self.namespace, **self.values, **(scope or {})})

    # -- the sweep --------------------------------------------------------------
    def run(self, node: gast.expr) -> tuple[object, object]:
        """(value, tangent) of node; a None tangent is zero."""
        if self.constant(node):
            return self.plain(node), None
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def visit_Name(self, node: gast.Name):
        return self.values[node.id], self.tangents.get(node.id)

    def visit_BinOp(self, node: gast.BinOp):
        return self.apply(type(node.op), [node.left, node.right], {})

    def visit_UnaryOp(self, node: gast.UnaryOp):
        return self.apply(type(node.op), [node.operand], {})

    def visit_Compare(self, node: gast.Compare):
        return self._nondifferentiable(node)

    def visit_BoolOp(self, node: gast.BoolOp):
        return self._nondifferentiable(node)

    def _nondifferentiable(self, node: gast.expr):
        ops = getattr(node, "ops", [getattr(node, "op", None)])
        for op in ops:
            if not self.registry.is_nondifferentiable(type(op)):
                raise Unsupported(f"no rule for {type(op).__name__}")
        return self.plain(node), None

    def visit_Attribute(self, node: gast.Attribute):
        dotted = self.registry.attribute_for(node.attr)
        if dotted is None:
            raise Unsupported(f"attribute {node.attr}")
        return self.apply(_resolve(dotted), [node.value], {})

    def visit_Subscript(self, node: gast.Subscript):
        value, tangent = self.run(node.value)
        index, index_tangent = self.run(node.slice)  # x[x > 0]: a mask, no tangent
        if index_tangent is not None:
            raise Unsupported("an index with a tangent")
        return value[index], None if tangent is None else tangent[index]

    def visit_List(self, node: gast.List):
        return self._sequence(node.elts, list)

    def visit_Tuple(self, node: gast.Tuple):
        return self._sequence(node.elts, tuple)

    def _sequence(self, elts: list[gast.expr], kind: type):
        pairs = [self.run(e) for e in elts]
        values = kind(v for v, _ in pairs)
        if all(t is None for _, t in pairs):
            return values, None
        return values, kind(_zero_if_none(t, v) for v, t in pairs)

    def visit_Call(self, node: gast.Call):
        if any(isinstance(a, gast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            raise Unsupported("*args or **kwargs")
        lowered = _Lowered(self).visit(node)  # np.vectorize(h)(x), as normalize lowers it
        if lowered is not node:
            return self.run(lowered)
        keywords = {k.arg: k.value for k in node.keywords}
        func = node.func
        if isinstance(func, gast.Attribute) and func.attr == "pop":
            # as normalize lowers xs.pop(i): the item read, and without_item(xs, k) left
            xs = self.run(func.value)[0]
            key = runtime.item_index(xs, *[self.run(a)[0] for a in node.args])
            self.apply(runtime.without_item, [func.value, nodes.const(key)], {})
            return self.run(nodes.subscript(func.value, nodes.const(key)))
        if isinstance(func, gast.Attribute) and not self.constant(func.value):
            method = self.registry.method_for(func.attr)
            if method is None:
                raise Unsupported(f"method {func.attr}")
            args = list(node.args)
            if method.pack_varargs and len(args) > 1:
                args = [nodes.tuple_(args)]
            return self.apply(_resolve(method.dotted), [func.value, *args], keywords)
        callee = self.plain(func)
        rewritten = builtin_calls.one_form(node, callee)  # max(a, b) -> max((a, b)), as normalize
        if rewritten is not node:
            return self.run(rewritten)
        return self.apply(callee, list(node.args), keywords)

    def visit_ListComp(self, node: gast.ListComp):
        return self._comprehension(node, [node.elt])

    def visit_DictComp(self, node: gast.DictComp):
        keys, key_tangents = self._comprehension(node, [node.key])
        values, value_tangents = self._comprehension(node, [node.value])
        if key_tangents is not None:
            raise Unsupported("a key with a tangent")
        holder = self._hold({"keys": (keys, None), "values": (values, value_tangents)})
        return self.apply(runtime.dict_of, [holder["keys"], holder["values"]], {})

    def _comprehension(self, node, elts: list[gast.expr]):
        (generator,) = node.generators
        if generator.ifs or not isinstance(generator.target, gast.Name):
            raise Unsupported("a filtered or unpacking comprehension")
        items, item_tangents = self.apply(runtime.iterable, [generator.iter], {})
        out, out_tangents = [], []
        name = generator.target.id
        for i in range(len(items)):
            inner = Evaluator(
                self.namespace,
                {**self.values, name: items[i]},
                {**self.tangents, name: None if item_tangents is None else item_tangents[i]},
                self.applications,
            )
            value, tangent = inner.run(elts[0])
            out.append(value)
            out_tangents.append(tangent)
        if all(t is None for t in out_tangents):
            return out, None
        return out, [_zero_if_none(t, v) for t, v in zip(out_tangents, out, strict=True)]

    def _hold(self, pairs: dict) -> dict:
        """Names standing for already-computed (value, tangent) pairs."""
        held = {}
        for key, (value, tangent) in pairs.items():
            name = f"_held_{len(self.values)}_{key}"
            self.values[name] = value
            if tangent is not None:
                self.tangents[name] = tangent
            held[key] = nodes.name(name)
        return held

    # -- one rule ---------------------------------------------------------------
    def apply(self, primal: object, args: list[gast.expr], keywords: dict[str, gast.expr]):
        pairs = [self.run(a) for a in args]
        named = {k: self.run(v) for k, v in keywords.items()}
        plain = [v for v, _ in pairs]
        if primal in OPERATORS:
            result = OPERATORS[primal](*plain)
        else:
            result = primal(*plain, **{k: v for k, (v, _) in named.items()})
        rule = self.registry.lookup(primal)
        if rule is None:
            if self.registry.is_nondifferentiable(primal):
                return result, None
            raise Unsupported(f"no rule for {primal!r}")
        if all(t is None for _, t in [*pairs, *named.values()]):
            return result, None
        trule = self.registry.lookup_tangent(primal)  # raises when there is no forward form
        form = self.registry.complex_rule(primal)
        if form is not None and any(np.iscomplexobj(v) for v in [*plain, result]):
            rule, trule = form  # where a value is complex, the complex form applies
        held = self._hold({**{str(i): p for i, p in enumerate(pairs)}, **named})
        bound = bind_arguments(
            rule, [held[str(i)] for i in range(len(pairs))], {k: held[k] for k in named}
        )
        values, tangents = {"result": result}, {}
        for param, node in bound.items():
            if isinstance(node, gast.Name):
                values[param] = self.values[node.id]
                if node.id in self.tangents:
                    tangents[param] = self.tangents[node.id]
            else:
                values[param] = node.value  # a default
        ignored = set(tangents) - set(trule.reads) - rule.constant
        if ignored:
            raise AssertionError(f"{rule.name}: the forward form ignores {sorted(ignored)}")
        tangents = {p: t for p, t in tangents.items() if p in trule.reads}
        if not tangents:
            return result, None
        jt = tangent_of(trule, values, tangents)
        self.applications.append(Application(rule, trule, values, tangents, jt))
        return result, jt


def _zero_if_none(tangent, value):
    if tangent is not None:
        return tangent
    return np.zeros(np.shape(value)) if np.ndim(value) else 0.0


def _resolve(dotted: str) -> object:
    import importlib

    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


class _Lowered(vectorized._Lowering):
    """normalize/vectorized.py's lowering of one call, with the evaluator's names: the
    helpers it binds go into its namespace, its temporaries are fresh names."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        super().__init__(None, self, self, self)

    def resolve(self, node: gast.expr) -> object:
        try:
            return self.evaluator.plain(node)
        except Exception:  # a name only the sweep binds: not np.vectorize
            return None

    def bind(self, name: str, obj: object, namer: object) -> str:
        self.evaluator.namespace[name] = obj
        return name

    def temp(self, prefix: str) -> str:
        taken = {**self.evaluator.namespace, **self.evaluator.values}
        k = 1
        while f"_{prefix}{k}" in taken:
            k += 1
        return f"_{prefix}{k}"

    def visit_Call(self, node: gast.Call) -> gast.expr:  # this call only, not inside it
        inner = node.func
        if self.resolve(node.func) is np.apply_along_axis:
            return self.along_axis(node)
        if isinstance(inner, gast.Call) and self.resolve(inner.func) is np.vectorize:
            return super().visit_Call(node)
        return node
