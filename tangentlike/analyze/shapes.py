"""Which values certainly have the same shape as which others, on A-normal form.

Assumes: A-normal form. Guarantees: `Shapes.before[id(stmt)][name]` and
`Shapes.result[id(stmt)]` are a shape class only when it holds on every path;
unknown shapes are absent. Two values of one class have one shape. The classes:

- `("dims", pattern)`: an array (or number) of `len(pattern)` dimensions, `pattern[k]`
  "1" where dimension k is 1, "0" where it is empty and "N" where it has 2 or more
  elements; `SCALAR` is `("dims", "")`. A vector may carry a lower bound on its
  length, `("dims", "N", m)`, so that its slices, differences and concatenations
  have a pattern too (analyze/vectors.py); the bound is not part of the class.
  Parameters get one in a build specialised to the call's signature (`dims`, see
  job.Job.arrays and job.Job.scalars); literals, full reductions (`np.sum(x)`) and
  `len` are scalars. Broadcasting two dimensions that are not 1 requires them equal,
  so an operand whose pattern is the result's has the result's shape.
- `("param", p)`: the shape parameter p has when the call starts (generic builds).
- `("at", name, id)`: the shape of the array one run of an assignment made (a matrix
  product, an elementwise rule's or a reduction's result, never a list). A loop's
  entry joins what holds before the loop, where no assignment of its body has run,
  so a class never mixes the values of two runs of its statement.

Elementwise operations (operators and rules marked elementwise) of operands of one
class, or of that class and scalars, have that class; of `dims` operands, their
broadcast. The transform uses it to drop `unbroadcast` where an operand already has
the result's shape, so the backward sweep does not read (and the forward sweep need
not save) that operand.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

import gast
import numpy as np

from ..parse.resolve import Scope
from ..rules.registry import Registry
from ..syntax import nodes
from . import vectors

SCALAR = ("dims", "")
Shape = tuple
Env = dict[str, Shape]
_INT = ("int",)  # a Python int (a scalar): an index that drops a dimension
_RANGE = ("range",)  # a range object: a loop over it binds ints

_ELEMENTWISE_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.Mod, gast.FloorDiv)
_INT_OPS = (gast.Add, gast.Sub, gast.Mult, gast.FloorDiv, gast.Mod)
_SCALAR_MAKERS = (builtins.float, builtins.int, builtins.len, builtins.bool)
_REDUCTIONS = (np.sum, np.mean, np.max, np.min, np.amax, np.amin, np.prod, np.std, np.var)
_PRODUCTS = (np.matmul, np.dot)


@dataclass
class Shapes:
    before: dict[int, Env] = field(default_factory=dict)  # id(stmt) -> shapes of names
    result: dict[int, Shape] = field(default_factory=dict)  # id(assignment) -> its value's

    def scalar(self, stmt: gast.stmt, name: str) -> bool:
        """Whether `name`, when `stmt` runs, certainly has no dimensions (a number)."""
        return _class(self.before.get(id(stmt), {}).get(name)) == SCALAR

    def same(self, stmt: gast.stmt, name: str) -> bool:
        """Whether `name`, when `stmt` runs, has the shape of the value `stmt` assigns."""
        known = self.result.get(id(stmt))
        return known is not None and _class(self.before.get(id(stmt), {}).get(name)) == known

    def summed(self, stmt: gast.stmt, name: str) -> tuple[int, tuple[int, ...]] | None:
        """How a value of the shape `stmt` assigns sums down to the shape `name` has when
        `stmt` runs, where both are known dimension patterns (`name` broadcast into
        the result): (the result's leading axes beyond name's, then the axes where name
        has 1 and the result not, summed with keepdims). None when either is unknown."""
        known = self.result.get(id(stmt))
        mine = _class(self.before.get(id(stmt), {}).get(name))
        if known is None or mine is None or known[0] != "dims" or mine[0] != "dims":
            return None
        result, pattern = known[1], mine[1]
        extra = len(result) - len(pattern)
        if extra < 0:
            return None
        pairs = list(zip(pattern, result[extra:], strict=True))
        if any(p != r and p != "1" for p, r in pairs):
            return None  # name does not broadcast into the result: not this analysis's case
        return extra, tuple(i for i, (p, r) in enumerate(pairs) if p == "1" and r != "1")


def analyze(
    fn: gast.FunctionDef,
    scope: Scope,
    registry: Registry,
    scalars: frozenset[str] = frozenset(),
    dims: dict[str, str] | None = None,
) -> Shapes:
    """The shapes of `fn`'s values. `scalars`: parameters known to hold a Python number
    when the call starts; `dims`: parameters known to hold an array, with the pattern of
    its dimensions ("N1": two, the second 1) -- a build specialised to its arguments."""
    shapes = Shapes()
    dims = dims or {}

    def is_int(node: gast.expr, env: Env) -> bool:
        if isinstance(node, gast.Constant):
            return type(node.value) is int
        if isinstance(node, gast.Name):
            return env.get(node.id) == _INT
        if isinstance(node, gast.BinOp) and isinstance(node.op, _INT_OPS):
            return is_int(node.left, env) and is_int(node.right, env)
        if isinstance(node, gast.Call) and not node.keywords and len(node.args) == 1:
            return scope.resolve(node.func) is builtins.len
        return False

    def of(node: gast.expr, env: Env) -> Shape | None:
        if isinstance(node, gast.Constant):
            return SCALAR if isinstance(node.value, (bool, int, float, complex)) else None
        if isinstance(node, gast.Name):
            return _shape(env.get(node.id))
        if isinstance(node, gast.BinOp) and isinstance(node.op, _ELEMENTWISE_OPS):
            return _combine([of(node.left, env), of(node.right, env)])
        if isinstance(node, gast.BinOp) and isinstance(node.op, gast.MatMult):
            return _product(of(node.left, env), of(node.right, env))
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return of(node.operand, env)
        if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Slice):
            return vectors.sliced(of(node.value, env), node.slice)
        if isinstance(node, gast.Subscript):
            return _item(of(node.value, env), node.slice, lambda i: is_int(i, env))
        if isinstance(node, gast.Call):
            return call(node, env)
        return None

    def call(node: gast.Call, env: Env) -> Shape | None:
        callee = scope.resolve(node.func)
        keywords = {k.arg: k.value for k in node.keywords}
        if any(callee is f for f in _REDUCTIONS) and len(node.args) == 1:
            return _reduced(of(node.args[0], env), keywords)
        if node.keywords:
            return None
        if callee is np.concatenate and len(node.args) == 1:
            parts = node.args[0]
            if isinstance(parts, (gast.Tuple, gast.List)):
                return vectors.joined(
                    [vectors.list_literal(p) or _listed(p, env) for p in parts.elts]
                )
            return None
        if callee is np.diff and len(node.args) == 1:
            return vectors.differenced(of(node.args[0], env))
        if any(callee is f for f in _SCALAR_MAKERS):
            return SCALAR
        if any(callee is f for f in _PRODUCTS) and len(node.args) == 2:
            return _product(*(of(a, env) for a in node.args), dot=callee is np.dot)
        rule = registry.lookup(callee)
        if rule is not None and rule.elementwise and node.args:
            return _combine([of(a, env) for a in node.args])
        return None

    def array(value: gast.expr) -> bool:
        """Certainly an array or NumPy number (never a list or tuple, which `+` and `*`
        concatenate): a matrix product, an elementwise rule's result, a reduction."""
        if isinstance(value, gast.BinOp):
            return isinstance(value.op, gast.MatMult)
        if not isinstance(value, gast.Call):
            return False
        callee = scope.resolve(value.func)
        if any(callee is f for f in (*_REDUCTIONS, *_PRODUCTS)):
            return True
        rule = registry.lookup(callee)
        return rule is not None and rule.elementwise and not registry.makes_sequence(callee)

    def block(stmts: list[gast.stmt], env: Env) -> Env:
        for stmt in stmts:
            shapes.before[id(stmt)] = dict(env)
            if isinstance(stmt, gast.Assign):
                if nodes.is_item_write(stmt):
                    continue  # writing into y keeps y's shape
                name = stmt.targets[0].id
                value = stmt.value
                env = {k: v for k, v in env.items() if k != name}
                if is_int(value, env):
                    shape: Shape = _INT
                elif isinstance(value, gast.Call) and scope.resolve(value.func) is builtins.range:
                    shape = _RANGE
                elif vectors.list_literal(value) is not None:
                    shape = vectors.list_literal(value)
                else:
                    shape = of(value, env) or (("at", name, id(stmt)) if array(value) else None)
                shapes.result.pop(id(stmt), None)  # a loop's body is analysed again
                if shape is not None:
                    env[name] = shape
                    if _class(shape) is not None:
                        shapes.result[id(stmt)] = _class(shape)
            elif isinstance(stmt, gast.If):
                env = _join(block(stmt.body, env), block(stmt.orelse, env))
            elif isinstance(stmt, (gast.For, gast.While)):
                entry = env
                if isinstance(stmt, gast.For):
                    entry = _drop(entry, nodes.names_stored(stmt.target))
                    if isinstance(stmt.target, gast.Name) and _ranges(stmt.iter, env, scope):
                        entry[stmt.target.id] = _INT
                while True:  # each name can only lose its shape: this ends
                    end = block(stmt.body, entry)
                    joined = _join(entry, end)
                    if joined == entry:
                        break
                    entry = joined
                env = _join(env, entry)
                if isinstance(stmt, gast.For):
                    env = _drop(env, nodes.names_stored(stmt.target))
            else:  # any other statement binding names: they lose their shapes
                env = _drop(env, nodes.names_stored(stmt))
        return env

    params = nodes.param_names(fn)
    start = {p: SCALAR for p in params if p in scalars}
    start.update({p: ("dims", dims[p]) for p in params if p in dims and p not in scalars})
    start.update({p: ("param", p) for p in params if p not in start})
    block(fn.body, start)
    return shapes


