"""Writes into a list or dict argument (transform/argument_containers.py): by index, by
key, augmented, appended, popped, in a loop, in a helper; gradients with respect to
the container and to another argument against central differences and autograd,
forward mode (jvp) against the same differences, the caller's container after the
gradient equal to what the function leaves, and the refusals kept (a helper's write
read afterwards by its caller, an array item updated in place, the list passed twice or
held by another argument or a global)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl
from tangentlike.errors import CheckError

SOURCE = """
import numpy as np


def by_index(L, x):
    L[0] = x * 2.0
    return L[0] * L[1]


def from_items(L):
    L[0] = L[1] * 3.0
    return L[0] * L[1] + L[2]


def augmented(L, x):
    L[1] += L[0] * x
    return L[1] * L[0]


def appended(L, x):
    L.append(x * x)
    return L[0] + L[-1] * L[1]


def by_key(d, x):
    d['k'] = x * 3.0
    return d['k'] * d['a']


def new_key_from_items(d):
    d['b'] = d['a'] * 2.0
    return d['a'] * d['b'] + d['c']


def popped(L, x):
    a = L.pop()
    L[0] = a * x
    return L[0] * L[1] + a


def scaled_in_a_loop(L, x):
    for i in range(len(L)):
        L[i] = L[i] * x
    return L[0] + L[1] * L[2]


def arrays_in_a_list(L, x):
    L[0] = L[0] * x
    return np.sum(L[0] * L[1])


def in_a_branch(L, x):
    if x > 0:
        L[1] = x * 3.0
    return L[0] * L[1]


def helper_writes(d, x):
    d['k'] = x * 2.0
    return d['k']


def calls_a_helper(x):
    e = {'a': x}
    return helper_writes(e, x) * x


def reads_after_the_helper(x):
    e = {'a': x}
    y = helper_writes(e, x)
    return y * e['k']


def two_lists(L, M, x):
    L[0] = x
    M[1] = x * x
    return L[0] * M[0] + L[1]


G = [1.0, 2.0]


def with_a_global(L, x):
    L[0] = x
    return G[0] * x + L[1]


def array_item_in_place(L, x):
    L[0] += x
    return np.sum(L[0])
