"""Lower comprehensions to loops that append, and loops over dicts to loops over keys.

Assumes: the fence passed; runs before desugar. Guarantees: no ListComp,
GeneratorExp or DictComp remains. A comprehension inside a statement becomes,
just before that statement,

    _comp = []
    for _x in iterable(xs):           # one loop per `for`, nested in order
        if cond:                      # each `if` guards what follows
            _comp.append(elt)

and the expression reads `_comp` (a generator is consumed like a list). A dict
comprehension fills `_keys` and `_values` and reads `dict_of(_keys, _values)`.
The comprehension's own variables are renamed to fresh temporaries, so they do
not leak into the function (as in Python 3). Every `for` over something other
than a call (range, enumerate, a comprehension's list...) iterates
`iterable(x)`, which is `x` itself except for a dict, whose keys it lists; a
`for` over `d.keys()`, `d.values()` or `d.items()` becomes a loop over the keys
that reads `d[key]`.

Outside a `for`, `d.keys()`, `d.values()` and `d.items()` become the lists
`[k for k in d]`, `[d[k] for k in d]`, `[(k, d[k]) for k in d]`. `dict(a=x, b=y)` becomes
the literal `{'a': x, 'b': y}`, `dict(zip(ks, vs))` (or of enumerate(...), d.items(), a
literal list of pairs) the comprehension `{k: v for k, v in zip(ks, vs)}`; other forms of
dict(...) are refused with their location.

The comprehension runs before the rest of its statement (which is the same for
the side-effect-free code that is differentiated). Where Python may not run it, or
runs it more than once, the expression around it becomes statements first: a
branch of `a if c else b` an `if` that assigns `_cond`, an operand after `and`/`or`
an `if` on the value so far, a `while` test a `while True:` whose body starts with
the test and `break` (its `else:` after the loop, run where the test ended it).
Invalidates: every analysis.
"""

from __future__ import annotations

import builtins

import gast

from .. import checkpoint, runtime
from ..parse.resolve import Scope
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.names import Namer
from ..syntax.namespace import Namespace
from ..syntax.nodes import walk
from . import checkpoints

COMPREHENSIONS = (gast.ListComp, gast.GeneratorExp, gast.DictComp)
_LOWERED = (builtins.range, builtins.enumerate, builtins.zip, builtins.reversed)
_MARKERS = (checkpoint.checkpointed, checkpoints.region)  # normalize/checkpoints.py


