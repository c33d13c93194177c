"""The only module that names version-specific gast classes and fields.

Every other module builds and inspects nodes through these helpers, so a gast
release that renames a field is absorbed here.
"""

from __future__ import annotations

from ast import AST
from collections.abc import Callable, Iterator
from typing import TypeAlias

import gast

Node: TypeAlias = gast.AST
Expr: TypeAlias = gast.expr
Stmt: TypeAlias = gast.stmt


class Comment(gast.stmt):
    """A comment line of generated code (emit/codegen prints `# text`; nothing runs).

    `sweep` is "forward" or "backward" when the statements after it belong to that
    sweep (the emitter then comments them with their source lines), else None.
    """

    _fields = ("text", "sweep")
    text: str
    sweep: str | None


def comment(text: str, sweep: str | None = None) -> Comment:
    return Comment(text=text, sweep=sweep)


def name(id_: str, store: bool = False) -> gast.Name:
    ctx = gast.Store() if store else gast.Load()
    return gast.Name(id=id_, ctx=ctx, annotation=None, type_comment=None)


def param(id_: str) -> gast.Name:
    """A parameter of a function definition."""
    return gast.Name(id=id_, ctx=gast.Param(), annotation=None, type_comment=None)


# The exact types a Constant may hold to be printed as a literal (emit/literals.py); a
# subclass such as np.float64 prints as a call, so a value of it is bound as a name.
LITERAL_TYPES = (bool, int, float, complex, str, bytes, type(None), type(Ellipsis))


def is_literal(value: object) -> bool:
    """Whether `value` can live in a Constant: exactly a literal type, or a tuple of them."""
    if type(value) is tuple:
        return all(is_literal(v) for v in value)
    return type(value) in LITERAL_TYPES


def const(value: object) -> gast.Constant:
    return gast.Constant(value=value, kind=None)


def assign(target: str | gast.expr, value: gast.expr) -> gast.Assign:
    if isinstance(target, str):
        target = name(target, store=True)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def attribute(value: gast.expr, attr: str) -> gast.Attribute:
    return gast.Attribute(value=value, attr=attr, ctx=gast.Load())


def call(func: gast.expr, args: list[gast.expr], keywords: dict[str, gast.expr] | None = None):
    kws = [gast.keyword(arg=k, value=v) for k, v in (keywords or {}).items()]
    return gast.Call(func=func, args=args, keywords=kws)


def expr_stmt(value: gast.expr) -> gast.Expr:
    return gast.Expr(value=value)


def binop(left: gast.expr, op: gast.operator, right: gast.expr) -> gast.BinOp:
    return gast.BinOp(left=left, op=op, right=right)


def tuple_(elts: list[gast.expr], store: bool = False) -> gast.Tuple:
    return gast.Tuple(elts=elts, ctx=gast.Store() if store else gast.Load())


def subscript(value: gast.expr, index: gast.expr) -> gast.Subscript:
    return gast.Subscript(value=value, slice=index, ctx=gast.Load())


def if_(test: gast.expr, body: list[gast.stmt], orelse: list[gast.stmt] | None = None):
    return gast.If(test=test, body=body, orelse=orelse or [])


def for_(target: str, iter_: gast.expr, body: list[gast.stmt]) -> gast.For:
    return gast.For(
        target=name(target, store=True), iter=iter_, body=body, orelse=[], type_comment=None
    )


def while_(test: gast.expr, body: list[gast.stmt]) -> gast.While:
    return gast.While(test=test, body=body, orelse=[])


def return_(value: gast.expr | None) -> gast.Return:
    return gast.Return(value=value)


def arguments(names: list[str], defaults: list[gast.expr] | None = None) -> gast.arguments:
    return gast.arguments(
        args=[name(n, store=False) for n in names],
        posonlyargs=[],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=defaults or [],
    )


def function_def(fname: str, args: gast.arguments, body: list[gast.stmt]) -> gast.FunctionDef:
    fn = gast.FunctionDef(
        name=fname,
        args=args,
        body=body,
        decorator_list=[],
        returns=None,
        type_comment=None,
    )
    if "type_params" in gast.FunctionDef._fields:
        fn.type_params = []
    return fn


def param_names(fn: gast.FunctionDef) -> list[str]:
    """Positional parameter names of a function definition, in order."""
    a = fn.args
    return [p.id for p in [*a.posonlyargs, *a.args]]


def all_param_names(fn: gast.FunctionDef) -> list[str]:
    """Every parameter name: positional, *args, keyword-only, **kwargs."""
    a = fn.args
    rest = [p for p in (a.vararg, *a.kwonlyargs, a.kwarg) if p is not None]
    return [*param_names(fn), *(p.id for p in rest)]


