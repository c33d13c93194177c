"""Reject syntax the compiler does not handle, before any transformation.

Assumes: a parsed function. Guarantees: on return, the function uses only the
constructs listed in ALLOWED; otherwise an UnsupportedSyntaxError names the
file, line and column, shows the line and says what to write instead.
"""

from __future__ import annotations

import gast

from ..syntax.nodes import walk
from .source import ParsedFunction

# Statement and expression classes the pipeline handles.
ALLOWED: tuple[type, ...] = (
    gast.Assign,
    gast.AugAssign,
    gast.Expr,
    gast.Return,
    gast.If,
    gast.For,
    gast.While,
    gast.Pass,
    gast.Assert,
    gast.Raise,  # a guard: kept in the forward sweep, nothing to differentiate
    gast.Break,
    gast.Continue,
    gast.FunctionDef,  # nested: inlined at its calls (normalize.closures checks its uses)
    gast.Lambda,
    gast.BinOp,
    gast.UnaryOp,
    gast.BoolOp,
    gast.Compare,
    gast.Call,
    gast.IfExp,
    gast.Attribute,
    gast.Subscript,
    gast.Slice,
    gast.Name,
    gast.Constant,
    gast.Tuple,
    gast.List,
    gast.Dict,  # containers: normalize/comprehensions lowers the comprehensions
    gast.ListComp,
    gast.DictComp,
    gast.GeneratorExp,
    gast.keyword,
    gast.JoinedStr,
    gast.FormattedValue,
    gast.expr_context,
    gast.operator,
    gast.unaryop,
    gast.cmpop,
    gast.boolop,
)

# What each refused construct is called, and what to write instead.
REFUSED: dict[type, tuple[str, str]] = {
    gast.Yield: ("`yield`", "generators cannot be differentiated; return a value instead"),
    gast.YieldFrom: ("`yield from`", "generators cannot be differentiated; return a value"),
    gast.Await: ("`await`", "async code cannot be differentiated; write a plain function"),
    gast.AsyncFunctionDef: ("an async function", "write a plain function"),
    gast.AsyncFor: ("`async for`", "write a plain loop"),
    gast.AsyncWith: ("`async with`", "move it out of the differentiated function"),
    gast.Try: ("`try`", "move the try/except out of the differentiated function"),
    gast.With: ("`with`", "move the with-block out of the differentiated function"),
    gast.Global: ("`global`", "pass the value as an argument instead"),
    gast.Nonlocal: ("`nonlocal`", "pass the value as an argument instead"),
    gast.Delete: ("`del`", "remove the `del` statement"),
    gast.ClassDef: ("a class definition", "define the class outside the function"),
    gast.SetComp: ("a set comprehension", "write the comprehension as a loop"),
    gast.Set: ("a set literal", "use a list or an array instead"),
    gast.NamedExpr: ("the walrus operator `:=`", "assign the value in its own statement"),
    gast.Starred: ("star-unpacking", "pass the values one by one"),
    gast.Import: ("`import`", "import at module level"),
    gast.ImportFrom: ("`import`", "import at module level"),
    gast.Match: ("`match`", "rewrite it with if/elif"),
}


def _refuse(parsed: ParsedFunction, node: gast.AST, what: str, hint: str) -> None:
    raise parsed.error(node, f"{what} is not supported yet", hint)


def check(parsed: ParsedFunction) -> None:
    """Raise UnsupportedSyntaxError at the first construct the pipeline cannot handle."""
    fn = parsed.node
    for stmt in fn.body:
        _check_stmt(parsed, stmt)
    returns = [n for n in _own_walk(fn) if isinstance(n, gast.Return)]
    for ret in returns:
        if ret.value is None:
            _refuse(parsed, ret, "a `return` without a value", "return the value to differentiate")
    if not returns:
        _refuse(parsed, fn, "a function without `return`", "return the value to differentiate")


def _own_walk(fn: gast.FunctionDef):
    """The nodes of `fn`, not descending into nested functions."""
    todo = list(gast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.Lambda)):
            todo.extend(gast.iter_child_nodes(node))


