"""A-normal form of expressions: atoms, one operation on atoms, indices, calls.

The half of normalize/anf.py's Normalizer that rewrites expressions: each method
returns the statements that compute the parts (`Pre`) and what stands for the
whole: an atom (`atom`), or one operation on atoms (`operation`, `index`, `call`).
Assumes and guarantees what normalize/anf.py states (its docstring is the
contract, normalize/anf_check.py checks it); the statement half (anf.Normalizer)
holds the state these methods read (namer, scope, registry, namespace, parsed).
"""

from __future__ import annotations

import inspect

import gast
import numpy as np

from .. import runtime
from ..errors import UnsupportedSyntaxError
from ..parse.resolve import MISSING
from ..runtime.draws import RANDOM_METHODS
from ..syntax import nodes

Pre = list[gast.stmt]
_POP = ("item_index", "without_item")  # runtime helpers of xs.pop(i)


class Expressions:
    """Rewrites expressions into statements and atoms (mixed into anf.Normalizer)."""

    def is_atom(self, node: gast.expr) -> bool:
        if isinstance(node, (gast.Name, gast.Constant)):
            return True
        return isinstance(node, gast.Attribute) and self.scope.resolve(node) is not MISSING

    def atom(self, node: gast.expr, hint: str) -> tuple[Pre, gast.expr]:
        """Statements computing node, and an atom holding its value."""
        if self.is_atom(node):
            return [], node
        if (
            isinstance(node, gast.UnaryOp)
            and isinstance(node.operand, gast.Constant)
            and isinstance(node.op, gast.USub)
            and isinstance(node.operand.value, (int, float))
        ):
            return [], nodes.const(-node.operand.value)
        if isinstance(node, (gast.IfExp, gast.BoolOp)):
            tmp = self.namer.temp(hint)
            return self.assign(tmp, node), nodes.name(tmp)
        # Operands first, so temporaries are numbered in evaluation order.
        pre, op = self.operation(node, hint)
        tmp = self.namer.temp(hint)
        return [*pre, nodes.assign(tmp, op)], nodes.name(tmp)

    def atoms(self, exprs: list[gast.expr], hint: str) -> tuple[Pre, list[gast.expr]]:
        pre: Pre = []
        out = []
        for e in exprs:
            p, a = self.atom(e, hint)
            pre.extend(p)
            out.append(a)
        return pre, out

    def operation(self, node: gast.expr, hint: str) -> tuple[Pre, gast.expr]:
        """Statements computing the operands, and one operation on atoms."""
        if self.is_atom(node):
            return [], node
        if isinstance(node, gast.BinOp):
            pre, (left, right) = self.atoms([node.left, node.right], hint)
            return pre, nodes.binop(left, node.op, right)
        if isinstance(node, gast.UnaryOp):
            if (
                isinstance(node.operand, gast.Constant)
                and isinstance(node.op, gast.USub)
                and isinstance(node.operand.value, (int, float))
            ):  # a negative number: atom's literal (not -1j: an operation, never a fold)
                return self.atom(node, hint)
            pre, operand = self.atom(node.operand, hint)
            return pre, gast.UnaryOp(op=node.op, operand=operand)
        if isinstance(node, gast.Compare):
            pre, operands = self.atoms([node.left, *node.comparators], hint)
            if len(node.ops) == 1:
                return pre, gast.Compare(left=operands[0], ops=node.ops, comparators=operands[1:])
            parts = []
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                tmp = self.namer.temp(hint)
                pre.append(
                    nodes.assign(tmp, gast.Compare(left=left, ops=[op], comparators=[right]))
                )
                parts.append(nodes.name(tmp))
            return pre, gast.BoolOp(op=gast.And(), values=parts)
        if isinstance(node, gast.Call):
            return self.call(node, hint)
        if isinstance(node, gast.Attribute):
            pre, base = self.atom(node.value, hint)
            dotted = self.registry.attribute_for(node.attr)
            if dotted is not None:
                return pre, nodes.call(self.namespace.ref(dotted, self.namer), [base])
            return pre, nodes.attribute(base, node.attr)
        if isinstance(node, gast.Subscript):
            pre, base = self.atom(node.value, hint)
            idx_pre, index = self.index(node.slice, hint)
            return [*pre, *idx_pre], nodes.subscript(base, index)
        if isinstance(node, (gast.Tuple, gast.List)):
            pre, elts = self.atoms(node.elts, hint)
            return pre, type(node)(elts=elts, ctx=gast.Load())
        if isinstance(node, gast.Dict):
            if None in node.keys:
                raise self.unsupported(
                    node, "`**` unpacking in a dict literal", "write the keys out"
                )
            pre, keys = self.atoms(node.keys, hint)
            more, values = self.atoms(node.values, hint)
            return [*pre, *more], gast.Dict(keys=keys, values=values)
        if isinstance(node, (gast.IfExp, gast.BoolOp)):
            tmp = self.namer.temp(hint)
            return self.assign(tmp, node), nodes.name(tmp)
        if isinstance(node, gast.JoinedStr):
            pre: Pre = []
            for part in node.values:
                if isinstance(part, gast.FormattedValue):
                    p, part.value = self.atom(part.value, hint)
                    pre.extend(p)
            return pre, node
        raise self.unsupported(node, type(node).__name__, "rewrite the expression")

    def index(self, node: gast.expr, hint: str) -> tuple[Pre, gast.expr]:
        if isinstance(node, gast.Slice):
            pre: Pre = []
            parts = {}
            for field in ("lower", "upper", "step"):
                value = getattr(node, field)
                if value is None:
                    parts[field] = None
                else:
                    p, parts[field] = self.atom(value, hint)
                    pre.extend(p)
            return pre, gast.Slice(**parts)
        if isinstance(node, gast.Tuple):
            pre = []
            elts = []
            for e in node.elts:
                p, a = self.index(e, hint)
                pre.extend(p)
                elts.append(a)
            return pre, nodes.tuple_(elts)
        return self.atom(node, hint)

    def call(self, node: gast.Call, hint: str) -> tuple[Pre, gast.expr]:
        func = node.func
        args = list(node.args)
        callee = self.scope.resolve(func)
        if runtime.owns(callee):
            # tl.stop_gradient and friends: call the copy the generated module carries
            func = nodes.name(self.namespace.bind(callee.__name__, callee, self.namer))
        elif isinstance(func, gast.Name) and func.id in self.callables:
            pass  # `t = g(atoms)`, inlined by normalize.closure_calls
        elif callee is MISSING:
            if isinstance(func, gast.Call):  # `tl.hvp(g)(...)`, `make()(...)`
                raise self.unsupported(
                    node,
                    f"calling what a call returns (here the result of `{_dotted(func.func)}(...)`)",
                    "inside a differentiated function, tl.grad, tl.value_and_grad, tl.vjp "
                    "and tl.jvp of a function can be called directly; for anything else, call "
                    "a function defined at module level (or register a rule for it)",
                )
            if not isinstance(func, gast.Attribute):
                raise self.unsupported(
                    node,
                    "calling a local variable",
                    "call a function defined at module level (or register a rule for it)",
                )
            method = self.registry.method_for(func.attr)
            if method is None and func.attr in ("append", "extend") and hint == "call":
                # `xs.append(v)` as a statement: a list mutation the transform follows
                pre, base = self.atom(func.value, "t")
                more, arg = self.atoms(args, hint)
                if not isinstance(base, gast.Name) or node.keywords or len(args) != 1:
                    raise self.unsupported(
                        node, f".{func.attr}(...) of this form", f"write name.{func.attr}(value)"
                    )
                return [*pre, *more], nodes.call(nodes.attribute(base, func.attr), arg)
            if method is None and func.attr == "get" and 1 <= len(args) <= 2:
                return self.dict_get(node, hint)
            if method is None and func.attr == "pop":
                return self.pop(node, hint)
            if method is None and func.attr in RANDOM_METHODS:
                # `rng.normal(...)` of a Generator passed in: a draw, constant (checked there)
                draw = self.namespace.bind("random_draw", runtime.random_draw, self.namer)
                args = [func.value, nodes.const(func.attr), *args]
                node = gast.Call(func=nodes.name(draw), args=args, keywords=node.keywords)
                return self.call(node, hint)
            if method is None:
                raise self.unsupported(
                    node,
                    f"the method call .{func.attr}(...)",
                    "call the NumPy function form instead (np.<name>(x, ...))",
                )
            if method.pack_varargs and len(args) > 1:
                args = [nodes.tuple_(args)]
            receiver = func.value
            if func.attr == "copy" and not args and not node.keywords:
                return self.array_copy(node, receiver, hint)
            if method.copies:
                copy = self.namespace.ref("numpy.copy", self.namer)
                receiver = gast.Call(func=copy, args=[receiver], keywords=[])
            args = [receiver, *args]
            func = self.namespace.ref(method.dotted, self.namer)
        if callee is np.array and any(k.arg == "copy" for k in node.keywords):
            func, node = self.array_without_copy(node)
        out, args, node = self.out_argument(node, func, args)
        if out is not None:  # `f(..., out=y)`: y[...] = f(...), and its value is y
            pre, value = self.call(gast.Call(func=func, args=args, keywords=node.keywords), hint)
            result = self.namer.temp(hint)
            if isinstance(out, gast.Subscript):  # `out=y[1:]`: y[1:] = f(...), its value y[1:]
                more, index = self.index(out.slice, hint)
                pre = [*more, *pre]
                out = gast.Subscript(value=nodes.name(out.value.id), slice=index, ctx=gast.Load())
                write = gast.Subscript(
                    value=nodes.name(out.value.id), slice=nodes.deepcopy(index), ctx=gast.Store()
                )
            else:
                base = nodes.name(out.id)
                write = gast.Subscript(value=base, slice=nodes.const(Ellipsis), ctx=gast.Store())
            return [*pre, nodes.assign(result, value), nodes.assign(write, nodes.name(result))], out
        pre: Pre = []
        out_args = []
        # a user function gets list and tuple arguments as names (its gradient for them
        # comes back as one list adjoint); rules take literals inline (np.stack([a, b]))
        inline = not (inspect.isfunction(callee) and self.registry.lookup(callee) is None)
        for a in args:
            if isinstance(a, gast.Starred):  # g(*seq): seq as an atom, unpacked at the call
                p, atom = self.atom(a.value, hint)
                pre.extend(p)
                out_args.append(gast.Starred(value=atom, ctx=gast.Load()))
                continue
            if isinstance(a, (gast.List, gast.Tuple)) and inline:
                p, elts = self.atoms(a.elts, hint)
                pre.extend(p)
                out_args.append(type(a)(elts=elts, ctx=gast.Load()))
            else:
                p, atom = self.atom(a, hint)
                pre.extend(p)
                out_args.append(atom)
        keywords = []
        for kw in node.keywords:
            if isinstance(kw.value, (gast.List, gast.Tuple)) and inline:
                p, elts = self.atoms(kw.value.elts, hint)
                value = type(kw.value)(elts=elts, ctx=gast.Load())
            else:
                p, value = self.atom(kw.value, hint)
            pre.extend(p)
            keywords.append(gast.keyword(arg=kw.arg, value=value))  # arg None: **mapping
        # the call keeps its own column: an error about it puts the caret on it
        return pre, gast.copy_location(gast.Call(func=func, args=out_args, keywords=keywords), node)

    def out_argument(
        self, node: gast.Call, func: gast.expr, args: list[gast.expr]
    ) -> tuple[gast.Name | None, list[gast.expr], gast.Call]:
        """The array a NumPy-style call writes its result into (`out=y`, or a ufunc's
        positional output), with the call's arguments and node without it."""
        callee = self.scope.resolve(func)
        if callee is MISSING or (
            inspect.isfunction(callee) and self.registry.lookup(callee) is None
        ):
            return None, args, node  # a user function's `out` is an ordinary parameter
        out = None
        keywords = []
        for kw in node.keywords:
            if kw.arg == "out":
                out = kw.value
            else:
                keywords.append(kw)
        nin = getattr(callee, "nin", None) if isinstance(callee, np.ufunc) else None
        if out is None and nin is not None and len(args) > nin:
            out, args = (args[nin:] if len(args) > nin + 1 else args[nin]), args[:nin]
        if out is None or (isinstance(out, gast.Constant) and out.value is None):
            if len(keywords) == len(node.keywords):
                return None, args, node
            return None, args, gast.Call(func=node.func, args=node.args, keywords=keywords)
        name = getattr(callee, "__name__", "this function")
        several = isinstance(callee, np.ufunc) and callee.nout > 1  # np.modf(x, y): a pair
        if isinstance(out, (gast.Tuple, list)) or several:
            elts = out.elts if isinstance(out, gast.Tuple) else out
            if several or len(elts) != 1:
                raise self.unsupported(
                    node, f"{name}(..., out=...) with several outputs", "assign the results"
                )
            out = elts[0]
        if any(kw.arg == "where" for kw in keywords):
            raise self.unsupported(
                node, f"{name}(..., out=..., where=...)", "write y[mask] = f(...)[mask] instead"
            )
        if isinstance(out, gast.Subscript) and _basic_view(out, self.callables):
            return out, args, gast.Call(func=node.func, args=node.args, keywords=keywords)
        if not isinstance(out, gast.Name) or out.id in self.callables:
            raise self.unsupported(
                node,
                f"{name}(..., out=...) writing into anything but a variable or a slice of "
                "one (`out=y[1:]`, `out=y[:, 0:2]`: slices, integer literals, None and `...`)",
                f"assign the result instead: y[...] = {name}(...) or y[index] = {name}(...)",
            )
        return (
            nodes.name(out.id),
            args,
            gast.Call(func=node.func, args=node.args, keywords=keywords),
        )

    def dict_get(self, node: gast.Call, hint: str) -> tuple[Pre, gast.expr]:
        """`d.get(k, default)` as `d[k] if k in d else default` (default None), with d,
        k and default evaluated once, first, as the call evaluates them: a read of the
        entry the transform differentiates like any subscript."""
        if node.keywords:
            raise self.unsupported(node, ".get(...) with keywords", "write d.get(k, default)")
        pre, base = self.atom(node.func.value, "t")
        more, (key, *default) = self.atoms(node.args, hint)
        test = gast.Compare(left=key, ops=[gast.In()], comparators=[base])
        value = gast.IfExp(
            test=test,
            body=nodes.subscript(nodes.deepcopy(base), nodes.deepcopy(key)),
            orelse=default[0] if default else nodes.const(None),
        )
        tmp = self.namer.temp(hint)
        return [*pre, *more, *self.assign(tmp, value)], nodes.name(tmp)

    def pop(self, node: gast.Call, hint: str) -> tuple[Pre, gast.expr]:
        """`xs.pop(i)` of a list (or `d.pop(k)` of a dict) as `_k = item_index(xs, i)`,
        `t = xs[_k]`, `_rest = without_item(xs, _k)`, `xs = _rest`: a read differentiated like any
        subscript, and the rest, a new list (dict), bound to the same name. That is the
        pop only while no other name holds the list: transform/container_writes.py
        refuses the others, with their location."""
        base = node.func.value
        literal = isinstance(base, (gast.List, gast.Dict))  # a new list: named first
        if not (isinstance(base, gast.Name) or literal) or node.keywords or len(node.args) > 1:
            raise self.unsupported(
                node,
                ".pop(...) of this form",
                "write name.pop() or name.pop(i) on a list or dict the function made "
                "(for a default, test `k in d` first)",
            )
        pre, args = self.atoms(node.args, hint)
        if literal:
            xs = self.namer.temp("xs")
            pre = [*self.assign(xs, base), *pre]
        else:
            xs = base.id
        key, item, rest_name = self.namer.temp("k"), self.namer.temp(hint), self.namer.temp(xs)
        helper = {n: self.namespace.bind(n, getattr(runtime, n), self.namer) for n in _POP}
        index = nodes.call(nodes.name(helper["item_index"]), [nodes.name(xs), *args])
        rest = nodes.call(nodes.name(helper["without_item"]), [nodes.name(xs), nodes.name(key)])
        return [
            *pre,
            nodes.assign(key, index),
            nodes.assign(item, nodes.subscript(nodes.name(xs), nodes.name(key))),
            nodes.assign(rest_name, rest),
            nodes.assign(xs, nodes.name(rest_name)),
        ], nodes.name(item)

    def array_copy(self, node: gast.Call, receiver: gast.expr, hint: str) -> tuple[Pre, gast.expr]:
        """`x.copy()`: np.copy(x) where x is an array or a NumPy scalar, checked at run
        time (a list's or dict's .copy() is shallow: its items stay shared)."""
        pre, x = self.atom(receiver, "t")
        place = self.parsed.location(node)
        what = f"{place}: `{place.text.strip()}` takes .copy() for np.copy"
        check = nodes.call(
            nodes.name(self.namespace.bind("copies_array", runtime.copies_array, self.namer)),
            [x, nodes.const(what)],
        )
        copy = nodes.call(self.namespace.ref("numpy.copy", self.namer), [x])
        return [*pre, nodes.expr_stmt(check)], copy

    def array_without_copy(self, node: gast.Call) -> tuple[gast.expr, gast.Call]:
        """`np.array(x, copy=False)` (or None) is x itself where no copy is needed: the
        view np.asarray(x) is, never a new array (`copy=True` stays np.array)."""
        (copy,) = [k for k in node.keywords if k.arg == "copy"]
        if isinstance(copy.value, gast.Constant) and copy.value.value is True:
            return node.func, node
        others = [k for k in node.keywords if k.arg != "copy"]
        if not (
            isinstance(copy.value, gast.Constant)
            and copy.value.value in (False, None)
            and all(k.arg == "dtype" for k in others)
            and len(node.args) <= 2
        ):
            raise self.unsupported(
                node,
                "np.array(..., copy=...) with a copy decided at run time or other options",
                "write np.array(x) for a copy, np.asarray(x) for x itself where possible",
            )
        func = self.namespace.ref("numpy.asarray", self.namer)
        return func, gast.Call(func=func, args=node.args, keywords=others)

    def unsupported(self, node: gast.AST, what: str, hint: str) -> UnsupportedSyntaxError:
        return self.parsed.error(node, f"{what} is not supported yet", hint)


def _basic_view(out: gast.Subscript, callables: frozenset[str] | set[str]) -> bool:
    """`y[...]` with y a variable and an index NumPy certainly makes a view of y with (a
    slice or `...` among slices, integer literals and None): writing a call's result into
    it is `y[index] = result`. An index of variables may be an integer array, whose
    y[index] is a copy that `out=` would write into instead of y."""
    if not isinstance(out.value, gast.Name) or out.value.id in callables:
        return False
    parts = out.slice.elts if isinstance(out.slice, gast.Tuple) else [out.slice]

    def fixed(p: gast.expr) -> bool:
        if isinstance(p, gast.UnaryOp) and isinstance(p.op, gast.USub):
            p = p.operand
        return isinstance(p, gast.Constant) and (
            p.value is None or p.value is Ellipsis or type(p.value) is int
        )

    def sliced(p: gast.expr) -> bool:
        return isinstance(p, gast.Slice) or (isinstance(p, gast.Constant) and p.value is Ellipsis)

    return any(sliced(p) for p in parts) and all(sliced(p) or fixed(p) for p in parts)


def _dotted(node: gast.expr) -> str:
    """`tl.hvp` for a chain of names and attributes; `...` for anything else."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return "..."
