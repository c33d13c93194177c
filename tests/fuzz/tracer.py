"""A traced twin of a program: the same code, recording every decision that makes a
function piecewise (comparisons, truth tests, `and`/`or` operands, and the kinks
and jumps of abs, maximum/minimum, max/min, clip, floor, round, sign, % and //).

Two runs with equal traces took the same branches and the same smooth pieces, so
a finite difference between them differentiates one smooth function: the oracle
accepts a difference only when the traces at x - h u, x and x + h u are equal.

Instrumentation wraps expressions and never moves them: short-circuit order,
in-place targets and evaluation counts are those of the original.
"""

from __future__ import annotations

import ast
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .program import ENTRY, namespace

Trace = list[tuple[int, bytes]]

# Calls with kinks or jumps, by the last part of their name; methods too (x.max()).
KINKED = {
    "abs", "absolute", "fabs", "maximum", "minimum", "fmax", "fmin", "max", "min", "amax",
    "amin", "clip", "floor", "ceil", "round", "rint", "trunc", "sign", "mod", "remainder",
    "fmod", "floor_divide", "int", "sort", "argsort", "argmax", "argmin", "divmod",
}  # fmt: skip


class _Instrument(ast.NodeTransformer):
    def __init__(self) -> None:
        self.count = 0

    def _id(self) -> ast.Constant:
        self.count += 1
        return ast.Constant(self.count)

    def _wrap(self, helper: str, *args: ast.expr) -> ast.Call:
        return ast.Call(ast.Name(helper, ast.Load()), [self._id(), *args], [])

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        return self._wrap("_fz_truth", self.generic_visit(node))  # type: ignore[arg-type]

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        node.values = [self._wrap("_fz_truth", v) for v in node.values]
        return node

    def _test(self, node: ast.If | ast.While | ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        node.test = self._wrap("_fz_truth", node.test)
        return node

    visit_If = visit_While = visit_IfExp = _test

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            node.operand = self._wrap("_fz_truth", node.operand)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        self.generic_visit(node)
        node.ifs = [self._wrap("_fz_truth", test) for test in node.ifs]
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, (ast.Mod, ast.FloorDiv)):
            return self._wrap("_fz_floor_ratio", node.left, node.right, _lambda(node))
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in KINKED:
            return node
        if isinstance(func, ast.Attribute) and not _is_module(func.value):
            # a method: record as the function applied to the object
            call = ast.Call(
                ast.Name("_fz_method", ast.Load()),
                [self._id(), ast.Constant(name), func.value, *node.args],
                node.keywords,
            )
            return call
        return ast.Call(
            ast.Name("_fz_call", ast.Load()),
            [self._id(), ast.Constant(name), func, *node.args],
            node.keywords,
        )


def _is_module(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("np", "numpy", "math")


def _lambda(node: ast.BinOp) -> ast.Lambda:
    """`lambda a, b: a <op> b`, so the wrapper computes exactly the original operation."""
    args = ast.arguments([], [ast.arg("a"), ast.arg("b")], None, [], [], None, [])
    body = ast.BinOp(ast.Name("a", ast.Load()), node.op, ast.Name("b", ast.Load()))
    return ast.Lambda(args, body)


def instrument(source: str) -> str:
    tree = _Instrument().visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


def _key(value: Any) -> bytes:
    a = np.asarray(value)
    if a.dtype == object:
        return repr(value).encode()
    return repr(a.shape).encode() + a.astype(np.float64).tobytes()


def _signs(a: Any, b: Any) -> bytes:
    with np.errstate(all="ignore"):
        return _key(np.sign(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))


def _kink(name: str, fn: Any, args: tuple, kwargs: dict, result: Any) -> bytes:
    """What must not change between two runs for `fn(*args)` to stay on one piece."""
    if name in ("abs", "absolute", "fabs"):
        return _signs(args[0], 0.0)
    if name in ("maximum", "minimum", "fmax", "fmin") and len(args) >= 2:
        return _signs(args[0], args[1])
    if fn in (max, min) and len(args) >= 2:
        return b"".join(_signs(a, result) for a in args)
    if name in ("max", "min", "amax", "amin"):
        items = np.asarray(list(args[0]) if isinstance(args[0], list) else args[0])
        axis = kwargs.get("axis", args[1] if len(args) > 1 else None)
        extreme = np.max if "max" in name else np.min
        return _signs(items, extreme(items, axis=axis, keepdims=True))
    if name == "clip":
        return _signs(args[0], args[1]) + _signs(args[0], args[2])
    if name in ("sort", "argsort"):
        return _key(np.argsort(args[0], kind="stable"))
    if name in ("mod", "remainder", "floor_divide", "divmod"):
        return _key(np.floor_divide(args[0], args[1]))
    if name == "fmod":
        return _key(np.trunc(np.asarray(args[0]) / np.asarray(args[1])))
    return _key(result)  # floor, ceil, round, sign, int, argmax...: the result itself


def recorder(trace: Trace) -> dict[str, Callable]:
    """The functions the instrumented text calls, appending to `trace`."""

    def truth(i: int, value: Any) -> Any:
        try:
            trace.append((i, _key(bool(value))))
        except ValueError:  # an array: each element's truth
            trace.append((i, _key(np.asarray(value).astype(bool))))
        return value

    def call(i: int, name: str, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        result = fn(*args, **kwargs)
        trace.append((i, _kink(name, fn, args, kwargs, result)))
        return result

    def method(i: int, name: str, obj: Any, *args: Any, **kwargs: Any) -> Any:
        result = getattr(obj, name)(*args, **kwargs)
        if name in ("max", "min"):
            axis = kwargs.get("axis", args[0] if args else None)
            extreme = np.max if name == "max" else np.min
            trace.append((i, _signs(obj, extreme(obj, axis=axis, keepdims=True))))
        else:
            trace.append((i, _kink(name, None, (obj, *args), kwargs, result)))
        return result

    def floor_ratio(i: int, a: Any, b: Any, op: Callable) -> Any:
        trace.append((i, _key(np.floor_divide(a, b))))
        return op(a, b)

    return {"_fz_truth": truth, "_fz_call": call, "_fz_method": method,
            "_fz_floor_ratio": floor_ratio}  # fmt: skip


class Traced:
    """The instrumented program, run with plain NumPy: `run(args)` -> (value, trace)."""

    def __init__(self, source: str) -> None:
        self.text = instrument(source)
        self.trace: Trace = []
        self.ns = namespace(self.text, np, "<traced program>")
        self.ns.update(recorder(self.trace))
        self.entry: types.FunctionType = self.ns[ENTRY]

    def run(self, args: list) -> tuple[Any, Trace]:
        self.trace.clear()
        with np.errstate(all="ignore"):
            value = self.entry(*args)
        return value, list(self.trace)