def _check_stmt(parsed: ParsedFunction, stmt: gast.stmt) -> None:
    # g(*seq) passes through (analyze.calls checks what flows in it); [*a, b] does not
    call_stars = {
        id(a)
        for n in walk(stmt)
        if isinstance(n, gast.Call)
        for a in n.args
        if isinstance(a, gast.Starred)
    } | _target_stars(stmt)
    for node in walk(stmt):
        if isinstance(node, gast.With) and _may_be_checkpoint(node):
            continue  # normalize/checkpoints.py checks that it is tl.checkpoint()
        if isinstance(node, gast.withitem):
            continue
        if isinstance(node, ALLOWED) or id(node) in call_stars:
            _check_detail(parsed, node)
            continue
        if isinstance(node, (gast.arguments, gast.comprehension, gast.match_case, gast.pattern)):
            continue
        what, hint = REFUSED.get(
            type(node), (type(node).__name__, "rewrite it with assignments, if/for/while and calls")
        )
        _refuse(parsed, node, what, hint)


def _target_stars(stmt: gast.stmt) -> set[int]:
    """The `*rest` of `a, *rest = t` (one per tuple target, in assignments and loop
    targets): normalize/desugar.py lowers it to slices."""
    targets = []
    for node in walk(stmt):
        if isinstance(node, gast.Assign):
            targets.extend(node.targets)
        elif isinstance(node, gast.For):
            targets.append(node.target)
    found: set[int] = set()
    while targets:
        t = targets.pop()
        if isinstance(t, (gast.Tuple, gast.List)):
            stars = [e for e in t.elts if isinstance(e, gast.Starred)]
            if len(stars) == 1 and isinstance(stars[0].value, gast.Name):
                found.add(id(stars[0]))
            targets.extend(e for e in t.elts if not isinstance(e, gast.Starred))
    return found


def _may_be_checkpoint(node: gast.With) -> bool:
    """`with <name or dotted name>():`, the shape of `with tl.checkpoint():`."""
    if len(node.items) != 1 or node.items[0].optional_vars is not None:
        return False
    call = node.items[0].context_expr
    return (
        isinstance(call, gast.Call)
        and not call.args
        and not call.keywords
        and isinstance(call.func, (gast.Name, gast.Attribute))
    )


def _flatten_targets(targets: list[gast.expr]) -> list[gast.expr]:
    out: list[gast.expr] = []
    for t in targets:
        if isinstance(t, (gast.Tuple, gast.List)):
            out.extend(_flatten_targets(t.elts))
        elif isinstance(t, gast.Starred) and isinstance(t.value, gast.Name):
            out.append(t.value)  # a, *rest = t (one star, checked by _target_stars)
        else:
            out.append(t)
    return out


def _indexed(target: gast.Subscript) -> gast.expr:
    """What `y[i][j]...` indexes first: y (normalize/desugar.py takes the element
    `_e = y[i]` and writes into it, which is what Python does)."""
    while isinstance(target, gast.Subscript):
        target = target.value
    return target


def _check_detail(parsed: ParsedFunction, node: gast.AST) -> None:
    if isinstance(node, (gast.Assign, gast.AugAssign)):
        targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        for t in _flatten_targets(targets):
            if isinstance(t, gast.Subscript) and not isinstance(_indexed(t), gast.Name):
                _refuse(
                    parsed,
                    t,
                    "assignment into an element of an attribute or of a call's result",
                    "assign into a local variable: y = ...; y[i] = ...",
                )
            if isinstance(t, gast.Attribute):
                _refuse(
                    parsed, t, "assignment to an attribute", "assign to a local variable instead"
                )
            if isinstance(t, gast.Starred):
                _refuse(parsed, t, "star-unpacking", "unpack the values one by one")
    if isinstance(node, gast.For) and not isinstance(node.target, (gast.Name, gast.Tuple)):
        _refuse(parsed, node.target, "this loop target", "loop over a plain variable")