_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")
# kept by deepcopy too: the names a write is asked at run time to leave alone, and
# whether it runs only where its base is an array (transform.view_updates marks them,
# transform.plan and transform.container_checks read them)
_KEPT = (*_POSITIONS, "untouched", "into_array")


def unlocate(tree: gast.AST) -> None:
    """Remove the source positions of every node of `tree` (see `locate_at`)."""
    for node in walk(tree):
        for attr in _POSITIONS:
            if hasattr(node, attr):
                setattr(node, attr, None)


def locate_at(tree: gast.AST | list, where: gast.AST) -> None:
    """Give every node of `tree` without a line the position of `where`: code inlined
    from another file is located at the call it replaces."""
    for top in tree if isinstance(tree, list) else [tree]:
        for node in walk(top):
            if getattr(node, "lineno", None) is None and hasattr(where, "lineno"):
                for attr in _POSITIONS:
                    setattr(node, attr, getattr(where, attr, None))


def deepcopy(node: Node) -> Node:
    """A deep copy of a gast tree (several times faster than copy.deepcopy).

    Every field is set (None where the original lacks it) and the positions and marks
    in `_KEPT` are kept where the original has them. A class built by gast (whose
    constructor only stores its keyword arguments in the instance dictionary) is
    copied by filling a new instance's dictionary directly: half the time of calling
    the constructor, and copies are a tenth of a cold build."""
    if isinstance(node, list):
        return [deepcopy(n) for n in node]
    if not isinstance(node, AST):
        return node
    cls = node.__class__
    inherited = _GAST_BUILT.get(cls)
    if inherited is None:
        new = cls(**{f: deepcopy(getattr(node, f, None)) for f in node._fields})
        for attr in _KEPT:
            if hasattr(node, attr):
                setattr(new, attr, getattr(node, attr))
        return new
    new = cls.__new__(cls)
    into, src = new.__dict__, node.__dict__
    for f in cls._fields:
        value = src[f] if f in src else getattr(node, f, None)
        into[f] = deepcopy(value) if isinstance(value, (list, AST)) else value
    into.update(inherited)
    for attr in _KEPT:
        if attr in src:
            into[attr] = src[attr]
    return new


def copy_mapped(node: Node, child: Callable[[Node], Node]) -> Node:
    """A copy of `node` as `deepcopy` makes it, but with `child(c)` for each node c among
    its fields (in field order, list items too): one level of a copying transformer."""
    cls = node.__class__
    inherited = _GAST_BUILT.get(cls)
    if inherited is None:
        new = cls(**{f: _mapped(getattr(node, f, None), child) for f in node._fields})
        for attr in _KEPT:
            if hasattr(node, attr):
                setattr(new, attr, getattr(node, attr))
        return new
    new = cls.__new__(cls)
    into, src = new.__dict__, node.__dict__
    for f in cls._fields:
        value = src[f] if f in src else getattr(node, f, None)
        into[f] = _mapped(value, child) if isinstance(value, (list, AST)) else value
    into.update(inherited)
    for attr in _KEPT:
        if attr in src:
            into[attr] = src[attr]
    return new


def _mapped(value: object, child: Callable[[Node], Node]) -> object:
    if isinstance(value, AST):
        return child(value)
    if isinstance(value, list):
        return [child(v) if isinstance(v, AST) else deepcopy(v) for v in value]
    return value


def _gast_built() -> dict[type, dict[str, object]]:
    """gast's node classes whose constructor is gast's `create_node` (it only stores its
    keyword arguments in the instance dictionary), each with the `_KEPT` attributes its
    class defines (`end_lineno = None`), which a copy holds as the original does."""
    found = {}
    for value in vars(gast.gast).values():
        if not (isinstance(value, type) and issubclass(value, AST)):
            continue
        if getattr(value.__init__, "__name__", "") == "create_node":
            found[value] = {a: getattr(value, a) for a in _KEPT if hasattr(value, a)}
    return found


_GAST_BUILT = _gast_built()


def walk(node: gast.AST) -> Iterator[gast.AST]:
    """Every node under `node`, itself first, in `ast.walk`'s order (breadth first),
    except the expression contexts and operators of a gast tree (`_LEAVES`).

    The same generator as `ast.walk` (a node's children are found before it is
    yielded), level by level and without a per-node `iter_child_nodes` generator:
    a cold build walks trees tens of thousands of times. The fields of gast's
    classes that hold names, strings or numbers (`_NOT_NODES`) are not read, nor
    those that hold a context (`Load()`) or an operator (`Add()`): leaves that no
    question asked through a walk is about (read `node.ctx` or `node.op` instead),
    about a third of an A-normal form's nodes. A tree of `ast`'s own classes is
    walked whole.
    """
    level = [node]
    fields_of = _CHILD_FIELDS
    while level:
        following: list[gast.AST] = []
        push = following.append
        for current in level:
            cls = current.__class__
            fields = fields_of.get(cls)
            if fields is None:
                fields = _child_fields(cls)
            if fields:
                get = current.__dict__.get  # a node's fields live in its dictionary
                for field in fields:
                    value = get(field)
                    if isinstance(value, AST):
                        push(value)
                    elif isinstance(value, list):
                        for item in value:
                            if isinstance(item, AST):
                                push(item)
            yield current
        level = following


