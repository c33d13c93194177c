"""Arrays made by arithmetic and then written are arrays (analyze.numeric).

An array made by arithmetic or a ufunc and then written (by index, slice, column,
augmented, in a recurrence reading earlier entries) is neither a list nor a view
of an argument: each program below differentiates, and its gradient matches
central differences (every entry, and along a random direction). A real view
written while its base is read afterwards is still refused, at the right line,
with the advice to copy.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError

PROGRAMS = """
import numpy as np


def heat(u0, k):
    u = u0 * 1.0
    for step in range(4):
        lap = np.zeros_like(u)
        lap[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
        u = u + k * lap
        u[0] = 0.0
        u[-1] = 0.0
    return np.sum(u ** 2)


def heat_in_place(u0, k):
    u = u0 * 1.0
    for step in range(3):
        lap = u[2:] - 2.0 * u[1:-1] + u[:-2]
        u[1:-1] += k * lap
    return np.sum(u ** 3)


def scale(u0, kappa):
    u = u0 * 1.0
    u = u * kappa
    u[1] = 0.0
    return np.sum(u * u0)


def recurrence(x):
    y = x * 2.0
    for i in range(1, len(y)):
        y[i] = y[i - 1] * 0.5 + y[i]
    return np.sum(y ** 2)


def column(a):
    b = a * a
    b[:, 1] = 0.0
    b[0] += a[1]
    return np.sum(b * a)


def divided(a, c):
    b = a / c
    b[0, :] = b[1, :] * c
    return np.sum(b ** 2)


def negated(a):
    b = -a
    b[1] = a[0] * 3.0
    return np.sum(np.sin(b))


def ufunc_made(x):
    u = np.exp(x)
    u[0] = u[1] * u[2]
    return np.sum(u)


def product(a, w):
    b = a @ w
    b[:, 0] = 1.0
    return np.sum(b ** 2)


def loop_scaled(x, k):
    u = x * 1.0
    for t in range(3):
        w = u
        u = u * k
        u[0] = 1.0
        u = u + w
    return np.sum(u ** 2)


def squared_then_written(x):
    u = x * x
    u[0] = x[1]
    return np.sum(u * x)
"""

rng = np.random.RandomState(3)
V6 = rng.standard_normal(6)
M = rng.standard_normal((3, 4))
CASES = [
    ("heat", (V6, 0.2)),
    ("heat_in_place", (V6, 0.2)),
    ("scale", (V6, 0.7)),
    ("scale", (V6, rng.standard_normal(6))),
    ("recurrence", (V6,)),
    ("column", (M,)),
    ("divided", (M, 1.3)),
    ("negated", (V6,)),
    ("ufunc_made", (V6,)),
    ("product", (M, rng.standard_normal((4, 2)))),
    ("loop_scaled", (V6, 0.5)),
    ("squared_then_written", (V6,)),
]


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("fresh"), PROGRAMS, "fresh_arrays")


@pytest.mark.parametrize(
    ("name", "args"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_written_fresh_array_matches_finite_differences(programs, name, args):
    f = getattr(programs, name)
    wrt = tuple(range(len(args)))
    grads = tl.grad(f, wrt=wrt)(*[np.copy(a) if np.ndim(a) else a for a in args])
    for i, g in enumerate(grads):
        assert np.shape(g) == np.shape(args[i])
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-5, atol=1e-6)
        check_against_fd(f, g, list(args), i)


def test_arguments_are_not_written(programs):
    """The generated code writes into its own arrays, never into the caller's."""
    x = V6.copy()
    tl.grad(programs.recurrence)(x)
    np.testing.assert_array_equal(x, V6)


VIEWS = """
import numpy as np


def written_view(x):
    u = x * 1.0
    v = u[1:]
    v[0] = 0.0
    return np.sum(u * x)


def written_argument_view(x):
    v = x[1:]
    v[0] = 0.0
    return np.sum(v)
"""


def test_a_real_view_written_is_the_write_into_its_base(tmp_path):
    module = load_module(tmp_path, VIEWS, "views_written")
    for f in (module.written_view, module.written_argument_view):
        x, changed = V6.copy(), V6.copy()
        f(changed)
        g = tl.grad(f)(x)
        np.testing.assert_array_equal(x, changed)  # the caller's array changes as in f
        expected = fd_gradient(lambda a, f=f: f(a.copy()), [V6.copy()], 0)
        np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)


INTEGERS = """
import numpy as np


def repeated_through_an_integer(x):
    b = np.array(2) * 1
    c = b * [x, x * 2.0]
    c[0] += 1.0
    return np.sum(x * c[3])


def item_of_a_repeated_list(x):
    b = np.add(1, 1)
    c = b * [x, x * 2.0]
    d = c[2]
    d += 1.0
    return np.sum(x * c[2])


def counted_by_argmax(x):
    b = np.argmax(x * 1.0) + 1
    c = b * [x, x * 2.0]
    d = c[-2]
    d += 1.0
    return np.sum(x * c[0])
"""


@pytest.mark.parametrize("shape", [(), (3,)])
@pytest.mark.parametrize(
    "name", ["repeated_through_an_integer", "item_of_a_repeated_list", "counted_by_argmax"]
)
def test_a_numpy_integer_repeats_a_list(tmp_path, name, shape):
    """`np.array(2) * 1`, `np.add(1, 1)` and `np.argmax(...) + 1` are NumPy integers, not
    floats: times a list they repeat it, so c[0] and c[2] are the argument x itself and
    the updates change it. They were taken for arithmetic on arrays, and the value came
    out 4.5 for 7.5 (x = 1.5, a 0-d array) with a wrong gradient. Now followed or
    refused with a location, never wrong."""
    f = getattr(load_module(tmp_path, INTEGERS, "numpy_integers"), name)
    x = np.full(shape, 1.5)
    try:
        value, g = tl.value_and_grad(f)(x.copy())
    except (CheckError, UnsupportedSyntaxError) as e:
        assert e.location is not None and e.location.line > 0
        assert "in place" in str(e)
        return
    np.testing.assert_allclose(value, f(x.copy()))
    expected = fd_gradient(lambda a: f(a.copy()), [x.copy()], 0)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)


def _float_call(source: str, floats: frozenset[str] = frozenset()) -> bool:
    import gast

    from tangentlike.analyze.numeric import float_result, floating
    from tangentlike.rules.registry import default_registry

    call = gast.parse(source).body[0].value
    callee = eval(gast.unparse(call.func), {"np": np})
    registry = default_registry()
    return float_result(callee, call, registry, lambda v: floating(v, floats))


def test_floats_only_where_no_integer_can_come_out():
    """analyze.numeric.float_result: a float ufunc always; a ufunc whose float loops all
    give floats, a float keeper or an argument's own copy only of a float argument;
    never a comparison, an argmax, or a call given a dtype."""
    assert _float_call("np.sin(n)") and _float_call("np.divide(n, 2)")
    assert not _float_call("np.add(n, 1)") and _float_call("np.add(n, 1.0)")
    assert _float_call("np.maximum(x, n)", frozenset({"x"}))
    assert not _float_call("np.isnan(x)", frozenset({"x"}))
    assert not _float_call("np.less(x, 1.0)", frozenset({"x"}))
    assert _float_call("np.sum(x)", frozenset({"x"})) and not _float_call("np.sum(n)")
    assert not _float_call("np.sum(x, dtype=int)", frozenset({"x"}))
    assert not _float_call("np.argmax(x)", frozenset({"x"}))
    assert _float_call("np.zeros(3)") and not _float_call("np.zeros(3, int)")
    assert not _float_call("np.array(2)")
