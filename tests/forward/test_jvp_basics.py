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