# fields of gast's classes that hold a name, a string, a number or a Python value, never a
# node (named one by one: gast's own `_field_types` call ExceptHandler.name a string, and
# gast puts a Name there)
_NOT_NODES = {
    "Name": ("id", "type_comment"),
    "Constant": ("value", "kind"),
    "Attribute": ("attr",),
    "keyword": ("arg",),
    "alias": ("name", "asname"),
    "FunctionDef": ("name", "type_comment"),
    "AsyncFunctionDef": ("name", "type_comment"),
    "ClassDef": ("name",),
    "Assign": ("type_comment",),
    "For": ("type_comment",),
    "AsyncFor": ("type_comment",),
    "With": ("type_comment",),
    "AsyncWith": ("type_comment",),
    "ImportFrom": ("module", "level"),
    "Global": ("names",),
    "Nonlocal": ("names",),
    "comprehension": ("is_async",),
    "AnnAssign": ("simple",),
    "FormattedValue": ("conversion",),
}
# fields of gast's classes that hold an expression context or operators (leaf nodes)
_LEAVES = ("ctx", "op", "ops")
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of `cls` that may hold nodes other than contexts and operators (all of
    them for a class not gast's)."""
    skipped: tuple[str, ...] = ()
    if getattr(gast, cls.__name__, None) is cls:
        skipped = (*_NOT_NODES.get(cls.__name__, ()), *_LEAVES)
    found = tuple(f for f in cls._fields if f not in skipped)
    _CHILD_FIELDS[cls] = found
    return found


def subtree(node: gast.AST) -> list[gast.AST]:
    """Every node under `node` as a list, in `walk`'s order (contexts and operators of a
    gast tree left out), all found before any is returned: for questions that do not
    change the tree (a third faster than walking, with no generator to resume at each
    node)."""
    found = [node]
    push = found.append
    fields_of = _CHILD_FIELDS
    for current in found:  # grows while it is read: breadth first
        cls = current.__class__
        fields = fields_of.get(cls)
        if fields is None:
            fields = _child_fields(cls)
        if fields:
            get = current.__dict__.get
            for field in fields:
                value = get(field)
                if isinstance(value, AST):
                    push(value)
                elif isinstance(value, list):
                    for item in value:
                        if isinstance(item, AST):
                            push(item)
    return found


def unplaced(node: Node) -> Node:
    """`node` with `lineno` and `end_lineno` cleared (None) on every node that has a
    `lineno`: positions that mean nothing where the tree is put (a rule's file)."""
    for child in walk(node):
        if hasattr(child, "lineno"):
            child.lineno = child.end_lineno = None
    return node


def located(new: Node, old: Node) -> Node:
    """Give `new` (and its children lacking one) the source position of `old`."""
    line = getattr(old, "lineno", None)
    if line is None:
        return new
    for child in walk(new):
        if isinstance(child, (gast.stmt, gast.expr)) and getattr(child, "lineno", None) is None:
            child.lineno = line
            child.col_offset = getattr(old, "col_offset", 0)
            child.end_lineno = getattr(old, "end_lineno", line)
            child.end_col_offset = getattr(old, "end_col_offset", 0)
    return new


def names_read(node: Node) -> set[str]:
    """Every Name loaded anywhere under node; `b *= m` reads b too."""
    found = set()
    for n in subtree(node):  # one pass: names read are a cold build's most asked question
        if isinstance(n, gast.Name):
            if isinstance(n.ctx, gast.Load):
                found.add(n.id)
        elif isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name):
            found.add(n.target.id)
    return found


def names_stored(node: Node) -> set[str]:
    """Every Name stored anywhere under node (assignment and loop targets)."""
    return {
        n.id
        for n in subtree(node)
        if isinstance(n, gast.Name) and isinstance(n.ctx, (gast.Store, gast.Param))
    }


def assigned_name(stmt: gast.Assign) -> str:
    """The variable an ANF assignment binds or writes into (`y` for `y = ...`, `y[i] = ...`)."""
    target = stmt.targets[0]
    return target.value.id if isinstance(target, gast.Subscript) else target.id


def is_item_write(stmt: gast.stmt) -> bool:
    """`y[index] = value`: an in-place write into an array."""
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript)
