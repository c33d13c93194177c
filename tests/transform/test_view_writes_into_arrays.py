"""In-place updates of views whose base the container checks could not tell from a list
(issue 13: "writing into the list or dict '_A1' by index or key ..." on `r += x` in
`for r in A`, random-program tester seed 0, programs 40, 63, 323, 510, 591, 736, ...).

transform.view_updates lowers `z op= v`, z a view of b, into a write into b; analyze.memory
makes views of names it knows are arrays only, and the write runs where `same_memory(z,
b)` holds, or for a sure view `b[1:3]`: it is marked `into_array`, and
transform.container_checks no longer refuses it as a write into a list. Where b is not
known to be an array at the update, `runtime.array_base` asks at run time. `xs + xs` is
no longer taken for an array (a list concatenated with itself): a list argument whose
arrays are updated in place is refused, never differentiated as if nothing changed.

Each program is checked against central differences and autograd on its out-of-place
twin, in the build specialised to its arguments and the generic one (debug mode), and in
forward mode.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from reference import autograd_grad, fd_on_copies, fresh_copies, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, TangentlikeError

PROGRAMS = """
import numpy as np


def rows_of_a_doubled_argument(x, A):
    A = A + A
    for r in A:
        r += x * r
    return np.sum(A**2)


def rows_of_a_doubled_argument_oop(x, A):
    A = (A + A) * (1.0 + x)
    return np.sum(A**2)


def alias_of_a_doubled_iterated_argument(x, y):
    y = y + y
    for e in y:
        x = x + e
    z = y
    z += x
    return np.sum(y * z)


def alias_of_a_doubled_iterated_argument_oop(x, y):
    y = y + y
    x = x + np.sum(y)
    y = y + x
    return np.sum(y * y)


def column_of_a_shifted_outer_product(x, y):
    M = np.outer(y, y) + -1
    z = M[:, 1]
    z -= x * M.sum(axis=0)
    w = M[1:2]
    w += np.max(np.sin(w))
    return np.sum(M**2) + np.sum(w**2)


def column_of_a_shifted_outer_product_oop(x, y):
    M = np.outer(y, y) + -1
    col = M[:, 1] - x * np.sum(M, axis=0)
    M = np.concatenate([M[:, :1], col[:, None], M[:, 2:]], axis=1)
    row = M[1:2] + np.max(np.sin(M[1:2]))
    M = np.concatenate([M[:1], row, M[2:]], axis=0)
    return np.sum(M**2) + np.sum(row**2)


def rows_updated_on_one_branch(x, A, n):
    A = A + A
    for i in range(n):
        for r in A:
            if x > 0.0:
                r *= x
            else:
                r -= x
    return np.sum(np.sin(A))


def rows_updated_on_one_branch_oop(x, A, n):
    A = A + A
    for i in range(n):
        rows = []
        for k in range(A.shape[0]):
            rows.append(A[k] * x if x > 0.0 else A[k] - x)
        A = np.array(rows)
    return np.sum(np.sin(A))


def rows_then_a_dict_with_str_keys(x, A):
    A = A + A
    for r in A:
        r += x * r
    D = {"a": A, "b": [A[0], x]}
    return np.sum(D["a"] ** 2) + D["b"][0][1] * D["b"][1]


def rows_then_a_dict_with_str_keys_oop(x, A):
    A = (A + A) * (1.0 + x)
    return np.sum(A**2) + A[0][1] * x


def dict_holding_the_rows_base(x, A):
    A = A + A
    D = {"a": A, "n": [A]}
    for r in A:
        r += x * r
    return np.sum(D["a"] ** 2) + np.sum(D["n"][0])


def alias_in_a_nested_list(x, y):
    y = y + y
    for e in y:
        x = x + e
    L = [[y, 1.0]]
    z = y
    z += x
    return np.sum(L[0][0] * z)