class _Lowering:
    def __init__(
        self, parsed: ParsedFunction, namer: Namer, namespace: Namespace, scope: Scope
    ) -> None:
        self.parsed = parsed
        self.namer = namer
        self.namespace = namespace
        self.scope = scope
        self.made: set[str] = set()  # the lists comprehensions build (never dicts)

    def helper(self, name: str) -> gast.Name:
        return nodes.name(self.namespace.bind(name, getattr(runtime, name), self.namer))

    def block(self, stmts: list[gast.stmt]) -> list[gast.stmt]:
        out: list[gast.stmt] = []
        for stmt in stmts:
            out.extend(nodes.located(s, stmt) for s in self.stmt(stmt))
        return out

    def stmt(self, stmt: gast.stmt) -> list[gast.stmt]:
        if isinstance(stmt, gast.While):
            stmt.body = self.block(stmt.body)
            if _has_comprehension(stmt.test):
                return self.test_each_step(stmt)  # after the body: its statements are lowered
            stmt.orelse = self.block(stmt.orelse)
            return [stmt]
        pre: list[gast.stmt] = []
        if isinstance(stmt, gast.For):  # first: `for v in d.values()` reads d[key]
            pre_loop, stmt = self.loop_over(stmt)
            pre.extend(pre_loop)
        for field in ("value", "test", "iter", "msg", "target", "targets"):
            if getattr(stmt, field, None) is not None:
                setattr(stmt, field, self.expr(getattr(stmt, field), pre))
        for field in ("body", "orelse"):
            if isinstance(getattr(stmt, field, None), list):
                setattr(stmt, field, self.block(getattr(stmt, field)))
        return [*pre, stmt]

    def test_each_step(self, stmt: gast.While) -> list[gast.stmt]:
        """`while <test with a comprehension>:` as `while True:` whose body computes the
        test first and leaves by `break` when it is false (the comprehension runs once
        per test, as Python runs it). A loop with an `else:` sets a flag before that
        `break` and runs its `else:` after the loop where the flag is set: only a false
        test runs it, never a `break` of the loop's own.

            _exhausted = False
            while True:
                <the test's comprehensions>
                if not <test>:
                    _exhausted = True
                    break
                <body>
            if _exhausted:
                <else>
        """
        pre: list[gast.stmt] = []
        test = self.expr(stmt.test, pre)
        before: list[gast.stmt] = []
        leaving: list[gast.stmt] = [gast.Break()]
        after: list[gast.stmt] = []
        if stmt.orelse:
            flag = self.namer.temp("exhausted")
            before = [nodes.assign(flag, nodes.const(False))]
            leaving = [nodes.assign(flag, nodes.const(True)), gast.Break()]
            after = [nodes.if_(nodes.name(flag), self.block(stmt.orelse))]
            stmt.orelse = []
        leave = nodes.if_(gast.UnaryOp(op=gast.Not(), operand=test), leaving)
        stmt.body = [*pre, nodes.located(leave, stmt), *stmt.body]
        stmt.test = nodes.located(nodes.const(True), stmt.test)
        return [*before, stmt, *after]

    def loop_over(self, stmt: gast.For) -> tuple[list[gast.stmt], gast.For]:
        """Loops over dicts visit keys; `.keys()`, `.values()`, `.items()` read d[key]."""
        it = stmt.iter
        if (
            isinstance(it, gast.Call)
            and isinstance(it.func, gast.Attribute)
            and it.func.attr in ("keys", "values", "items")
            and not it.args
            and not it.keywords
        ):
            mapping = it.func.value
            if not isinstance(mapping, gast.Name):
                raise self.parsed.error(
                    it, f"a loop over .{it.func.attr}() of an expression", "name the dict first"
                )
            if it.func.attr == "keys":
                stmt.iter = nodes.call(self.helper("iterable"), [mapping])
                return [], stmt
            key = self.namer.temp("key")
            value = nodes.subscript(nodes.name(mapping.id), nodes.name(key))
            item = value if it.func.attr == "values" else nodes.tuple_([nodes.name(key), value])
            head = nodes.located(
                gast.Assign(targets=[stmt.target], value=item, type_comment=None), stmt
            )
            stmt.target = nodes.name(key, store=True)
            stmt.iter = nodes.call(self.helper("iterable"), [nodes.name(mapping.id)])
            stmt.body = [head, *stmt.body]
            return [], stmt
        if isinstance(it, gast.Call) and self.scope.resolve(it.func) in _LOWERED:
            if self.scope.resolve(it.func) is not builtins.range:
                it.args = [self.wrap(a) for a in it.args]
            return [], stmt
        if isinstance(it, gast.Call) and self.scope.resolve(it.func) in _MARKERS:
            it.args = [self.wrap(a) for a in it.args]  # checkpointed(xs): the marker stays outside
            return [], stmt
        stmt.iter = self.wrap(it)
        return [], stmt

    def wrap(self, it: gast.expr) -> gast.expr:
        if isinstance(it, gast.Name) and it.id in self.made:
            return it
        if isinstance(it, (gast.List, gast.Tuple, gast.Constant, *COMPREHENSIONS)) or (
            isinstance(it, gast.Call) and self.scope.resolve(it.func) in _LOWERED
        ):
            return it
        return nodes.call(self.helper("iterable"), [it])

    # -- expressions ----------------------------------------------------------------
    def expr(self, node: gast.AST, pre: list[gast.stmt]) -> gast.AST:
        """`node` with its comprehensions replaced by names computed in `pre`."""
        if node is None:  # `{**d}`'s key, a missing slice bound
            return node
        if isinstance(node, list):
            return [self.expr(n, pre) for n in node]
        if isinstance(node, gast.IfExp):
            node.test = self.expr(node.test, pre)
            if not (_has_comprehension(node.body) or _has_comprehension(node.orelse)):
                return node
            return self.conditional(node, pre)
        if isinstance(node, gast.BoolOp):
            node.values[0] = self.expr(node.values[0], pre)
            if not any(_has_comprehension(v) for v in node.values[1:]):
                return node
            return self.short_circuit(node, pre)
        if isinstance(node, gast.Dict) and node.keys == [None] and _is_name(node.values[0]):
            node = self.dict_copy(node, node.values[0])  # {**d}
        if _names_dict(node) and self.scope.resolve(node.func) is builtins.dict:
            node = self.dict_call(node)
            if isinstance(node, gast.Dict):
                node.values = self.expr(node.values, pre)
                return node
        if isinstance(node, COMPREHENSIONS):
            return self.comprehension(node, pre)
        view = _dict_view(node)
        if view is not None:  # d.values() outside a for: the list [d[k] for k in d]
            return self.comprehension(view, pre)
        for field in node._fields:
            child = getattr(node, field, None)
            if isinstance(child, (gast.AST, list)) and not isinstance(child, gast.expr_context):
                setattr(node, field, self.expr(child, pre))
        return node

    def conditional(self, node: gast.IfExp, pre: list[gast.stmt]) -> gast.Name:
        """`a if c else [...]` as a statement, so each branch's comprehension runs only on
        its branch: `if c: (pre of a) _cond = a` / `else: (pre of b) _cond = b`."""
        result = self.namer.temp("cond")
        branches = []
        for value in (node.body, node.orelse):
            inner: list[gast.stmt] = []
            value = self.expr(value, inner)
            branches.append([*inner, nodes.located(nodes.assign(result, value), node)])
        branch = gast.If(test=node.test, body=branches[0], orelse=branches[1])
        pre.append(nodes.located(branch, node))
        return nodes.name(result)

    def short_circuit(self, node: gast.BoolOp, pre: list[gast.stmt]) -> gast.Name:
        """`a and [...]` (or `or`) as statements that evaluate each operand only when
        Python would, once: `_cond = a` / `if _cond: (pre of b) _cond = b` (`if not
        _cond` for `or`), nested for more operands; the value is the one Python returns."""
        result = self.namer.temp("cond")
        body: list[gast.stmt] = []
        for value in reversed(node.values[1:]):
            inner: list[gast.stmt] = []
            value = self.expr(value, inner)
            test: gast.expr = nodes.name(result)
            if isinstance(node.op, gast.Or):
                test = gast.UnaryOp(op=gast.Not(), operand=test)
            then = [*inner, nodes.located(nodes.assign(result, value), node), *body]
            body = [nodes.located(nodes.if_(test, then), node)]
        pre.extend([nodes.located(nodes.assign(result, node.values[0]), node), *body])
        return nodes.name(result)

    def dict_call(self, node: gast.Call) -> gast.Dict | gast.DictComp:
        """`dict(a=x, b=y)` as `{'a': x, 'b': y}`; `dict(pairs)` of zip(...), enumerate(...),
        `d.items()` or a literal list of pairs as `{k: v for k, v in pairs}`."""
        named = [k for k in node.keywords if k.arg is not None]
        if not node.args and len(named) == len(node.keywords):
            keys = [gast.Constant(value=k.arg, kind=None) for k in named]
            return nodes.located(gast.Dict(keys=keys, values=[k.value for k in named]), node)
        pairs = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if _is_name(pairs):
            return self.dict_copy(node, pairs)
        if not (
            isinstance(pairs, (gast.List, gast.Tuple))
            or _dict_view(pairs) is not None
            or (
                isinstance(pairs, gast.Call)
                and self.scope.resolve(pairs.func) in (builtins.zip, builtins.enumerate)
            )
        ):
            raise self.parsed.error(
                node,
                "dict(...) of this form (a mapping to copy, or pairs of unknown origin)",
                "write the dict out: {**d} to copy a dict, {k: v for k, v in pairs} for "
                "pairs, dict(a=x, b=y) or dict(zip(keys, values))",
            )
        key, value = "key", "value"  # renamed to fresh temporaries with the comprehension
        target = nodes.tuple_([nodes.name(key, store=True), nodes.name(value, store=True)], True)
        generator = gast.comprehension(target=target, iter=pairs, ifs=[], is_async=0)
        comp = gast.DictComp(key=nodes.name(key), value=nodes.name(value), generators=[generator])
        return nodes.located(comp, node)

    def dict_copy(self, node: gast.expr, mapping: gast.Name) -> gast.DictComp:
        """`dict(d)`, `{**d}` of a dict d as `{key: d[key] for key in keys_of(d, ...)}`;
        keys_of raises, located here, where d is no dict (dict(pairs) of a named list)."""
        what = (
            f"{self.parsed.basename}:{getattr(node, 'lineno', '?')}: a copy of the dict "
            f"{mapping.id!r} is made here, but it holds no dict: write dict(zip(keys, "
            "values)) or {k: v for k, v in pairs} for pairs"
        )
        iter_ = nodes.call(self.helper("keys_of"), [nodes.deepcopy(mapping), nodes.const(what)])
        target = nodes.name("key", store=True)  # renamed with the comprehension
        generator = gast.comprehension(target=target, iter=iter_, ifs=[], is_async=0)
        value = nodes.subscript(nodes.deepcopy(mapping), nodes.name("key"))
        comp = gast.DictComp(key=nodes.name("key"), value=value, generators=[generator])
        return nodes.located(comp, node)

    def comprehension(self, node: gast.expr, pre: list[gast.stmt]) -> gast.expr:
        dict_comp = isinstance(node, gast.DictComp)
        names = {}
        for gen in node.generators:
            if getattr(gen, "is_async", 0):
                raise self.parsed.error(node, "an async comprehension", "write a plain loop")
            for n in walk(gen.target):
                if isinstance(n, gast.Name):
                    names.setdefault(n.id, self.namer.temp(n.id))
        first_iter = node.generators[0].iter  # evaluated outside: keeps the outer names
        node.generators[0].iter = nodes.const(None)
        _rename(node, names)
        node.generators[0].iter = first_iter
        if dict_comp:
            keys, values = self.namer.temp("keys"), self.namer.temp("values")
            results = [keys, values]
            # keys never carry a gradient (they are hashable labels)
            elts = [nodes.call(self.helper("stop_gradient"), [node.key]), node.value]
        else:
            results = [self.namer.temp("comp")]
            elts = [node.elt]
        body: list[gast.stmt] = []
        for name, elt in zip(results, elts, strict=True):
            inner: list[gast.stmt] = []
            elt = self.expr(elt, inner)
            append = nodes.call(nodes.attribute(nodes.name(name), "append"), [elt])
            body.extend([*inner, nodes.located(nodes.expr_stmt(append), node)])
        for gen in reversed(node.generators):
            for cond in reversed(gen.ifs):
                cond_pre: list[gast.stmt] = []
                cond = self.expr(cond, cond_pre)
                body = [*cond_pre, nodes.located(nodes.if_(cond, body), node)]
            loop = gast.For(
                target=gen.target, iter=gen.iter, body=body, orelse=[], type_comment=None
            )
            loop = nodes.located(loop, node)
            extra, loop = self.loop_over(loop)
            iter_pre: list[gast.stmt] = []
            loop.iter = self.expr(loop.iter, iter_pre)
            body = [*iter_pre, *extra, loop]
        starts = [
            nodes.located(nodes.assign(r, gast.List(elts=[], ctx=gast.Load())), node)
            for r in results
        ]
        pre.extend([*starts, *body])
        self.made.update(results)
        if dict_comp:
            return nodes.call(self.helper("dict_of"), [nodes.name(keys), nodes.name(values)])
        return nodes.name(results[0])


