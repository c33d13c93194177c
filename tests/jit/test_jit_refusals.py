"""What jit=True cannot compile is refused with a located JitError naming what blocks it,
never run in Python silently; jit="auto" runs the Python adjoint with exactly one
JitWarning (numba absent: skipped, except the message saying numba is missing)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from reference import line_of, load_module

import tangentlike as tl
from tangentlike.errors import JitError, JitWarning
from tangentlike.jit import compiled

SOURCE = """
import numpy as np


def uses_cumprod(x):
    y = x * 2.0
    return np.sum(np.cumprod(y))


def count(values):
    return len(values)


def calls_plain_python(x, labels):
    n = count(labels)
    return x * n


def uses_dict(x, d):
    return x * d["a"]


def fine(x):
    return np.sum(np.sin(x) * x)


def elementwise(x):
    return np.sin(x) * 2.0


def loop(x, steps):
    for _ in range(steps):
        x = x * 0.9 + np.sin(x)
    return x
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jit_refusals"), SOURCE)


def test_helper_without_kernel_is_refused_at_grad_with_its_line(m):
    pytest.importorskip("numba")
    with pytest.raises(JitError) as info:
        tl.grad(m.uses_cumprod, jit=True)
    err = info.value
    assert err.location.filename == m.__file__
    assert err.location.line == line_of(m, "np.cumprod(y)")
    assert "cumprod_vjp" in str(err)
    assert "return np.sum(np.cumprod(y))" in str(err)  # the line, with a caret
    assert 'jit="auto"' in str(err)


def test_numba_typing_refusal_is_located_at_the_first_call(m):
    pytest.importorskip("numba")
    df = tl.grad(m.calls_plain_python, jit=True)  # nothing to refuse before the types
    with pytest.raises(JitError) as info:
        df(1.5, (1, 2, 3))
    err = info.value
    assert err.location is not None and err.location.filename == m.__file__
    assert err.location.line == line_of(m, "n = count(labels)")
    assert "count" in str(err)


def test_an_argument_numba_cannot_take_is_named(m):
    pytest.importorskip("numba")
    with pytest.raises(JitError, match=r"argument d is a dict"):
        tl.grad(m.uses_dict, jit=True)(1.5, {"a": 2.0})


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("uses_cumprod", (np.linspace(0.1, 1.0, 4),)),  # refused when grad builds
        ("calls_plain_python", (1.5, (1, 2, 3))),  # refused at the first call
        ("uses_dict", (1.5, {"a": 2.0})),  # refused at the first call
    ],
)
def test_auto_falls_back_with_exactly_one_warning(m, name, args):
    pytest.importorskip("numba")
    f = getattr(m, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = tl.grad(f, jit="auto")
        first, second = df(*args), df(*args)
    ours = [w for w in caught if issubclass(w.category, JitWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert name in str(ours[0].message)
    expected = tl.grad(f)(*args)
    np.testing.assert_allclose(first, expected)
    np.testing.assert_allclose(second, expected)


def test_auto_compiles_what_it_can_without_warning(m):
    pytest.importorskip("numba")
    x = np.linspace(-1.0, 1.0, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitWarning)
        g = tl.grad(m.fine, jit="auto")(x)
    np.testing.assert_allclose(g, tl.grad(m.fine)(x), rtol=1e-12)


def test_without_numba_jit_true_says_how_to_install_it(m, monkeypatch):
    monkeypatch.setattr(compiled, "available", lambda: False)
    with pytest.raises(JitError, match=r"pip install 'tangentlike\[jit\]'"):
        tl.grad(m.fine, jit=True, cache=False)
    with pytest.warns(JitWarning, match="numba"):
        df = tl.grad(m.fine, jit="auto", cache=False, optimize=False)
    x = np.linspace(-1.0, 1.0, 5)
    np.testing.assert_allclose(df(x), tl.grad(m.fine)(x))


def test_options_that_need_the_python_adjoint_are_refused(m):
    with pytest.raises(ValueError, match="stats=True"):
        tl.grad(m.fine, jit=True, stats=True)
    with pytest.raises(ValueError, match="checks=True"):
        tl.grad(m.fine, jit=True, checks=True)
    with pytest.raises(TypeError, match="jit= takes"):
        tl.grad(m.fine, jit="always")
    with pytest.raises(TypeError, match="jit= takes"):
        tl.grad(m.fine, jit=1)


def test_a_non_scalar_output_is_the_usual_error(m):
    pytest.importorskip("numba")
    from tangentlike.errors import NonScalarOutputError

    with pytest.raises(NonScalarOutputError, match="scalar output"):
        tl.grad(m.elementwise, jit=True)(np.ones(3))


def test_a_vjp_seed_of_another_shape_is_refused(m):
    pytest.importorskip("numba")
    from tangentlike.errors import CheckError

    pulled = tl.vjp(m.elementwise, jit=True)(np.ones(3), np.ones(3))
    np.testing.assert_allclose(pulled, tl.vjp(m.elementwise)(np.ones(3), np.ones(3)))
    with pytest.raises(CheckError, match="seed"):
        tl.vjp(m.elementwise, jit=True)(np.ones(3), np.ones(4))


def test_checkpointed_loops_are_refused_at_grad(m):
    pytest.importorskip("numba")
    with pytest.raises(JitError, match="checkpoint") as info:
        tl.grad(m.loop, jit=True, checkpoint=tl.Binomial(snapshots=2))
    assert info.value.location.line == line_of(m, "for _ in range(steps):")
