"""The A-normal form contract (normalize/anf.py's docstring), checked clause by clause.

`check(fn, parsed)` raises `InternalError` naming the violated clause and showing
the statement (located in the user's file when `parsed` is given): a broken
contract is a compiler bug that would otherwise surface later as a wrong
gradient, so it is never an `assert` (which `python -O` removes).
`written(stmt)` is what the contract means by "assigns": names bound, arrays
written by item, lists appended to.
"""

from __future__ import annotations

import ast

import gast

from ..errors import InternalError
from ..parse.source import ParsedFunction
from ..syntax import nodes
from ..syntax.nodes import walk

# The clauses, as the error names them.
RETURN_LAST = "the body ends in `return <name>`, the only return"
ONE_TARGET = "an assignment has one target, a name or `name[index]`"
UPDATE = "an augmented assignment is `name op= atom`"
NO_OUT = "no call has an `out=` argument"
INDEX = "an index is made of atoms and slices of atoms"
ONE_OPERATION = "an assigned value is an atom or one operation on atoms"
NOT_OWN_OPERAND = "the target of an operation is not one of its operands"
EXPR_CALL = "an expression statement is a call on atoms"
ASSERT_ATOM = "`assert` tests an atom"
RAISE_ATOM = "`raise` raises an atom"
IF_NAME = "`if` tests a name"
IF_TEST_KEPT = "an `if`'s test name is not assigned in its branches (the backward sweep tests it)"
FOR_FORM = "a loop is `for <name> in <name>:` with no else"
WHILE_FORM = "a loop is `while <name>:` with no else"
WHILE_TEST_LAST = "a `while` test name is assigned in its body only by the last statement"
STATEMENT = "statements are assignments, calls, assert, if, for, while and a final return"


def written(stmt: gast.stmt) -> set[str]:
    """Names `stmt` (and the statements nested in it) binds or changes in place:
    assignment and loop targets, `y` of `y[i] = v`, `xs` of `xs.append(v)`."""
    return nodes.names_stored(stmt) | changed_in_place(stmt)


def changed_in_place(stmt: gast.stmt) -> set[str]:
    """Names whose value `stmt` changes without rebinding them: `y` of `y[i] = v`, `xs` of
    `xs.append(v)` (a copy of the reference changes with them)."""
    out = set()
    for node in walk(stmt):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
                    out.add(target.value.id)
        elif (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Attribute)
            and node.func.attr in ("append", "extend")
            and isinstance(node.func.value, gast.Name)
        ):
            out.add(node.func.value.id)
    return out


def check(fn: gast.FunctionDef, parsed: ParsedFunction | None = None) -> None:
    """Raise `InternalError` unless `fn` keeps every clause of the A-normal form."""
    _Checker(parsed).function(fn)


