"""The alias analysis (what may share memory, what is read later, what is surely a view),
liveness, and the effects of helpers on their arguments, asserted as compact dumps."""

from __future__ import annotations

import gast
import pytest
from reference import load_module
from stages import prepare

from tangentlike.analyze import aliases, liveness
from tangentlike.analyze.effects import Effects, Mutation, Summaries
from tangentlike.emit import codegen
from tangentlike.errors import SourceLocation
from tangentlike.pipeline import ModuleBuilder
from tangentlike.rules.registry import default_registry


def _normal_form(tmp_path, monkeypatch, body: str, params: str = "x"):
    """A-normal form of `def f(params): body`, `op=` statements not lowered yet (the
    normalize passes only; the builder answers what callees do to their arguments)."""
    stage = prepare(tmp_path, f"def f({params}):\n{body}").normalize()
    return stage.fn, stage.scope, ModuleBuilder(stage.registry)


def _dump(tmp_path, monkeypatch, body: str, params: str = "x") -> str:
    """For each update in place and the return: the update, who shares its target's
    memory, which names are read afterwards, and the sure views."""
    fn, scope, builder = _normal_form(tmp_path, monkeypatch, body, params)
    found = aliases.analyze(fn, scope, builder.registry, builder.effects_of)
    out = []
    for stmt in _in_order(fn.body):
        if isinstance(stmt, gast.AugAssign):
            name = stmt.target.id
        elif isinstance(stmt, gast.Return):
            name = stmt.value.id
        else:
            continue
        text = (
            codegen.function_source(
                gast.FunctionDef(
                    name="s",
                    args=fn.args,
                    body=[stmt],
                    decorator_list=[],
                    returns=None,
                    type_comment=None,
                    type_params=[],
                ),
                None,
            )
            .splitlines()[1]
            .strip()
        )
        memory = found.before[id(stmt)]
        views = ", ".join(f"{n}={_view(v)}" for n, v in sorted(memory.views.items()))
        live = sorted(found.live[id(stmt)] & found.locals)
        out.append(
            f"{text}: shares {','.join(found.sharers(stmt, name)) or '-'}"
            f"; live {','.join(live) or '-'}; views {views or '-'}"
        )
    return "\n".join(out)


def _in_order(stmts):
    for stmt in stmts:
        yield stmt
        for part in ("body", "orelse"):
            yield from _in_order(getattr(stmt, part, []) or [])


def _view(view) -> str:
    """`y[1:3]` for a sure view, the value (`np.transpose(y)`, `y`) for one that may be."""
    import ast

    if view.maybe:  # of a base that may be no array: asked at run time (runtime.part_of)
        return f"maybe({ast.unparse(gast.gast_to_ast(view.value))})"
    if view.kind == "index":
        return f"{view.base}[{codegen_index(view.index)}]"
    if view.kind == "same":  # the base itself on one path only
        return f"same({view.base})"
    return ast.unparse(gast.gast_to_ast(view.value))


def codegen_index(index: gast.expr) -> str:
    import ast

    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    return ", ".join(ast.unparse(gast.gast_to_ast(p)) for p in parts)


def test_aliases_views_and_copies(tmp_path, monkeypatch):
    body = (
        "    y = x * 1.0\n    z = y\n    v = y[1:3]\n    w = y[np.array([0, 1])]\n"
        "    c = y.copy()\n    z += 1.0\n    return np.sum(v + c)\n"
    )
    assert _dump(tmp_path, monkeypatch, body) == (
        # w = y[idx] may be a view for all the analysis knows (the run-time check tells);
        # c is a new array; x is an argument, not shared with y = x * 1.0
        "z += 1.0: shares v,w,y; live c,v; views v=y[1:3], z=y\n"
        "return f: shares -; live -; views v=y[1:3], z=y"
    )


