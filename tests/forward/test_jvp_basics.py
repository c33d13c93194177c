"""jvp on small functions: values, tangents against central differences and vjp."""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tests.reference import load_module


@pytest.fixture
def m(tmp_path):
    return load_module(
        tmp_path,
        """
        import numpy as np

        def field(x, A):
            return np.tanh(A @ x) * 2.0

        def loop(x, n):
            h = x
            for _ in range(n):
                h = np.sin(h) * x
            return np.sum(h)

        def branch(x):
            if np.sum(x) > 0:
                y = x * x
            else:
                y = -x
            return y
        """,
    )


def test_jvp_value_and_tangent_against_differences(m):
    rng = np.random.RandomState(0)
    x, A, t = rng.randn(3), rng.randn(4, 3), rng.randn(3)
    value, tangent = tl.jvp(m.field)(x, A, t)
    eps = 1e-6
    fd = (m.field(x + eps * t, A) - m.field(x - eps * t, A)) / (2 * eps)
    assert np.allclose(value, m.field(x, A)) and np.allclose(tangent, fd, atol=1e-7)


@pytest.mark.parametrize(
    "fname, args",
    [
        ("loop", (np.array([0.3, -0.2]), 4)),
        ("branch", (np.array([0.5, 0.1]),)),
        ("branch", (np.array([-0.5, 0.1]),)),
    ],
)
def test_control_flow(m, fname, args):
    f = getattr(m, fname)
    t = np.array([1.0, -2.0])
    value, tangent = tl.jvp(f)(*args, t)
    assert np.allclose(value, f(*args))
    eps = 1e-6
    up = (args[0] + eps * t, *args[1:])
    down = (args[0] - eps * t, *args[1:])
    assert np.allclose(tangent, (f(*up) - f(*down)) / (2 * eps), atol=1e-7)


ALIASES = """
import numpy as np

def new_then_written(x):
    y = x + 0.0  # a new array whose tangent is dx itself: copied before the write
    y[0] = 5.0
    return y * x

def shared_list(x):
    xs = [x]
    ys = xs  # the same list: its tangent is the same list of tangents
    ys.append(x * 2.0)
    return xs[1] + ys[0]

def writes_its_argument(x):
    x[1] = x[0] * 3.0
    return x * 2.0
"""


@pytest.mark.parametrize("name", ["shared_list"])
def test_what_reverse_mode_refuses_for_memory_is_refused_too(tmp_path, name):
    f = getattr(load_module(tmp_path, ALIASES), name)
    with pytest.raises(tl.TangentlikeError) as err:
        tl.jvp(f)(np.ones(3), np.ones(3))
    assert err.value.location is not None


def test_a_write_into_the_argument_changes_it_as_f_does(tmp_path):
    f = load_module(tmp_path, ALIASES).writes_its_argument
    x, t = np.array([1.0, 2.0, 3.0]), np.array([1.0, -1.0, 0.5])
    value, tangent = tl.jvp(f)(x, t)
    np.testing.assert_allclose(x, [1.0, 3.0, 3.0])  # as f leaves it
    np.testing.assert_allclose(value, [2.0, 6.0, 6.0])
    np.testing.assert_allclose(tangent, [2.0, 6.0, 1.0])  # x[1] follows 3 x[0] on entry


@pytest.mark.parametrize("name", ["new_then_written"])
def test_tangents_share_memory_as_their_values_do(tmp_path, name):
    f = getattr(load_module(tmp_path, ALIASES), name)
    x, t = np.array([1.0, 2.0, 3.0]), np.array([1.0, -1.0, 0.5])
    given = t.copy()
    _, tangent = tl.jvp(f)(x.copy(), t)
    assert np.array_equal(t, given)  # the caller's tangent is never written
    eps = 1e-6
    fd = (f(x + eps * t) - f(x - eps * t)) / (2 * eps)
    assert np.allclose(tangent, fd, atol=1e-7)


def test_a_bool_used_as_a_number_has_a_zero_tangent(tmp_path):
    """`(x < 0 or 2 * x) * x` multiplies by True on one path: the tangent of the bool is
    0.0, not None (which crashed inside the generated code)."""
    f = load_module(
        tmp_path, "def f(x, y):\n    return (x < 0 or x * y) * x + (x > y) * y\n", "bools"
    ).f
    for x in (-0.4, 0.7):
        value, tangent = tl.jvp(f, wrt=(0, 1))(x, 2.0, (1.0, 0.5))
        assert value == f(x, 2.0)
        expected = 1.0 if x < 0 else 4.0 * x + 0.5 * x * x
        np.testing.assert_allclose(tangent, expected, rtol=1e-12)


def test_an_array_built_from_values_is_updated_in_place_with_its_tangent(tmp_path):
    """np.array([...]) makes a new array; its tangent (through cast_tangent) is a new,
    writable array too (a read-only broadcast view crashed `v[1:2] += ...`; the forward
    random-program run found it)."""
    f = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef f(x, w):\n    v = np.array([w, w, x])\n"
        "    v[1:2] += v[-1:] * x\n    v[0] *= w\n    return np.sum(v ** 2)\n",
        "array_in_place",
    ).f
    value, tangent = tl.jvp(f, wrt=(0, 1))(1.45, 0.83, (1.0, 0.5))
    gx, gw = tl.grad(f, wrt=(0, 1))(1.45, 0.83)
    assert value == f(1.45, 0.83)
    np.testing.assert_allclose(tangent, gx + 0.5 * gw, rtol=1e-12)
    eps = 1e-6
    fd = (f(1.45 + eps, 0.83 + 0.5 * eps) - f(1.45 - eps, 0.83 - 0.5 * eps)) / (2 * eps)
    np.testing.assert_allclose(tangent, fd, rtol=1e-6)