"""

# name -> (arguments, wrt)
CASES = {
    "by_index": (([1.0, 2.0], 0.7), (0, 1)),
    "from_items": (([1.0, 2.0, 3.0],), (0,)),
    "augmented": (([1.5, 2.0], 0.7), (0, 1)),
    "appended": (([1.5, 2.0], 0.7), (0, 1)),
    "by_key": (({"a": 1.5}, 0.7), (0, 1)),
    "new_key_from_items": (({"a": 1.5, "c": 2.0},), (0,)),
    "popped": (([1.0, 2.0, 3.0], 0.7), (0, 1)),
    "scaled_in_a_loop": (([1.0, 2.0, 3.0], 0.7), (0, 1)),
    "arrays_in_a_list": (([np.array([1.0, 2.0]), np.array([3.0, 4.0])], 0.7), (0, 1)),
    "in_a_branch": (([1.0, 2.0], 0.7), (0, 1)),
    "calls_a_helper": ((0.7,), (0,)),
    "two_lists": (([1.0, 2.0], [3.0, 4.0], 0.7), (0, 1, 2)),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("argument_containers"), SOURCE)


def _leaves(v) -> list:
    if isinstance(v, dict):
        return [x for k in sorted(v) for x in _leaves(v[k])]
    if isinstance(v, (list, tuple)):
        return [x for e in v for x in _leaves(e)]
    return list(np.ravel(v))


def _moved(v, u, eps, step_only=False):
    """v with its float leaves moved by eps * u (u consumed in _leaves order); with
    step_only, eps * u shaped like v."""
    if isinstance(v, dict):
        return {k: _moved(v[k], u, eps, step_only) for k in sorted(v)}
    if isinstance(v, list):
        return [_moved(e, u, eps, step_only) for e in v]
    a = np.asarray(v, dtype=float)
    step = np.array([next(u) for _ in range(a.size)]).reshape(a.shape)
    moved = eps * step if step_only else a + eps * step
    return moved if isinstance(v, np.ndarray) else float(moved)


def _fd(f, args, i, u, eps=1e-6):
    def at(e):
        moved = copy.deepcopy(list(args))
        moved[i] = _moved(moved[i], iter(u), e)
        return float(f(*moved))

    return (at(eps) - at(-eps)) / (2 * eps)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_against_differences_and_autograd(m, name):
    import autograd

    f = getattr(m, name)
    args, wrt = CASES[name]
    for i in wrt:
        mine = copy.deepcopy(list(args))
        g = tl.grad(f, wrt=i)(*mine)
        theirs = copy.deepcopy(list(args))
        f(*theirs)
        assert repr(mine) == repr(theirs)  # the caller's containers: as f leaves them
        assert type(g) is type(args[i]) and len(_leaves(g)) == len(_leaves(args[i]))
        if isinstance(args[i], dict):
            assert sorted(g) == sorted(args[i])  # keys as on entry
        u = np.random.RandomState(i).standard_normal(len(_leaves(args[i])))
        assert np.isclose(np.dot(_leaves(g), u), _fd(f, args, i, u), rtol=1e-5, atol=1e-7)
        if not isinstance(args[i], (list, dict)):  # autograd boxes a container: no append
            expected = autograd.grad(autograd_version(f), i)(*copy.deepcopy(list(args)))
            np.testing.assert_allclose(g, expected, rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_mode_against_differences(m, name):
    f = getattr(m, name)
    args, wrt = CASES[name]
    for i in wrt:
        u = np.random.RandomState(i).standard_normal(len(_leaves(args[i])))
        t = _moved(args[i], iter(u), 1.0, step_only=True)
        mine = copy.deepcopy(list(args))
        value, tangent = tl.jvp(f, wrt=i)(*mine, t)
        theirs = copy.deepcopy(list(args))
        assert np.isclose(value, f(*theirs))
        assert repr(mine) == repr(theirs)
        assert np.isclose(tangent, _fd(f, args, i, u), rtol=1e-5, atol=1e-7)


def test_the_caller_sees_the_writes(m):
    L = [1.5, 2.0]
    tl.grad(m.appended, wrt=1)(L, 0.7)
    assert L == [1.5, 2.0, 0.7 * 0.7]
    d = {"a": 1.5, "c": 2.0}
    g = tl.grad(m.new_key_from_items)(d)
    assert d == {"a": 1.5, "c": 2.0, "b": 3.0} and g == {"a": 6.0, "c": 1.0}


def test_a_helper_write_read_by_its_caller(m):
    """The helper is inlined (normalize.helper_calls): its write is the caller's own."""
    assert np.isclose(tl.grad(m.reads_after_the_helper)(0.7), 8.0 * 0.7)
    _, tangent = tl.jvp(m.reads_after_the_helper)(0.7, 1.0)
    assert np.isclose(tangent, 8.0 * 0.7)


def test_an_array_item_updated_in_place_is_refused(m):
    with pytest.raises(CheckError, match="changes in place"):
        tl.grad(m.array_item_in_place, wrt=1)([np.array([1.0, 2.0]), 3.0], 0.7)


def test_built_for_the_kind_passed(m):
    """Written by index only: the gradient is built at each call for a list or an array
    (an array keeps the array path: its own copy, written back; the result, a product,
    is checked to share none of it when it returns)."""
    df = tl.grad(m.in_a_branch, wrt=1)
    L = [1.0, 2.0]
    assert np.isclose(df(L, 0.7), 3.0)
    assert L == [1.0, 0.7 * 3.0]
    a = np.array([1.0, 2.0])
    assert np.isclose(df(a, 0.7), 3.0)
    np.testing.assert_array_equal(a, [1.0, 0.7 * 3.0])


def test_a_list_passed_twice_or_held_elsewhere_is_refused(m):
    """The function's copy would not show its writes through the other holder at once."""
    L = [1.0, 2.0]
    with pytest.raises(CheckError, match="holds it") as err:
        tl.grad(m.two_lists, wrt=2)(L, L, 0.7)
    assert ".py:" in str(err.value) and "M[1] = x * x" in str(err.value)
    with pytest.raises(CheckError, match="holds it"):
        tl.grad(m.two_lists, wrt=2)(L, [L], 0.7)
    with pytest.raises(CheckError, match="'G'"):
        tl.grad(m.with_a_global, wrt=1)(m.G, 0.7)
    g = tl.grad(m.with_a_global, wrt=1)([5.0, 6.0], 0.7)
    assert np.isclose(g, 1.0)


