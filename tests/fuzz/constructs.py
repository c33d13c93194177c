"""The constructs a program uses, read from its syntax tree, for per-construct counts.

Tags are coarse and stable ("boolop:or", "inplace:view", "for:range-arg",
"helper:tuple-return", "np.where", ...). They are computed from the text, so a
shrunk reproduction gets its own (smaller) set. Types come from the generator's
naming conventions (see `scope`): s*/x/w scalars, v*/y vectors, M*/A matrices,
L* lists, D* dicts.
"""

from __future__ import annotations

import ast

from .program import ENTRY

BINOPS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
}
VIEW_CALLS = {"reshape", "ravel", "transpose"}


def constructs(source: str) -> set[str]:
    tree = ast.parse(source)
    tags: set[str] = set()
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    helpers = {fn.name for fn in functions if fn.name != ENTRY}
    for fn in functions:
        tags |= _function(fn, helpers, is_helper=fn.name != ENTRY)
    for node in ast.walk(tree):
        tags |= _expression(node, helpers)
    return tags


def _literal(node: ast.AST) -> set[str]:
    value = node.operand.value if isinstance(node, ast.UnaryOp) else node.value  # type: ignore[attr-defined]
    tags = {"literal:int" if isinstance(value, int) else "literal:float"}
    if value == 0:
        tags.add("literal:zero")
    elif abs(value) >= 100:
        tags.add("literal:large")
    elif abs(value) < 0.01:
        tags.add("literal:small")
    if isinstance(node, ast.UnaryOp):
        tags.add("literal:negative")
    return tags


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        if func.value.id == "np":
            return f"np.{func.attr}"
        return f"method:{func.attr}"
    if isinstance(func, ast.Attribute):
        return f"method:{func.attr}"
    if isinstance(func, ast.Name):
        return func.id
    return "call"


def _expression(node: ast.AST, helpers: set[str]) -> set[str]:
    tags: set[str] = set()
    if isinstance(node, ast.BinOp):
        op = BINOPS[type(node.op)]
        tags.add(f"binop:{op}")
        for side, operand in (("left", node.left), ("right", node.right)):
            if _is_literal(operand):
                tags |= _literal(operand)
                tags.add(f"literal:{side}-operand")
        if op == "**" and _is_literal(node.left):
            negative = isinstance(node.left, ast.UnaryOp)
            tags.add("pow:negative-base" if negative else "pow:literal-base")
        if op == "**" and isinstance(node.right, ast.UnaryOp):
            tags.add("pow:negative-exponent")
    elif isinstance(node, ast.UnaryOp):
        kind = {ast.USub: "unary:-", ast.UAdd: "unary:+", ast.Not: "not", ast.Invert: "~"}
        tags.add(kind[type(node.op)])
        if _is_literal(node):
            tags |= _literal(node)
    elif isinstance(node, ast.BoolOp):
        tags.add("boolop:and" if isinstance(node.op, ast.And) else "boolop:or")
        if any(isinstance(v, (ast.BoolOp, ast.UnaryOp)) for v in node.values):
            tags.add("boolop:nested")
    elif isinstance(node, ast.Compare):
        tags.add("compare")
        if len(node.ops) > 1:
            tags.add("compare:chained")
    elif isinstance(node, ast.IfExp):
        tags.add("ternary")
        if isinstance(node.body, ast.IfExp) or isinstance(node.orelse, ast.IfExp):
            tags.add("ternary:nested")
    elif isinstance(node, ast.Call):
        name = _call_name(node)
        tags.add("helper-call" if name in helpers else name)
        if any(k.arg == "out" for k in node.keywords):
            tags.add("out=")
        if name in helpers and node.keywords:
            tags.add("helper:keyword-arg")
        if name in helpers and any(
            isinstance(a, ast.Call) and _call_name(a) in helpers for a in node.args
        ):
            tags.add("helper:nested-call")
    elif isinstance(node, ast.Subscript):
        tags |= _subscript(node)
    elif isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        tags.add("list:comprehension" if isinstance(node, ast.ListComp) else "genexp")
        if any(gen.ifs for gen in node.generators):
            tags.add("comprehension:filter")
    elif isinstance(node, ast.List) and isinstance(node.ctx, ast.Load):
        tags.add("list")
    elif isinstance(node, ast.Dict):
        tags.add("dict")
    return tags


def _subscript(node: ast.Subscript) -> set[str]:
    if isinstance(node.value, ast.Attribute) and node.value.attr in ("r_", "c_"):
        return {f"np.{node.value.attr}"}
    index = node.slice
    tags: set[str] = set()
    if isinstance(node.ctx, ast.Store):
        tags.add("setitem:slice" if isinstance(index, ast.Slice) else "setitem:index")
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    if len(items) > 1:
        tags.add("subscript:2d")
    for item in items:
        if isinstance(item, ast.Slice):
            tags.add("subscript:step" if item.step is not None else "subscript:slice")
        elif isinstance(item, ast.Constant):
            tags.add("subscript:str-key" if isinstance(item.value, str) else "subscript:int")
        elif _is_literal(item):
            tags.add("subscript:negative")
        else:
            tags.add("subscript:computed")
    return tags


