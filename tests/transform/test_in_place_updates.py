"""`z op= v`, `out=` and updates through views, aliases and helpers (issue 10, class 4).

Each program either has its gradient checked against central differences and against
autograd on its out-of-place equivalent, or is refused with a message naming the update,
the name that shares its memory and where the sharing was made.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
from corpus import in_place as c
from reference import autograd_grad, fd_on_copies, fresh_copies, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError


def _id(case):
    return f"{case[0].__name__}-{c.CASES.index(case)}"


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_gradient_matches_finite_differences(case):
    f, make, wrt, _ = case
    args = make()
    before, changed = fresh_copies(args), fresh_copies(args)
    f(*changed)
    grads = tl.grad(f, wrt=wrt)(*args)
    for a, b in zip(args, changed, strict=True):  # the gradient changes what f changes
        np.testing.assert_array_equal(a, b)
    for i, g in zip(wrt, grads, strict=True):  # with respect to the values on entry
        assert np.shape(g) == np.shape(before[i])
        np.testing.assert_allclose(g, fd_on_copies(f, before, i), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", [k for k in c.CASES if k[3] is not None], ids=_id)
def test_gradient_matches_autograd_on_the_out_of_place_program(case):
    f, make, wrt, equivalent = case
    args = make()
    grads = tl.grad(f, wrt=wrt)(*fresh_copies(args))
    for i, g in zip(wrt, grads, strict=True):
        expected = autograd_grad(equivalent, fresh_copies(args), i)
        np.testing.assert_allclose(g, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_value_is_what_the_function_returns(case):
    f, make, wrt, _ = case
    args = make()
    value, _ = tl.value_and_grad(f, wrt=wrt)(*fresh_copies(args))
    np.testing.assert_allclose(value, f(*fresh_copies(args)), rtol=1e-12)


@pytest.mark.parametrize("case", c.REFUSED, ids=lambda k: k[0].__name__)
def test_refused_with_a_message_naming_the_update_and_the_alias(case):
    f, make, when, words = case
    if when == "build":
        with pytest.raises(UnsupportedSyntaxError) as err:
            tl.grad(f)(*make())
        message = str(err.value)
        assert re.search(r"in_place\.py:\d+:\d+: ", message), message
        assert "^" in message and "What to do" in message, message
    else:
        df = tl.grad(f)  # built: the values decide (numbers are never shared)
        with pytest.raises(CheckError, match=r"in_place(_\w+)?\.py:\d+:\d+: ") as err:
            df(*make())
        message = str(err.value)
        assert "copy" in message and "new array" in message, message
    for word in words:
        assert word in message, message


def test_run_time_refusal_points_at_the_update():
    with pytest.raises(CheckError) as err:  # a ValueError too
        tl.grad(c.in_a_dict)(np.ones(4))
    line = int(re.search(r"in_place.py:(\d+):", str(err.value)).group(1))
    lines, first = inspect.getsourcelines(c.in_a_dict)
    assert lines[line - first].strip() == "v += 1.0"
    where = err.value.location  # the run-time check is located like a build-time refusal
    assert where.filename == inspect.getsourcefile(c.in_a_dict) and where.line == line
    assert "    v += 1.0\n    ^" in str(err.value)


def test_arguments_passed_twice_are_refused_only_when_they_share():
    df = tl.grad(c.arguments_passed_twice, wrt=0)
    a, w = np.arange(4.0), np.arange(4.0)
    np.testing.assert_allclose(df(a, w), w)  # d/dx sum((x + 1) * w) = w
    np.testing.assert_allclose(a, w + 1.0)  # and x changes, as it does in f
    with pytest.raises(ValueError, match=r"`x \+= 1.0` updates 'x' in place, and 'w'"):
        df(a, a)


def test_numbers_pass_the_run_time_check():
    df = tl.grad(c.in_a_dict)
    assert "unshared(v, (y,)," in df.source
    np.testing.assert_allclose(df(0.5), 1.0)  # a number: `v += 1.0` makes a new one


def test_updates_without_sharing_carry_no_check():
    for f in (c.fresh_chain, c.accumulate, c.slice_view, c.out_clip, c.helper_result_rebinds):
        assert "unshared" not in tl.grad(f).source, f.__name__


def test_an_update_through_a_view_is_the_write_into_its_base():
    source = tl.grad(c.slice_view).source
    assert re.search(r"y\[1:3\] = _v\d", source), source
    source = tl.grad(c.column_view).source
    assert re.search(r"Y\[:, 0\] = _c\d", source), source


def test_out_writes_into_its_array_and_keeps_its_dtype():
    source = tl.grad(c.out_multiply).source
    assert "y[...] = _call1" in source, source
    x = np.arange(4.0) + 0.1  # y = float32(3 x): sum(y * x) has gradient 3 x + y
    expected = 3.0 * x + np.float32(3.0 * x)
    np.testing.assert_allclose(tl.grad(c.out_float32)(x), expected, rtol=1e-6)


# -- every operator: on new arrays, on numbers, through views, through aliases ----------------
OPS = ["+", "-", "*", "/", "**", "@", "//", "%"]
KNOWN_RULE = {"+", "-", "*", "/", "**", "@", "//"}  # % gets its own rule elsewhere (issue 10)
OPERAND = {"**": "2.0", "@": "w", "//": "0.7", "%": "0.7"}


def _program(op: str, kind: str) -> str:
    v = OPERAND.get(op, "w")
    target = {"array": "z", "number": "z", "view": "v", "alias": "z"}[kind]
    make = {
        "array": "    z = x * 1.0\n",
        "number": "    z = x * 1.0\n",
        "view": "    y = x * 1.0\n    v = y[0:2]\n",
        "alias": "    y = x * 1.0\n    z = y\n",
    }[kind]
    read = {"array": "z", "number": "z", "view": "y", "alias": "y"}[kind]
    update = f"    {target} {op}= {v}\n"
    inplace = f"def f(x, w):\n{make}{update}    return np.sum({read} * x) + np.sum({read})\n"
    if kind == "view":
        write = f"    y[0:2] = v {op} {v}\n"
    elif kind == "alias":
        write = f"    y = z {op} {v}\n"
    else:
        write = f"    {target} = {target} {op} {v}\n"
    oop = f"def g(x, w):\n{make}{write}    return np.sum({read} * x) + np.sum({read})\n"
    return f"import numpy as np\n\n\n{inplace}\n\n{oop}"


def _arguments(op: str, kind: str):
    r = np.random.RandomState(len(op) + len(kind))
    if kind == "number":
        return [1.3, 0.4]
    if op == "@":
        return [r.randn(2, 2), r.randn(2, 2)]
    x = np.abs(r.randn(2, 2)) + 0.5 if op in ("**", "//", "%") else r.randn(2, 2)
    return [x, r.randn(2, 2) * 0.5]


@pytest.mark.parametrize("kind", ["array", "number", "view", "alias"])
@pytest.mark.parametrize("op", OPS)
def test_each_operator_is_its_out_of_place_or_item_write_form(tmp_path, op, kind):
    if kind == "number" and op == "@":
        pytest.skip("no @ for numbers")
    module = load_module(tmp_path, _program(op, kind))
    args = _arguments(op, kind)
    got = tl.grad(module.f, wrt=(0, 1))(*fresh_copies(args))
    expected = tl.grad(module.g, wrt=(0, 1))(*fresh_copies(args))
    for a, b in zip(got, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    if op in KNOWN_RULE:
        for i in (0, 1):
            fd = fd_on_copies(module.f, args, i)
            np.testing.assert_allclose(got[i], fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", OPS)
def test_each_operator_through_an_alias_of_a_global_is_refused(tmp_path, op):
    source = _program(op, "alias").replace("    y = x * 1.0\n    z = y\n", "    z = G\n", 1)
    source = source.replace("np.sum(y * x) + np.sum(y)", "np.sum(x * G)", 1)
    module = load_module(tmp_path, source + "\n\nG = np.ones((2, 2))\n")
    with pytest.raises(ValueError, match=re.escape(f"`z {op}= ")):
        tl.grad(module.f)(*_arguments(op, "alias"))


# -- the run-time check -------------------------------------------------------------------------
class _Holder:
    def __init__(self, value):
        self.value = value


A = np.arange(6.0)


@pytest.mark.parametrize(
    "value,others,raises",
    [
        (1.5, (A,), False),  # a number: `z += v` made a new one
        (np.float64(1.5), (A,), False),
        (A[1:3], (A,), True),  # a view of a name read later
        (A.copy(), (A,), False),
        (A[::2], (None, 1.0, "s", (2, 3)), False),
        (A, (A,), True),
        ([A], (A,), True),  # a list holding it
        (A[0:2], ([1.0, {"k": A}],), True),  # held inside a list and a dict
        (_Holder(A), (_Holder(A),), True),  # objects holding it
        (A, (print,), True),  # an object it cannot look into
        (np.zeros(0), (A,), False),
    ],
)
def test_unshared_raises_exactly_when_an_array_is_shared(value, others, raises):
    from tangentlike.runtime import unshared

    if raises:
        with pytest.raises(ValueError, match=r"^tangentlike: m\.py:3: what"):
            unshared(value, others, "m.py:3: what")
    else:
        unshared(value, others, "m.py:3: what")


WRITTEN = """
import numpy as np


def f(x):
    y = x * 1.0
    v = y[1:3]
    v *= 2.0
    z = G
    z += 1.0
    return np.sum(y * x)


G = np.ones(4)
"""


def test_a_written_module_carries_the_check_and_needs_no_tangentlike(tmp_path, monkeypatch):
    import subprocess
    import sys
    import textwrap

    from tangentlike.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(WRITTEN)
    assert main(["grad", "m.py:f", "-o", "df.py"]) == 0
    code = textwrap.dedent(
        """
        import sys
        sys.modules["tangentlike"] = None
        import importlib.util
        import numpy as np
        spec = importlib.util.spec_from_file_location("written_df", "df.py")
        written = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(written)
        try:
            written.df(np.arange(4.0))
        except ValueError as err:
            print(err)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("tangentlike: m.py:10: `z += 1.0` updates 'z' in place"), done