STENCIL = """
def smooth(u, k):
    for i in range(1, len(u) - 1):
        u[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1])
    s = 0.0
    for i in range(len(u)):
        s = s + u[i] * u[i]
    return s
"""


def test_an_argument_written_by_index_is_built_ahead_for_an_array(tmp_path):
    """`u[i] = ...` on a parameter only read by index: an array or a list, known at the
    call. The gradient is built ahead for an array (source before any call, the command
    line writes it) and at a call for a list; both against central differences, and the
    caller's argument after df equals that after f."""
    from tangentlike.cli import main

    mod = load_module(tmp_path, STENCIL, "stencil_argument")
    df = tl.grad(mod.smooth)
    assert "def dsmooth(u, k" in df.source  # before any call
    start = [0.0, 0.5, 1.0, 0.2, -0.4]
    for kind in (np.array, list):
        u, v = kind(start), kind(start)
        got = df(u, 0.1)
        mod.smooth(v, 0.1)
        assert list(u) == list(v)  # the writes reach the caller, as under f
        h, want = 1e-6, []
        for i in range(len(start)):
            up, down = list(start), list(start)
            up[i] += h
            down[i] -= h
            want.append((mod.smooth(kind(up), 0.1) - mod.smooth(kind(down), 0.1)) / (2 * h))
        np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-7, atol=1e-9)
    assert "def dsmooth(u, k" in df.source  # still the array build's text
    out = tmp_path / "dsmooth.py"
    assert main(["grad", f"{tmp_path / 'stencil_argument.py'}:smooth", "-o", str(out)]) == 0


TWO_WRITTEN = """
import numpy as np


def f(P, xs, x):
    xs[0] = xs[0] * x
    P['b'] = P['b'] * x
    return np.sum(xs[0] ** 2) + np.sum(P['b'])
"""


def test_a_dict_and_a_list_argument_both_written(tmp_path):
    # The dict's rewrite reads the list whole (its check that they share no memory):
    # the list's kind must be decided on the function as written, before that rewrite.
    module = load_module(tmp_path, TWO_WRITTEN)
    P, xs, x = {"b": np.array([1.0, 2.0])}, [np.array([0.5, -1.0])], np.array([0.3, 0.7])
    gP, gxs, gx = tl.grad(module.f, wrt=(0, 1, 2))(P, xs, x)
    np.testing.assert_allclose(gP["b"], [0.3, 0.7])
    np.testing.assert_allclose(gxs[0], 2 * np.array([0.5, -1.0]) * x**2)
    np.testing.assert_allclose(gx, 2 * x * np.array([0.5, -1.0]) ** 2 + [1.0, 2.0])
    np.testing.assert_allclose(xs[0], [0.15, -0.7])  # the caller's containers, as f leaves them
    np.testing.assert_allclose(P["b"], [0.3, 1.4])


SUMMED_THEN_WRITTEN = """
import numpy as np


def f(xs, x):
    v = sum(xs) * x
    xs[0] = x * 0.5
    xs[1] = np.sin(xs[1]) + v
    return np.sum(sum(xs) * v)
"""


def test_a_list_argument_summed_then_written(tmp_path):
    # sum(xs) reads a list and an array alike: the kind is left to the call, and a
    # list passed there is written on the function's own copy, then written back.
    module = load_module(tmp_path, SUMMED_THEN_WRITTEN)
    r = np.random.RandomState(3)
    xs, x = [r.randn(3) for _ in range(3)], r.randn(3)
    after = [a.copy() for a in xs]
    module.f(after, x)
    called = [a.copy() for a in xs]
    gxs, gx = tl.grad(module.f, wrt=(0, 1))(called, x)
    for a, b in zip(called, after, strict=True):
        np.testing.assert_array_equal(a, b)
    u = [r.randn(3) for _ in range(3)] + [r.randn(3)]

    def along(e):
        return module.f([a + e * d for a, d in zip(xs, u, strict=False)], x + e * u[3])

    slope = (along(1e-6) - along(-1e-6)) / 2e-6
    actual = sum(np.sum(g * d) for g, d in zip([*gxs, gx], u, strict=True))
    np.testing.assert_allclose(actual, slope, rtol=1e-6)