def test_numbers_and_new_values_share_nothing(tmp_path, monkeypatch):
    body = "    s = 0.0\n    t = s\n    s += x\n    u = x * 2.0\n    u *= 3.0\n    return s + u\n"
    assert _dump(tmp_path, monkeypatch, body) == (
        "s += x: shares -; live s,x; views t=s\n"  # 0.0 is a number: t shares nothing
        "u *= 3.0: shares -; live s,u; views -\n"
        "return f: shares -; live -; views -"
    )


def test_sure_views_need_a_slice_and_integers(tmp_path, monkeypatch):
    body = (
        "    Y = x * 1.0\n    k = len(x) - 1\n"
        "    a = Y[:, 0]\n    b = Y[0]\n    c = Y[k:, 1]\n    d = Y[x, 1:]\n"
        "    L = [x, x]\n    e = L[0:1]\n    a += 1.0\n    return np.sum(Y)\n"
    )
    # b: an integer alone may give a number (a view asked at run time); d: x may be an
    # index array; e: a list's slice (a new list), which is a view only if L turns out an
    # array: asked at run time
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0] == (
        "a += 1.0: shares Y,b,c,d; live Y; views a=Y[:, 0], b=Y[0], c=Y[k:, 1], e=maybe(L[0:1])"
    )


def test_rebinding_the_base_or_the_index_ends_a_view(tmp_path, monkeypatch):
    body = (
        "    Y = x * 1.0\n    i = 0\n    a = Y[i:]\n    b = Y[1:]\n    i = 1\n"
        "    Y = x * 2.0\n    a += 1.0\n    return np.sum(Y)\n"
    )
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0] == (
        "a += 1.0: shares b; live Y; views -"
    )


def test_loops_and_branches_join(tmp_path, monkeypatch):
    body = (
        "    y = x * 1.0\n    w = x * 2.0\n    for i in range(3):\n"
        "        if i > 1:\n            z = y[0:2]\n        else:\n            z = w\n"
        "        z += 1.0\n    return np.sum(y)\n"
    )
    # z is y's view on one path and w itself on the other: no sure view, perhaps w
    # itself (a "same" view, asked at run time); w is not read again
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0] == (
        "z += 1.0: shares w,y; live _r1,w,y; views z=same(w)"
    )


def test_liveness_is_carried_around_loops():
    source = (
        "def f(x, r):\n    s = 0.0\n    v = x\n    for i in r:\n        s = s + v\n"
        "        v = x * i\n    return s\n"
    )
    fn = gast.parse(source).body[0]
    live = liveness.live_after(fn)
    loop = fn.body[2]
    first, second = loop.body
    assert live[id(first)] == {"i", "r", "s", "x"}  # v is rebound before it is read again
    assert live[id(second)] == {"r", "s", "v", "x"}
    assert live[id(fn.body[1])] == {"r", "s", "v", "x"}  # the loop may not run: s is read


def _def(tmp_path, source: str):
    return load_module(tmp_path, "import numpy as np\n\n\n" + source)


def test_effects_of_helpers(tmp_path):
    module = _def(
        tmp_path,
        "def bump(v):\n    v += 1.0\n    return v\n\n\n"
        "def first(v, w):\n    return v[0:1]\n\n\n"
        "def fresh(v):\n    u = v * 2.0\n    u += 1.0\n    return u\n\n\n"
        "def through(a, b):\n    c = bump(b)\n    return c * 2.0 + a\n",
    )
    builder = ModuleBuilder(default_registry())
    bump = builder.effects_of(module.bump)
    assert [p for p, _ in bump.mutated] == ["v"] and bump.returned == {"v"}
    assert bump.mutated[0][1].describe().startswith("`v += 1.0` at tl_case_")
    first = builder.effects_of(module.first)
    assert first.mutated == () and first.returned == {"v"}
    assert builder.effects_of(module.fresh) == Effects(array=True)  # u: certainly no list
    through = builder.effects_of(module.through)
    assert [p for p, _ in through.mutated] == ["b"] and through.returned == frozenset()
    # bump is inlined in through (normalize.helper_calls): its update is through's own
    assert through.mutated[0][1].describe().startswith("`v += 1.0` at tl_case_")


