"""Inline the module-level helpers that change a parameter in place, at their calls.

`def h(a, q): q *= 1.5; return a` called as `t = h(x, y)` changes the caller's array
y. Differentiated apart (a split variant), that write is invisible to the caller's
gradient, which must then refuse wherever y is read afterwards (transform.in_place).
Inlined, the write is the caller's own in-place update of y (or of a name sharing its
memory), which transform.in_place differentiates or refuses like any other: the
gradient follows what runs, or a located error says why it cannot.

Assumes: A-normal form, nested functions inlined (normalize.closure_calls, whose
Inliner expands these calls the same way). `helper(obj)` gives the Closure of a
function to inline (its free names bound in the generated module, its defaults as
the function holds them), or None: only plain functions, neither checkpointed nor
holding nested functions, that change a parameter in place (analyze.effects). A helper
of another file comes without positions (its lines would name lines of the caller's
file): its statements are located at the call they replace.
Guarantees: no call `t = h(atoms)` / `h(atoms)` of such a helper remains, but
recursive ones (a helper reached again inside its own inlined body is called as it
is), those beyond MAX_INLINED calls or MAX_STATEMENTS statements inlined in one
function, and those whose changed parameters receive only temporaries no one reads
again that may be lists (`h(v * k)`: Helpers.changes_only_temporaries); A-normal
form. Invalidates: every analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gast

from ..parse.resolve import MISSING, Scope
from ..syntax import nodes
from ..syntax.nodes import walk
from .closure_calls import Inliner, _unpacked, rewrite_block
from .closures import Closure

Helper = Callable[[object], Closure | None]

# inlined calls and statements per function at most: beyond them, calls stay calls (as
# differentiated apart), so that many calls do not grow the function beyond what the
# analyses (analyze.aliases joins its facts at every branch) take in reasonable time
# (400 statements took 10 to 20 s to build on a loaded machine; 200 take 2 to 8)
MAX_INLINED = 16
MAX_STATEMENTS = 200


@dataclass
class Helpers:
    inliner: Inliner  # the caller's (its namer, scope and normalize)
    scope: Scope
    helper: Helper
    effects_of: Callable[[object], object] | None = None  # analyze.effects (or None)
    inlined_calls: int = 0
    inlined_statements: int = 0
    fn: gast.FunctionDef | None = None

    def run(self, fn: gast.FunctionDef) -> gast.FunctionDef:
        self.fn = fn
        fn.body = self.block(fn.body, (), fn)
        return fn

    def block(self, stmts: list[gast.stmt], stack: tuple, tree: gast.AST) -> list[gast.stmt]:
        """`tree`: where these statements are (to count the reads of a call's target)."""

        def inlined(stmts: list[gast.stmt], i: int) -> tuple[list[gast.stmt], int] | None:
            stmt = stmts[i]
            found = self.inlined(stmt, stack)
            if found is None:
                return None
            call, func, closure = found
            target = stmt.targets[0].id if isinstance(stmt, gast.Assign) else None
            unpack = _unpacked(target, stmts[i + 1 :], tree) if target else []
            code, used = self.inliner.expand(call, closure, target, {}, (), unpack)
            nodes.locate_at(code, stmt)  # a helper of another file: at its call
            module = gast.Module(body=code, type_ignores=[])
            size = sum(isinstance(n, gast.stmt) for n in walk(module))
            if self.inlined_statements + size > MAX_STATEMENTS:
                return [stmt], 0  # too large here: called as it is
            self.inlined_statements += size
            try:
                code = self.block(code, (*stack, func), module)
            except _Recursive as again:
                if again.func is not func:
                    raise
                return [stmt], 0  # recursive: called as it is (the call untouched)
            return code, len(unpack) if used else 0

        return rewrite_block(stmts, inlined, lambda inner: self.block(inner, stack, tree))

    def inlined(self, stmt: gast.stmt, stack: tuple) -> tuple[gast.Call, object, Closure] | None:
        """(call, function, its Closure) when stmt calls a helper to inline here."""
        if isinstance(stmt, gast.Assign):
            if not isinstance(stmt.targets[0], gast.Name):
                return None
        elif not isinstance(stmt, gast.Expr):
            return None
        call = stmt.value
        if not isinstance(call, gast.Call):
            return None
        if any(isinstance(a, gast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return None
        func = self.scope.resolve(call.func)
        if func is MISSING:
            return None
        if any(func is f for f in stack):
            raise _Recursive(func)
        if self.inlined_calls >= MAX_INLINED:
            return None
        closure = self.helper(func)
        if closure is None:
            return None
        try:
            bound = closure.signature.bind(*call.args, **{k.arg: k.value for k in call.keywords})
        except TypeError:
            return None  # called as it is: the call's own check says what is wrong
        if self.changes_only_temporaries(func, bound.arguments):
            return None
        self.inlined_calls += 1
        return call, func, closure

    def changes_only_temporaries(self, func: object, arguments: dict) -> bool:
        """Whether every argument a parameter the helper changes receives is a constant, or
        a name bound once, to `+` or `*` of names (`_t = v * k`: perhaps a list repeated)
        and read only by this call: called as it is, the helper changes nothing the caller
        reads again (transform.in_place still checks what may share it), where inlined
        its update would write into what may be a list (refused)."""
        effects = self.effects_of(func) if self.effects_of is not None else None
        if effects is None or self.fn is None:
            return False
        for param, _ in effects.mutated:
            value = arguments.get(param)
            if value is None or isinstance(value, gast.Constant):
                continue  # its default, or a number
            if not isinstance(value, gast.Name) or not self.temporary(value.id):
                return False
        return bool(effects.mutated)

    def temporary(self, name: str) -> bool:
        """`name` bound once in the function, to `a + b` or `a * b` of names, read once."""
        stores = [
            s
            for s in walk(self.fn)
            if isinstance(s, gast.stmt) and name in nodes.names_stored(s) and not hasattr(s, "body")
        ]
        reads = sum(
            1
            for n in walk(self.fn)
            if isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load)
        )
        value = stores[0].value if len(stores) == 1 and isinstance(stores[0], gast.Assign) else None
        return (
            name not in nodes.all_param_names(self.fn)
            and reads == 1
            and isinstance(value, gast.BinOp)
            and isinstance(value.op, (gast.Add, gast.Mult))
            and isinstance(value.left, gast.Name)
            and isinstance(value.right, gast.Name)
        )


class _Recursive(Exception):
    """A helper reached again inside its own inlined body: its outermost call stays."""

    def __init__(self, func: object) -> None:
        super().__init__(func)
        self.func = func


def own_definitions(node: gast.FunctionDef) -> bool:
    """Whether `node` defines functions or lambdas inside itself."""
    return any(isinstance(n, (gast.FunctionDef, gast.Lambda)) and n is not node for n in walk(node))


def defaults_inlined(closure: Closure, pre: list[gast.stmt]) -> Closure | None:
    """The closure with the defaults `pre` assigns (`_h_c1 = c_default`, a name bound in
    the generated module) read directly; None when one is no such name."""
    held = {s.targets[0].id: s.value for s in pre}
    for param, value in closure.defaults.items():
        if isinstance(value, gast.Name) and value.id in held:
            if not isinstance(held[value.id], gast.Name):
                return None
            closure.defaults[param] = nodes.deepcopy(held[value.id])
    return closure
