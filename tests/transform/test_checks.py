"""Debug mode (checks=True, TANGENTLIKE_CHECKS=1): the generated code checks its stack and its
adjoints as it runs, catches a desynchronised stack or a wrong-shaped adjoint with a clear
message, and computes (and saves) exactly what plain mode does."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import numpy as np
import pytest
from corpus import containers, functions, in_place, programs
from reference import load_module

import tangentlike as tl
from tangentlike import pipeline
from tangentlike.errors import CheckError
from tangentlike.runtime import boundary

SOURCE = """\
import numpy as np


def f(x, y):
    s = x * y
    for _ in range(3):
        s = np.sin(s) * y
    return np.sum(s * s)


def g(x):
    return np.sum(np.sin(x) * 2.0)


def h(x):
    return x * 2.0, np.sum(x)
"""
X, Y = np.array([0.3, -0.2, 0.5]), np.array([1.1, 0.7, -0.4])


@pytest.fixture
def module(tmp_path):
    return load_module(tmp_path, SOURCE)


def _run(source: str, name: str, *args):
    """Run the function `name` of a (hand-edited) generated module."""
    namespace: dict = {}
    exec(compile(source, "<edited>", "exec"), namespace)
    return namespace[name](*args)


# --------------------------------------------------------------------------- the option


@pytest.mark.parametrize("make", [tl.grad, tl.value_and_grad, tl.vjp])
def test_checks_come_from_the_argument_or_else_the_environment(module, make, monkeypatch):
    monkeypatch.delenv("TANGENTLIKE_CHECKS", raising=False)
    plain = make(module.f).source
    assert "popped(" not in plain and "stack_drained(" not in plain
    assert make(module.f, checks=False).source == plain  # byte-identical
    checked = make(module.f, checks=True).source
    assert "popped(" in checked and "stack_drained(" in checked
    assert "checks=True" in checked.splitlines()[0]
    for value in ("1", "true", "on"):
        monkeypatch.setenv("TANGENTLIKE_CHECKS", value)
        assert make(module.f).source == checked
        assert make(module.f, checks=False).source == plain  # the argument wins
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "0")
    assert make(module.f).source == plain
    assert make(module.f, checks=True).source == checked


def test_each_mode_is_cached_apart(module, monkeypatch):
    monkeypatch.delenv("TANGENTLIKE_CHECKS", raising=False)
    plain, checked = tl.grad(module.f), tl.grad(module.f, checks=True)
    assert plain is not checked
    assert tl.grad(module.f) is plain and tl.grad(module.f, checks=True) is checked
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "1")
    assert tl.grad(module.f) is checked


def test_the_disk_cache_keeps_the_modes_apart(tmp_path):
    (tmp_path / "dm.py").write_text(SOURCE)
    code = (
        "import os, sys; sys.path.insert(0, os.getcwd()); import dm, tangentlike as tl;"
        "df = tl.grad(dm.f, wrt=(0, 1)); print(df.built_from, 'popped(' in df.source)"
    )

    def build(checks: str) -> str:
        env = {**os.environ, "TANGENTLIKE_CACHE_DIR": str(tmp_path / "cache")}
        env["TANGENTLIKE_CHECKS"] = checks
        env.pop("TANGENTLIKE_DISK_CACHE", None)
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert build("1") == "transform True"
    assert build("0") == "transform False"
    assert build("1") == "disk cache True"
    assert build("0") == "disk cache False"


# --------------------------------------------------------------------------- same gradients

CASES = [
    pytest.param(case[:3], id=f"{corpus.__name__}-{getattr(case[0], '__name__', 'object')}-{k}")
    for corpus in (programs, functions, containers, in_place)
    for k, case in enumerate(corpus.CASES)
]


@pytest.mark.parametrize("case", CASES)
def test_debug_mode_computes_and_saves_what_plain_mode_does(case):
    f, make, wrt = case
    plain = tl.grad(f, wrt=wrt, checks=False, stats=True)
    checked = tl.grad(f, wrt=wrt, checks=True, stats=True)
    expected, got = plain(*make()), checked(*make())
    for a, b in zip(_flat(expected), _flat(got), strict=True):
        np.testing.assert_array_equal(a, b)
    if getattr(plain, "stats", None) is not None:  # specialised gradients keep no stats
        assert checked.stats.pushes == plain.stats.pushes
    assert checked.source.count("_push(") == plain.source.count("_push(")


def _flat(value) -> list:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _flat(v)]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flat(v)]
    return [np.asarray(value)]


# --------------------------------------------------------------------------- the stack


def _checked_source(module) -> str:
    return tl.grad(module.f, wrt=(0, 1), checks=True).source


def test_a_pushed_value_nobody_pops_is_caught(module):
    source = _checked_source(module)
    edited = source.replace(
        "    # backward sweep\n", "    _push(('bogus at m.py:99', 0.0))\n    # backward sweep\n", 1
    )
    assert edited != source
    with pytest.raises(ValueError) as err:
        _run(edited, "df", X, Y)
    assert "the stack is out of step: restoring" in str(err.value)
    assert "popped the value saved for bogus at m.py:99" in str(err.value)


def test_an_unlabelled_push_is_caught(module):
    source = _checked_source(module)
    edited = source.replace(
        "    # backward sweep\n", "    _stack.append(0.0)\n    # backward sweep\n", 1
    )
    with pytest.raises(ValueError, match="popped an unlabelled value"):
        _run(edited, "df", X, Y)


def test_swapped_pops_are_caught(module):
    source = _checked_source(module)
    lines = source.splitlines()
    pops = [i for i, line in enumerate(lines) if "= popped(_stack, " in line]
    assert len(pops) >= 2
    first, second = pops[0], pops[1]
    lines[first], lines[second] = lines[second], lines[first]
    with pytest.raises(ValueError) as err:
        _run("\n".join(lines) + "\n", "df", X, Y)
    message = str(err.value)
    assert "debug check: the stack is out of step" in message
    assert f"{os.path.basename(module.__file__)}:" in message  # sites are named by file:line


def test_a_value_left_on_the_stack_is_caught(module):
    source = _checked_source(module)
    bottom = "    _push = _stack.append\n"
    edited = source.replace(bottom, bottom + "    _push(('early at m.py:1', 0.0))\n", 1)
    assert edited != source
    with pytest.raises(ValueError) as err:
        _run(edited, "df", X, Y)
    message = str(err.value)
    assert "the stack still holds 1 value(s) at the end of the gradient of f" in message
    assert "(the last pushed: early at m.py:1)" in message


def test_an_extra_pop_finds_the_stack_empty(module):
    source = _checked_source(module)
    edited = source.replace(
        "    stack_drained(", "    s = popped(_stack, 's at m.py:7')\n    stack_drained(", 1
    )
    assert edited != source
    with pytest.raises(ValueError, match="the stack is empty where the backward sweep restores"):
        _run(edited, "df", X, Y)


def test_plain_mode_has_none_of_it(module):
    source = tl.grad(module.f, wrt=(0, 1), checks=False).source
    assert "popped(" not in source and "adjoint_contribution(" not in source
    assert "_pop()" in source and "_push(s)" in source


# --------------------------------------------------------------------------- adjoints


def _rewrap(source: str, make) -> str:
    """Replace the first argument of each adjoint_contribution call by make(argument)."""
    tree = ast.parse(source)
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "adjoint_contribution":
            node.args[0] = make(node.args[0])
            count += 1
    assert count
    return ast.unparse(tree)


def test_a_wrong_shape_contribution_is_caught(module):
    source = tl.grad(module.g, checks=True).source
    assert "adjoint_contribution(" in source

    def shrink(arg):
        return ast.parse(f"np.sum({ast.unparse(arg)}, axis=0, keepdims=True)").body[0].value

    with pytest.raises(ValueError) as err:
        _run(_rewrap(source, shrink), "dg", np.ones((3, 4)))
    message = str(err.value)
    assert message.startswith("tangentlike: debug check: the backward code of ")
    assert "added to an adjoint a value of shape (1, 4), but " in message
    assert "has shape (3, 4)" in message and "a tangentlike bug" in message


def test_a_complex_contribution_is_caught(module):
    source = tl.grad(module.g, checks=True).source

    def complexify(arg):
        return ast.parse(f"({ast.unparse(arg)}) + 0j").body[0].value

    with pytest.raises(ValueError, match=r"a value that is complex \(complex128\)"):
        _run(_rewrap(source, complexify), "dg", np.ones(3))


def test_a_wrong_dtype_seed_is_caught_in_both_modes(module):
    for checks in (False, True):
        df = tl.vjp(module.h, checks=checks)
        with pytest.raises(CheckError, match="the seed\\[0\\] has dtype bool"):
            df(X, (np.ones(3, dtype=bool), 1.0))
        with pytest.raises(CheckError, match="the seed\\[1\\] has shape \\(1,\\)"):
            df(X, (np.ones(3), np.ones(1)))


def test_debug_mode_with_stats_and_a_checkpointed_loop(tmp_path):
    module = load_module(
        tmp_path,
        """
        import numpy as np
        import tangentlike as tl

        def rnn(W, h):
            for t in tl.checkpointed(range(12), snapshots=3):
                h = np.tanh(W @ h)
            return np.sum(h * h)
        """,
    )
    W, h = np.random.RandomState(0).randn(3, 3) * 0.5, np.ones(3)
    plain = tl.grad(module.rnn, wrt=(0, 1), stats=True)
    checked = tl.grad(module.rnn, wrt=(0, 1), stats=True, checks=True)
    for a, b in zip(plain(W, h), checked(W, h), strict=True):
        np.testing.assert_array_equal(a, b)
    assert checked.stats.pushes == plain.stats.pushes > 0


# --------------------------------------------------------------------------- the helpers


def test_popped_returns_what_its_own_push_stored():
    stack = [("x at m.py:3", 1.0), ("y at m.py:4", 2.0)]
    assert boundary.popped(stack, "y at m.py:4") == 2.0
    assert boundary.popped(stack, "x at m.py:3") == 1.0
    stack = [("? at m.py:3", 1.0)]  # a form the labeller cannot name: the place must agree
    assert boundary.popped(stack, "x at m.py:3") == 1.0
    with pytest.raises(ValueError, match=r"popped the value saved for x at m\.py:3"):
        boundary.popped([("x at m.py:3", 1.0)], "x at m.py:4")
    boundary.stack_drained([], "f")


@pytest.mark.parametrize(
    ("g", "like", "problem"),
    [
        (np.ones((1, 3)), np.ones((2, 3)), "of shape (1, 3), but x has shape (2, 3)"),
        (np.ones(3, dtype=bool), np.ones(3), "of dtype bool"),
        (None, np.ones(3), "that is None"),
        ([np.ones(2), np.ones(3)], np.ones((2, 2)), "[1] of shape (3,), but x[1] has shape (2,)"),
        ([np.ones(2)], [np.ones(2), 1.0], "with 1 items, but x has 2"),
        ({"b": 1.0}, {"a": 1.0}, "with a key 'b' that x has not"),
    ],
)
def test_adjoint_contribution_names_the_problem(g, like, problem):
    with pytest.raises(ValueError) as err:
        boundary.adjoint_contribution(g, like, "x", "m.py:7")
    assert problem in str(err.value) and "backward code of m.py:7" in str(err.value)


def test_adjoint_contribution_lets_zero_parts_and_stacked_rows_pass():
    assert boundary.adjoint_contribution([None, np.ones(2)], [np.ones(2)] * 2, "x", "") is not None
    boundary.adjoint_contribution(np.ones((2, 2)), [np.ones(2)] * 2, "x", "")
    boundary.adjoint_contribution({"a": None}, {"a": np.ones(2), "b": 1.0}, "x", "")
    boundary.adjoint_contribution(np.float32(1.0), 2.0, "x", "")


def test_the_emitted_text_check_runs_on_every_build(module, monkeypatch):
    """pipeline.check_emitted (the round trip of emit/roundtrip.py) sees each generated
    function and its text, in debug mode and out of it."""
    seen = []
    monkeypatch.setattr(pipeline, "check_emitted", lambda fn, text: seen.append(fn.name))
    tl.grad(module.g, checks=False, cache=False)
    assert seen == ["dg"]
    tl.grad(module.g, checks=True, cache=False)
    assert seen == ["dg", "dg"]


RESTORED_THEN_READ = """
import numpy as np


def f(xs, x):
    v = sum(xs) * x
    xs[0] = x * 0.5
    xs.append(v)  # a list, evidently: its build is the one asked for
    return np.sum(sum(xs) * v)
"""


def test_a_pop_passed_to_a_call_is_checked_and_unwrapped(tmp_path):
    # `restore_item(xs, 0, _pop())`: the pop is an argument of a call. Left unchecked, it
    # returned the labelled pair and put it into the list the backward sweep reads again.
    module = load_module(tmp_path, RESTORED_THEN_READ)
    make = lambda: ([np.array([0.5, -1.0]), np.array([2.0, 0.3])], np.array([0.7, 1.1]))  # noqa: E731
    checked = tl.grad(module.f, wrt=(0, 1), checks=True)
    expected, got = tl.grad(module.f, wrt=(0, 1), checks=False)(*make()), checked(*make())
    assert "restore_item(_xs_own1, 0, popped(_stack, " in checked.source
    for a, b in zip(_flat(expected), _flat(got), strict=True):
        np.testing.assert_array_equal(a, b)