def is_atom(node: gast.expr) -> bool:
    """A Name, a Constant, or a dotted reference (`np.pi`: an Attribute chain on a name)."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name)


class _Checker:
    def __init__(self, parsed: ParsedFunction | None) -> None:
        self.parsed = parsed

    def fail(self, clause: str, stmt: gast.AST) -> InternalError:
        try:
            text = ast.unparse(gast.gast_to_ast(stmt)).split("\n")[0]
        except Exception:  # a malformed tree: show its dump instead
            text = gast.dump(stmt)[:200]
        location = None
        if self.parsed is not None and getattr(stmt, "lineno", None):
            location = self.parsed.location(stmt)
        return InternalError(f"A-normal form broken: {clause}, in `{text}`", location)

    def function(self, fn: gast.FunctionDef) -> None:
        body = fn.body
        if not body or not isinstance(body[-1], gast.Return):
            raise self.fail(RETURN_LAST, body[-1] if body else fn)
        if not isinstance(body[-1].value, gast.Name):
            raise self.fail(RETURN_LAST, body[-1])
        self.block(body[:-1])

    def block(self, stmts: list[gast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, s: gast.stmt) -> None:
        if isinstance(s, gast.Assign):
            self.assign(s)
        elif isinstance(s, gast.AugAssign):
            if not (isinstance(s.target, gast.Name) and is_atom(s.value)):
                raise self.fail(UPDATE, s)
        elif isinstance(s, gast.Expr):
            if not (isinstance(s.value, gast.Call) and self.call(s.value)):
                raise self.fail(EXPR_CALL, s)
        elif isinstance(s, gast.Assert):
            if not is_atom(s.test) or (s.msg is not None and not is_atom(s.msg)):
                raise self.fail(ASSERT_ATOM, s)
        elif isinstance(s, gast.Raise):
            if any(part is not None and not is_atom(part) for part in (s.exc, s.cause)):
                raise self.fail(RAISE_ATOM, s)
        elif isinstance(s, gast.If):
            if not isinstance(s.test, gast.Name):
                raise self.fail(IF_NAME, s)
            if any(s.test.id in written(b) for b in [*s.body, *s.orelse]):
                raise self.fail(IF_TEST_KEPT, s)
            self.block(s.body)
            self.block(s.orelse)
        elif isinstance(s, gast.For):
            if not (
                isinstance(s.target, gast.Name) and isinstance(s.iter, gast.Name) and not s.orelse
            ):
                raise self.fail(FOR_FORM, s)
            self.block(s.body)
        elif isinstance(s, gast.While):
            if not isinstance(s.test, gast.Name) or s.orelse:
                raise self.fail(WHILE_FORM, s)
            if any(s.test.id in written(b) for b in s.body[:-1]):
                raise self.fail(WHILE_TEST_LAST, s)
            self.block(s.body)
        elif isinstance(s, gast.Return):
            raise self.fail(RETURN_LAST, s)
        elif not isinstance(s, gast.Pass):
            raise self.fail(STATEMENT, s)

    def assign(self, s: gast.Assign) -> None:
        if len(s.targets) != 1:
            raise self.fail(ONE_TARGET, s)
        target = s.targets[0]
        if isinstance(target, gast.Subscript):
            if not isinstance(target.value, gast.Name):
                raise self.fail(ONE_TARGET, s)
            if not self.index(target.slice):
                raise self.fail(INDEX, s)
            if not is_atom(s.value):
                raise self.fail(ONE_OPERATION, s)
            return
        if not isinstance(target, gast.Name):
            raise self.fail(ONE_TARGET, s)
        value = s.value
        if is_atom(value):
            return
        if not self.operation(value):
            raise self.fail(INDEX if isinstance(value, gast.Subscript) else ONE_OPERATION, s)
        if target.id in nodes.names_read(value):
            raise self.fail(NOT_OWN_OPERAND, s)

    def operation(self, v: gast.expr) -> bool:
        if isinstance(v, gast.BinOp):
            return is_atom(v.left) and is_atom(v.right)
        if isinstance(v, gast.UnaryOp):
            return is_atom(v.operand)
        if isinstance(v, gast.Compare):
            return len(v.ops) == 1 and is_atom(v.left) and is_atom(v.comparators[0])
        if isinstance(v, gast.BoolOp):  # a chained comparison's parts
            return all(is_atom(x) for x in v.values)
        if isinstance(v, gast.Call):
            return self.call(v)
        if isinstance(v, gast.Attribute):
            return is_atom(v.value)
        if isinstance(v, gast.Subscript):
            return is_atom(v.value) and self.index(v.slice)
        if isinstance(v, (gast.Tuple, gast.List)):
            return all(is_atom(e) for e in v.elts)
        if isinstance(v, gast.Dict):
            return all(k is not None and is_atom(k) for k in v.keys) and all(
                is_atom(x) for x in v.values
            )
        if isinstance(v, gast.JoinedStr):
            return all(not isinstance(p, gast.FormattedValue) or is_atom(p.value) for p in v.values)
        return False

    def call(self, c: gast.Call) -> bool:
        def argument(a: gast.expr) -> bool:
            if isinstance(a, gast.Starred):
                return is_atom(a.value)
            if isinstance(a, (gast.List, gast.Tuple)):
                return all(is_atom(e) for e in a.elts)
            return is_atom(a)

        if any(k.arg == "out" for k in c.keywords):
            raise self.fail(NO_OUT, c)
        return (
            is_atom(c.func)
            and all(argument(a) for a in c.args)
            and all(argument(k.value) for k in c.keywords)
        )

    def index(self, node: gast.expr) -> bool:
        if isinstance(node, gast.Slice):
            return all(p is None or is_atom(p) for p in (node.lower, node.upper, node.step))
        if isinstance(node, gast.Tuple):
            return all(self.index(e) for e in node.elts)
        return is_atom(node)