def _has_comprehension(node: gast.AST) -> bool:
    return any(isinstance(n, COMPREHENSIONS) for n in walk(node)) or any(
        _dict_view(n) is not None for n in walk(node)
    )


def _names_dict(node: gast.AST) -> bool:
    """A call spelled `dict(...)` (resolved only then: resolving records what the build
    relies on, and a bound method resolved twice is two objects)."""
    return (
        isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and node.func.id == "dict"
    )


def _rename(node: gast.AST, names: dict[str, str]) -> None:
    for n in walk(node):
        if isinstance(n, gast.Name) and n.id in names:
            n.id = names[n.id]


def run(
    fn: gast.FunctionDef,
    parsed: ParsedFunction,
    namer: Namer,
    namespace: Namespace,
    scope: Scope,
) -> gast.FunctionDef:
    fn.body = _Lowering(parsed, namer, namespace, scope).block(fn.body)
    assert not any(isinstance(n, COMPREHENSIONS) for n in walk(fn))
    return fn


def _is_name(node: gast.AST | None) -> bool:
    return isinstance(node, gast.Name)


def _dict_view(node: gast.AST) -> gast.ListComp | None:
    """`d.keys()`, `d.values()`, `d.items()` of a named dict as the equivalent list
    comprehension, else None."""
    if not (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr in ("keys", "values", "items")
        and isinstance(node.func.value, gast.Name)
        and not node.args
        and not node.keywords
    ):
        return None
    mapping, key = node.func.value.id, "key"
    value = nodes.subscript(nodes.name(mapping), nodes.name(key))
    elt = {
        "keys": nodes.name(key),
        "values": value,
        "items": nodes.tuple_([nodes.name(key), value]),
    }[node.func.attr]
    generator = gast.comprehension(
        target=nodes.name(key, store=True), iter=nodes.name(mapping), ifs=[], is_async=0
    )
    return nodes.located(gast.ListComp(elt=elt, generators=[generator]), node)