def _function(fn: ast.FunctionDef, helpers: set[str], is_helper: bool) -> set[str]:
    tags: set[str] = set()
    params = {a.arg for a in fn.args.args}
    origins: dict[str, str] = {}  # name -> how it was last bound
    loop_targets: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                origins[target.id] = _origin(node.value)
            elif (
                isinstance(target, ast.Tuple)
                and isinstance(node.value, ast.Call)
                and _call_name(node.value) in helpers
            ):
                tags.add("helper:tuple-unpack")
        elif isinstance(node, (ast.For, ast.While)):
            tags |= _loop(node, loop_targets)
        elif isinstance(node, ast.If):
            tags.add("if")
            if node.orelse and isinstance(node.orelse[0], ast.If) and len(node.orelse) == 1:
                tags.add("elif")
            elif node.orelse:
                tags.add("else")
        elif isinstance(node, (ast.Break, ast.Continue)):
            tags.add(type(node).__name__.lower())
    for node in ast.walk(fn):
        if isinstance(node, ast.AugAssign):
            tags |= _augassign(node, params, origins, loop_targets)
    if is_helper:
        tags.add("helper")
        tags |= _helper(fn, params)
    else:
        tags |= _calls_in_loops(fn, helpers)
        tags |= {"param:int" for a in fn.args.args if a.arg == "n"}
        tags |= {"param:matrix" for a in fn.args.args if a.arg == "A"}
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.While)) and any(
            isinstance(n, ast.Return) for n in ast.walk(node)
        ):
            tags.add("return-in-loop")
        if isinstance(node, ast.If) and any(isinstance(n, ast.Return) for n in node.body):
            tags.add("return-in-if")
    return tags


def _origin(value: ast.AST) -> str:
    if isinstance(value, ast.Name):
        return "alias"
    if isinstance(value, ast.Subscript):
        return "view"
    if isinstance(value, ast.Attribute) and value.attr == "T":
        return "transpose"
    if isinstance(value, ast.Call):
        name = _call_name(value)
        if name.split(".")[-1].split(":")[-1] in VIEW_CALLS:
            return "reshape"
        if name in ("np.zeros", "np.ones", "np.zeros_like", "np.copy", "method:copy", "np.array"):
            return "fresh"
    return "value"


def _augassign(node: ast.AugAssign, params: set[str], origins, loop_targets) -> set[str]:
    tags = {f"augassign:{BINOPS[type(node.op)]}="}
    target = node.target
    if isinstance(target, ast.Subscript):
        base = target.value
        if isinstance(base, ast.Name) and base.id[:1] in ("L", "D"):
            return tags | {"inplace:through-container"}
        return tags | {"setitem:augmented"}
    assert isinstance(target, ast.Name)
    name = target.id
    if name in loop_targets:
        return tags | {"inplace:loop-row" if name.startswith("r") else "inplace:loop-element"}
    if name in params:
        kind = "float" if name in ("x", "w", "c") else "param"
        return tags | {f"inplace:{kind}"}
    origin = origins.get(name, "value")
    if name[:1] in ("s", "e", "t"):
        return tags | {"inplace:float"}
    return tags | {f"inplace:{origin}"}


def _loop(node: ast.For | ast.While, loop_targets: set[str]) -> set[str]:
    if isinstance(node, ast.While):
        tags = {"while"}
    else:
        for name in ast.walk(node.target):
            if isinstance(name, ast.Name):
                loop_targets.add(name.id)
        it = node.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name):
            if it.func.id == "range":
                const = all(isinstance(a, (ast.Constant, ast.BinOp, ast.UnaryOp)) for a in it.args)
                named = any(isinstance(n, ast.Name) for a in it.args for n in ast.walk(a))
                tags = {"for:range-arg" if named or not const else "for:range-const"}
            else:
                tags = {f"for:{it.func.id}"}
        elif isinstance(it, ast.Name):
            kind = {"L": "list", "D": "dict", "M": "rows", "A": "rows"}.get(it.id[:1], "array")
            tags = {f"for:{kind}"}
        elif isinstance(it, ast.Call) and _call_name(it) == "method:items":
            tags = {"for:dict-items"}
        else:
            tags = {"for:expression"}
    if node.orelse:
        tags.add("loop-else")
    if any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(node) if n is not node):
        tags.add("nested-loop")
    return tags


def _helper(fn: ast.FunctionDef, params: set[str]) -> set[str]:
    tags: set[str] = set()
    loads = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if params - loads:
        tags.add("helper:unused-param")
    if fn.args.defaults:
        tags.add("helper:default")
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            tags.add("helper:tuple-return")
        if isinstance(node, (ast.If, ast.For, ast.While)):
            for inner in ast.walk(node):
                stores = isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)
                if stores and inner.id in params:  # type: ignore[attr-defined]
                    kind = "branch" if isinstance(node, ast.If) else "loop"
                    tags.add(f"helper:param-rebound-in-{kind}")
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in params for t in node.targets
        ):
            tags.add("helper:param-rebound")
        target = getattr(node, "target", None)
        if isinstance(node, ast.AugAssign) and isinstance(target, ast.Name) and target.id in params:
            tags.add("helper:param-augassign")
    return tags


def _calls_in_loops(fn: ast.FunctionDef, helpers: set[str]) -> set[str]:
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.While)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and _call_name(inner) in helpers:
                    return {"helper:called-in-loop"}
    return set()