def _shape(known: Shape | None) -> Shape | None:
    """The shape class of an environment entry, with a vector's bound (an int is a
    scalar; a range and a list have none)."""
    if known == _INT:
        return SCALAR
    return None if known == _RANGE or (known is not None and known[0] == "list") else known


def _class(known: Shape | None) -> Shape | None:
    """The shape class of an environment entry, without a vector's bound."""
    known = _shape(known)
    return known[:2] if known is not None and known[0] == "dims" else known


def _listed(node: gast.expr, env: Env) -> Shape | None:
    """The class of a name for np.concatenate: a vector's, or a list literal's."""
    return env.get(node.id) if isinstance(node, gast.Name) else None


def _ranges(iterable: gast.expr, env: Env, scope: Scope) -> bool:
    """Whether a for loop over `iterable` binds Python ints."""
    if isinstance(iterable, gast.Name):
        return env.get(iterable.id) == _RANGE
    return isinstance(iterable, gast.Call) and scope.resolve(iterable.func) is builtins.range


def _combine(parts: list[Shape | None]) -> Shape | None:
    """The class of an elementwise operation's result."""
    if any(p is None for p in parts):
        return None
    if all(p[0] == "dims" for p in parts):
        pattern = _broadcast([p[1] for p in parts])
        if pattern == "N":  # vectors of one length, and scalars
            return vectors.widest(parts)
        return None if pattern is None else ("dims", pattern)
    arrays = {p for p in parts if p != SCALAR}
    return arrays.pop() if len(arrays) == 1 else None