"""


def _r(seed):
    return np.random.RandomState(seed)


CASES = [
    ("rows_of_a_doubled_argument", lambda: (0.7, _r(0).randn(3, 2))),
    ("alias_of_a_doubled_iterated_argument", lambda: (0.3, _r(1).randn(3))),
    ("column_of_a_shifted_outer_product", lambda: (0.4, _r(2).randn(3))),
    ("rows_updated_on_one_branch", lambda: (0.6, _r(3).randn(3, 2), 2)),
    ("rows_updated_on_one_branch", lambda: (-0.6, _r(4).randn(3, 2), 2)),
    ("rows_then_a_dict_with_str_keys", lambda: (0.7, _r(5).randn(3, 2))),
]
WRT = (0, 1)


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("view_writes"), PROGRAMS, "view_writes")


@pytest.mark.parametrize("checks", [False, True], ids=["specialised", "generic"])
@pytest.mark.parametrize("name, make", CASES, ids=[f"{n}-{k}" for k, (n, _) in enumerate(CASES)])
def test_gradient_matches_differences_and_autograd(programs, name, make, checks):
    f, twin = getattr(programs, name), getattr(programs, name + "_oop")
    args = make()
    np.testing.assert_allclose(f(*fresh_copies(args)), twin(*fresh_copies(args)), rtol=1e-12)
    df = tl.value_and_grad(f, wrt=WRT, checks=checks)
    for _ in range(2):  # built on the first call, reused on the second
        value, grads = df(*fresh_copies(args))
        np.testing.assert_allclose(value, f(*fresh_copies(args)), rtol=1e-12)
        for i, g in zip(WRT, grads, strict=True):
            np.testing.assert_allclose(g, fd_on_copies(f, args, i), rtol=1e-5, atol=1e-6)
            expected = autograd_grad(twin, fresh_copies(args), i)
            np.testing.assert_allclose(g, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name, make", CASES, ids=[f"{n}-{k}" for k, (n, _) in enumerate(CASES)])
def test_forward_mode(programs, name, make):
    f = getattr(programs, name)
    args = make()
    t = (0.5, _r(9).randn(*np.shape(args[1])))
    eps = 1e-6
    up, down = fresh_copies(args), fresh_copies(args)
    up[0], down[0] = args[0] + eps * t[0], args[0] - eps * t[0]
    up[1], down[1] = args[1] + eps * t[1], args[1] - eps * t[1]
    expected = (f(*up) - f(*down)) / (2 * eps)
    value, tangent = tl.jvp(f, wrt=WRT)(*fresh_copies(args), t)
    np.testing.assert_allclose(value, f(*fresh_copies(args)), rtol=1e-12)
    np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-6)


def test_rows_of_a_list_argument_concatenated_with_itself_are_refused(programs):
    """A + A of a list of arrays is a list holding the caller's arrays, which `r += ...`
    changes: refused at run time, located (not differentiated as changing r alone)."""
    df = tl.grad(programs.rows_of_a_doubled_argument, wrt=(0,))
    with pytest.raises(CheckError, match=r"view_writes\.py:\d+:\d+: `r \+= x \* r`"):
        df(0.7, [np.arange(2.0), np.ones(2)])


@pytest.mark.parametrize("name", ["dict_holding_the_rows_base", "alias_in_a_nested_list"])
def test_a_container_holding_the_base_before_the_update_is_refused(programs, name):
    """The dict or list read afterwards holds the array the update changes: asked at run
    time (runtime.untouched), refused where it does."""
    f = getattr(programs, name)
    args = (0.7, _r(6).randn(3, 2)) if name.startswith("dict") else (0.3, _r(7).randn(3))
    with pytest.raises(TangentlikeError, match=r"view_writes\.py:\d+:\d+: .* in place"):
        tl.grad(f, wrt=WRT)(*fresh_copies(args))


def test_array_base_lets_arrays_and_numbers_through():
    from tangentlike.runtime import array_base

    for base in (np.zeros(3), 1.5, 2, np.float64(1.0), np.zeros((2, 2))[0]):
        array_base(base, "m.py:3: `z += 1.0` changes 'b'")
    for base in ([np.zeros(2)], (np.zeros(2),), {"a": np.zeros(2)}, np.empty(2, dtype=object)):
        with pytest.raises(ValueError, match=r"m\.py:3: `z \+= 1\.0` changes .b.: it holds an? "):
            array_base(base, "m.py:3: `z += 1.0` changes 'b'")


MESSAGES = """
import numpy as np


def exp_in_place(a):
    np.exp(a, out=a)
    return np.sum(a)


def writes_into_a_tuple_item(x):
    t = (x * 1.0, x * 2.0)
    return exp_in_place(t[0])


def subtract_from_item(a, b):
    D1 = {"a": a}
    D1["a"] -= b * a
    return b


def item_of_an_inlined_dict(x, y):
    z2 = y[2:3]
    s2 = subtract_from_item(y, b=x)
    s3 = z2.max() * subtract_from_item(a=y, b=x)
    return np.sum(y**2) + np.sum(z2**2) + s3 + s2
"""


@pytest.fixture(scope="module")
def messages(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("view_messages"), MESSAGES, "view_messages")


def test_a_write_into_a_compiler_temporary_names_the_line_that_made_it(messages):
    """The temporary `_f1` is not the user's: the refusal says what made the value."""
    with pytest.raises(TangentlikeError) as err:
        tl.grad(messages.writes_into_a_tuple_item)(np.ones(2))
    message = str(err.value)
    assert re.search(r"view_messages\.py:6:5: this writes into the value of `", message)
    assert "return exp_in_place(t[0])` at line 12" in message, message
    assert "'_" not in message, message


def test_an_item_update_in_an_inlined_helper_names_the_dict_as_written(messages):
    with pytest.raises(CheckError) as err:
        tl.grad(messages.item_of_an_inlined_dict)(0.5, np.ones(4))
    message = str(err.value)
    assert "`D1[\"a\"] -= b * a` updates the item of 'D1' in place: it holds an ndarray" in (
        message
    ), message


def test_a_base_not_known_to_be_an_array_is_asked_at_run_time():
    """ViewUpdates.checked: a marked write into a base the aliases do not know to be an
    array at the update gets `array_base(b, ...)` before the lowered statements; a base
    they know gets nothing."""
    from types import SimpleNamespace

    import gast

    from tangentlike.runtime import array_base
    from tangentlike.syntax import nodes
    from tangentlike.syntax.names import Namer
    from tangentlike.syntax.namespace import Namespace
    from tangentlike.transform.view_updates import ViewUpdates, into_array

    def lowered(known):
        update = gast.parse("z += 1.0").body[0]
        write = gast.parse("b[...] = _z1").body[0]
        memory = SimpleNamespace(arrays=frozenset(known))
        aliases = SimpleNamespace(before={id(update): memory})
        namespace = Namespace()
        views = ViewUpdates(namespace, Namer(), aliases, update, what="m.py:3: `z += 1.0`")
        return views.checked([into_array(write)]), namespace

    stmts, namespace = lowered({"b"})
    assert len(stmts) == 1
    stmts, namespace = lowered(set())
    call = stmts[0].value
    assert namespace.objects[call.func.id] is array_base
    assert [nodes.assigned_name(s) for s in stmts[1:]] == ["b"]
    assert call.args[0].id == "b" and "m.py:3: `z += 1.0` changes 'b'" in call.args[1].value