def test_effects_of_unreadable_functions_are_unknown():
    builder = ModuleBuilder(default_registry())
    assert builder.effects_of(len) is None


def _mutating(*params):
    where = SourceLocation("m.py", 1, 0)
    return Effects(tuple((p, Mutation(where, "p += 1")) for p in params))


def test_summaries_reach_a_fixed_point_through_recursion():
    summaries = Summaries()
    calls = []

    def compute(func):
        calls.append(func)
        if func == "a":  # a passes its parameter to b
            return _mutating(*[p for p, _ in summaries.get("b", compute).mutated])
        if func == "b":  # b changes p itself, and calls a
            summaries.get("a", compute)
            return _mutating("p")
        if func == "c":  # c only calls itself
            return summaries.get("c", compute)
        raise AssertionError(func)

    assert [p for p, _ in summaries.get("a", compute).mutated] == ["p"]
    assert [p for p, _ in summaries.get("b", compute).mutated] == ["p"]
    assert summaries.get("c", compute) == Effects()  # nothing changes anything: nothing
    assert not summaries.stack and set(summaries.done) == {"a", "b", "c"}


@pytest.mark.parametrize(
    "body,expected",
    [
        ("    return x\n", {"x"}),
        ("    y = [x, 1.0]\n    return y\n", {"x"}),  # a list holds its elements
        ("    return x * 1.0\n", set()),
        ("    return np.reshape(x, (2, 2))\n", {"x"}),  # may be a view
        ("    return np.sum(x, axis=0)\n", set()),  # always new
        ("    return x if x[0] > 0 else x * 2.0\n", {"x"}),
    ],
)
def test_what_a_function_returns(tmp_path, body, expected):
    module = _def(tmp_path, f"def f(x):\n{body}")
    assert ModuleBuilder(default_registry()).effects_of(module.f).returned == expected


def test_a_base_bound_on_one_path_makes_no_same_view(tmp_path, monkeypatch):
    body = (
        "    if x[0] > 0:\n        b = x * 1.0\n        z = b\n    else:\n"
        "        z = x * 2.0\n    z += 1.0\n    return np.sum(z)\n"
    )
    # b is unbound on the other path: a run-time test could not read it
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0].endswith("views -")


def test_a_reshape_on_one_path_stays_a_view_where_the_other_shares_nothing(tmp_path, monkeypatch):
    body = (
        "    y = x * 1.0\n    if x[0] > 0:\n        z = y.reshape(2, 2)\n    else:\n"
        "        z = np.ones((2, 2))\n    y += 1.0\n    return np.sum(z)\n"
    )
    # analyze/joins.py: a view that may be a copy, asked at run time (same_memory), which
    # is False on the path where z is the new array
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0] == (
        "y += 1.0: shares z; live z; views z=np.reshape(y, (2, 2))"
    )


def test_a_reshape_on_one_path_is_no_view_where_the_other_may_share_its_base(tmp_path, monkeypatch):
    body = (
        "    y = x * 1.0\n    if x[0] > 0:\n        z = y.reshape(2, 2)\n    else:\n"
        "        z = y[np.array([0, 1])]\n    y += 1.0\n    return np.sum(z)\n"
    )
    assert _dump(tmp_path, monkeypatch, body).splitlines()[0] == (
        "y += 1.0: shares z; live z; views -"
    )


def test_a_slice_on_one_path_is_asked_where_the_other_shares_nothing(tmp_path, monkeypatch):
    body = (
        "    y = x * 1.0\n    z = None\n    if x[0] > 0:\n        z = y[0:2]\n"
        "    y += 1.0\n    return np.sum(z)\n"
    )
    fn, scope, builder = _normal_form(tmp_path, monkeypatch, body)
    found = aliases.analyze(fn, scope, builder.registry, builder.effects_of)
    update = next(s for s in _in_order(fn.body) if isinstance(s, gast.AugAssign))
    view = found.before[id(update)].views["z"]
    assert (view.base, view.kind, codegen_index(view.index)) == ("y", "expand", "0:2")