def _broadcast(patterns: list[str]) -> str | None:
    """The dimension pattern of the broadcast of arrays of these patterns (None where an
    empty dimension meets a long one: an error when it runs)."""
    ndim = max(len(p) for p in patterns)
    padded = ["1" * (ndim - len(p)) + p for p in patterns]
    found = []
    for k in range(ndim):
        sizes = {p[k] for p in padded} - {"1"}
        if len(sizes) > 1:
            return None
        found.append(sizes.pop() if sizes else "1")
    return "".join(found)


def _product(a: Shape | None, b: Shape | None, dot: bool = False) -> Shape | None:
    """`a @ b` (or np.dot) of arrays of known patterns, for one and two dimensions."""
    if a is None or b is None or a[0] != "dims" or b[0] != "dims":
        return None
    pa, pb = a[1], b[1]
    if not (1 <= len(pa) <= 2 and 1 <= len(pb) <= 2):
        return None  # scalars (np.dot multiplies) and stacks of matrices: unknown
    return ("dims", pa[:-1] + pb[1:] if len(pb) == 2 else pa[:-1])


def _item(base: Shape | None, index: gast.expr, is_int) -> Shape | None:
    """`x[i]` or `x[i, j]` with Python int indices: x's pattern without those dimensions."""
    if base is None or base[0] != "dims":
        return None
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if not all(is_int(p) for p in parts) or len(parts) > len(base[1]):
        return None
    return ("dims", base[1][len(parts) :])


def _reduced(base: Shape | None, keywords: dict[str, gast.expr]) -> Shape | None:
    """A reduction of a value of class `base`: a scalar over all elements; over one
    constant axis, the pattern without it (with keepdims=True, that dimension 1)."""
    if not keywords:
        return SCALAR
    if base is None or base[0] != "dims" or set(keywords) - {"axis", "keepdims"}:
        return None
    axis, keep = keywords.get("axis"), keywords.get("keepdims")
    if not (isinstance(axis, gast.Constant) and type(axis.value) is int):
        return None
    if keep is not None and not (isinstance(keep, gast.Constant) and type(keep.value) is bool):
        return None
    pattern, k = base[1], axis.value
    if not -len(pattern) <= k < len(pattern):
        return None
    k %= len(pattern)
    kept = "1" if keep is not None and keep.value else ""
    return ("dims", pattern[:k] + kept + pattern[k + 1 :])


def _drop(env: Env, names: set[str]) -> Env:
    return {k: v for k, v in env.items() if k not in names}


def _join(a: Env, b: Env) -> Env:
    """What holds on both paths (an int on one and another scalar on the other: a scalar)."""
    joined = {}
    for k, v in a.items():
        w = b.get(k)
        if w == v:
            joined[k] = v
        elif w is not None and _shape(v) == SCALAR and _shape(w) == SCALAR:
            joined[k] = SCALAR
        elif w is not None and _shape(v) is not None and _shape(w) is not None:
            both = vectors.merged(_shape(v), _shape(w))
            if both is not None:
                joined[k] = both
    return joined
