"""The public API: wrt forms, structure and dtype of gradients, caching, sources, threads."""

from __future__ import annotations

import functools
import inspect
import threading
import traceback

import numpy as np
import pytest
from reference import fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def energy(a, b, c):
    return np.sum(a * b) + np.sum(np.sin(b)) * c


def helper(x):
    return np.exp(x)


def uses_helper(x):
    return np.sum(helper(x) * 2.0)


def field(x):
    return np.cos(x) * 3.0


def pair(x, y):
    return x * y, np.sin(x)
"""


@pytest.fixture
def m(tmp_path):
    return load_module(tmp_path, SOURCE)


@pytest.fixture
def abc():
    rng = np.random.RandomState(1)
    return rng.randn(4), rng.randn(4), 0.7


def test_wrt_forms_agree(m, abc):
    by_index = tl.grad(m.energy, wrt=1)(*abc)
    assert np.allclose(by_index, tl.grad(m.energy, wrt="b")(*abc))
    assert np.allclose(by_index, tl.grad(m.energy, wrt=-2)(*abc))
    ga, gc = tl.grad(m.energy, wrt=["a", 2])(*abc)
    assert np.allclose(ga, abc[1]) and isinstance(gc, float)


def test_keyword_arguments_are_accepted(m, abc):
    a, b, c = abc
    assert np.allclose(tl.grad(m.energy)(a, c=c, b=b), b)


def test_gradient_has_the_type_shape_and_dtype_of_its_argument(m):
    a32 = np.ones((2, 3), np.float32)
    g = tl.grad(m.energy, wrt=(0, 1, 2))(a32, a32 * 2, np.float32(0.5))
    assert g[0].dtype == np.float32 and g[0].shape == (2, 3)
    assert isinstance(g[2], np.float32)
    g = tl.grad(m.energy, wrt=2)(np.ones(3), np.ones(3), np.array(0.5))
    assert isinstance(g, np.ndarray) and g.shape == ()


def test_gradient_does_not_alias_or_lock_inputs(m):
    x = np.ones(3)
    g = tl.grad(m.energy, wrt=0)(x, x, 1.0)
    assert g is not x
    g[0] = 5.0  # writeable
    assert x[0] == 1.0


def test_vjp_non_scalar_and_tuple_outputs(m):
    x = np.linspace(-1, 1, 5)
    seed = np.arange(5.0)
    assert np.allclose(tl.vjp(m.field)(x, seed), -3.0 * np.sin(x) * seed)
    y = np.linspace(0, 1, 5)
    gx, gy = tl.vjp(m.pair, wrt=(0, 1))(x, y, (seed, seed * 2))
    assert np.allclose(gx, y * seed + np.cos(x) * seed * 2)
    assert np.allclose(gy, x * seed)


def test_callee_functions_are_differentiated(m):
    x = np.array([0.1, 0.2])
    assert np.allclose(tl.grad(m.uses_helper)(x), 2.0 * np.exp(x))


def test_second_grad_is_served_from_the_cache(m):
    df = tl.grad(m.energy, wrt=2)
    assert tl.grad(m.energy, wrt=2) is df
    assert tl.grad(m.energy, wrt=(2,)) is not df
    assert tl.grad(m.energy, wrt=2, optimize=False) is not df


def test_changed_callee_is_not_served_stale(m, tmp_path):
    x = np.array([0.1, 0.2])
    first = tl.grad(m.uses_helper)
    m.helper = lambda x: x  # rebinding a global the gradient depends on
    with_lambda = tl.grad(m.uses_helper)
    assert np.allclose(with_lambda(x), 2.0 * np.ones(2))
    assert np.allclose(first(x), 2.0 * np.ones(2))  # the gradient held before: rebuilt too
    m.helper = load_module(tmp_path, "def helper(x):\n    return x * x\n").helper
    second = tl.grad(m.uses_helper)
    assert np.allclose(second(x), 4.0 * x)
    assert np.allclose(first(x), 4.0 * x)


def test_user_rule_invalidates_the_cache(tmp_path):
    mod = load_module(
        tmp_path,
        """
        import numpy as np

        def cube(x):
            return x * x * x

        def f(x):
            return np.sum(cube(x))
    """,
    )
    x = np.array([1.0, 2.0])
    assert np.allclose(tl.grad(mod.f)(x), 3 * x * x)

    @tl.adjoint(mod.cube)
    def dcube(result, x):
        d[x] = d[result] * 30.0 * x * x  # noqa: F821  (deliberately different, to observe it)

    assert np.allclose(tl.grad(mod.f)(x), 30 * x * x)


def test_source_is_inspectable_and_in_tracebacks(m, abc):
    df = tl.grad(m.energy)
    assert tl.source(df) == df.source
    assert inspect.getsource(df).startswith("def denergy(")
    bad = (np.ones(3), np.ones(4), 1.0)  # shapes that do not broadcast
    with pytest.raises(ValueError) as err:
        tl.value_and_grad(m.energy)(*bad)  # the value: the forward sweep computes a * b
    text = "".join(traceback.format_exception(err.value))
    assert "<tangentlike denergy" in text and "a * b" in text  # the generated frame, chained
    assert "energy raises this on these arguments" in text  # the function's own error last


def test_verbose_prints_the_source(m, capsys):
    tl.grad(m.energy, verbose=1)
    assert "def denergy(" in capsys.readouterr().out


def test_functions_in_blocks_closures_and_decorators():
    scale = 3.0

    def inner(x):
        return np.sum(x * scale)

    @functools.cache
    def _unused():  # a decorated neighbour must not confuse the source lookup
        return 1

    def wrap(f):
        @functools.wraps(f)
        def wrapper(*args):
            return f(*args)

        return wrapper

    @wrap
    def decorated(x):
        return np.sum(np.sin(x))

    x = np.array([0.5, 1.0])
    assert np.allclose(tl.grad(inner)(x), 3.0)
    assert np.allclose(tl.grad(decorated)(x), np.cos(x))


def test_differentiable_decorator(tmp_path):
    mod = load_module(
        tmp_path,
        """
        import numpy as np
        import tangentlike as tl

        @tl.differentiable
        def inner(w, x):
            return np.sum((x @ w) ** 2)

        @tl.differentiable(wrt=("w", "b"))
        def outer(w, b, x):
            return inner(w, x) + b * b
    """,
    )
    rng = np.random.RandomState(0)
    w, x = rng.randn(3), rng.randn(5, 3)
    assert np.isclose(mod.inner(w, x), np.sum((x @ w) ** 2))
    gw, gb = mod.outer.grad(w, 0.5, x)
    assert np.allclose(gw, 2 * x.T @ (x @ w)) and gb == 1.0
    value, g = mod.inner.value_and_grad(w, x)
    assert np.isclose(value, mod.inner(w, x)) and np.allclose(g, 2 * x.T @ (x @ w))
    assert np.allclose(mod.inner.vjp(w, x, 2.0), 4 * x.T @ (x @ w))


def test_reentrant_and_thread_safe(m):
    df = tl.grad(m.energy, wrt=(0, 1))
    rng = np.random.RandomState(3)
    inputs = [(rng.randn(50), rng.randn(50), rng.rand()) for _ in range(8)]
    expected = [df(*args) for args in inputs]
    results = [None] * len(inputs)

    def work(i):
        for _ in range(20):
            results[i] = df(*inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


def test_broadcast_pair_gradient_shapes(tmp_path):
    mod = load_module(
        tmp_path, "import numpy as np\n\ndef f(a, b):\n    return np.sum(np.tanh(a * b))\n"
    )
    a, b = np.random.randn(3, 1), np.random.randn(1, 4)
    ga, gb = tl.grad(mod.f, wrt=(0, 1))(a, b)
    assert ga.shape == (3, 1) and gb.shape == (1, 4)
    assert np.allclose(ga, fd_gradient(mod.f, [a, b], 0), atol=1e-6)
    assert np.allclose(gb, fd_gradient(mod.f, [a, b], 1), atol=1e-6)


def test_stack_is_per_call(tmp_path):
    """A failing call leaves nothing behind for the next one."""
    mod = load_module(
        tmp_path,
        """
        import numpy as np

        def f(x, n):
            for _ in range(n):
                x = np.sin(x)
            return np.sum(x)
    """,
    )
    df = tl.grad(mod.f)
    with pytest.raises(TypeError):
        df(np.ones(2), "three")
    assert np.allclose(df(np.ones(2) * 0.3, 2), np.cos(np.sin(0.3)) * np.cos(0.3))
