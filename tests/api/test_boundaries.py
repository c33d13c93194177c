"""What crosses into and out of generated code is checked: user rules' contributions, vjp
seeds, final gradients. Nothing of the wrong shape, dtype or structure is broadcast or cast."""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest
from reference import check_against_fd, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError
from tangentlike.runtime import boundary

# --------------------------------------------------------------------------- user rules

RULE = """\
import numpy as np
import tangentlike as tl
from tangentlike import d


def scale(x):
    return x * 2.0


@tl.adjoint(scale)
def dscale(result, x):
    d[x] = {contribution}


def f(x):
    return np.sum(scale(x) * np.cos(x))
"""
RULE_LINE, CALL_LINE = 10, 16  # the decorator (the rule's first line) and the call of scale


def _rule_module(tmp_path, contribution):
    return load_module(tmp_path, RULE.format(contribution=contribution))


def _f(x):
    return np.sum(x * 2.0 * np.cos(x))


@pytest.mark.parametrize(
    ("contribution", "argument", "problem"),
    [
        ("np.sum(d[result], axis=0, keepdims=True) * 2.0", (3, 4), "of shape (1, 4), but x has"),
        ("np.sum(d[result], axis=0) * 2.0", (3, 4), "of shape (4,), but x has shape (3, 4)"),
        ("np.sum(d[result]) * 2.0", (3, 4), "of shape (), but x has shape (3, 4)"),
        ("np.ones((3, 4)) * 2.0", (3,), "of shape (3, 4), but x has shape (3,)"),
        ("d[result] * np.ones(1)", (), "of shape (1,), but x has shape ()"),
        ("d[result] * 2.0 + 0j", (3,), "that is complex (complex128)"),
        ("(d[result] * 2.0).astype(np.complex64)", (3,), "that is complex (complex64)"),
        ("d[result] > 0", (3,), "of dtype bool, not a real number dtype"),
        ("str(d[result])", (3,), "that is a str, not a number or an array"),
        ("None", (3,), "that is None"),
        ("np.array(['a'] * 3)", (3,), "of dtype <U1, not a real number dtype"),
    ],
)
def test_a_user_rule_contribution_of_the_wrong_shape_dtype_or_type_is_refused(
    tmp_path, contribution, argument, problem
):
    module = _rule_module(tmp_path, contribution)
    x = np.linspace(0.1, 1.0, int(np.prod(argument))).reshape(argument)
    x = float(x) if argument == () else x
    for checks in (False, True):
        with pytest.raises(CheckError) as err:
            tl.grad(module.f, checks=checks)(x)
        message = str(err.value)
        name = module.__name__
        assert f"the rule dscale ({name}.py:{RULE_LINE}) for scale" in message
        assert f"applied at {name}.py:{CALL_LINE}, gave d[x]" in message
        assert problem in message
        assert "What to do: fix the rule" in message


def test_a_correct_user_rule_passes_its_checks(tmp_path):
    module = _rule_module(tmp_path, "d[result] * 2.0")
    x = np.random.RandomState(0).randn(3, 4)
    for checks in (False, True):
        df = tl.grad(module.f, checks=checks)
        assert "rule_contribution(" in df.source
        check_against_fd(_f, df(x), [x], 0)
        np.testing.assert_allclose(df(x), fd_gradient(_f, [x], 0), rtol=1e-6, atol=1e-8)
    assert float(tl.grad(module.f)(0.5)) == pytest.approx(float(fd_gradient(_f, [0.5], 0)))


DICT_RULE = """\
import numpy as np
import tangentlike as tl
from tangentlike import d


def total(p):
    return p["a"] * 2.0 + p["b"]


@tl.adjoint(total)
def dtotal(result, p):
    d[p] = {contribution}


def f(p):
    return np.sum(total(p) ** 2)
"""


def test_a_correct_user_rule_on_a_dict_argument(tmp_path):
    module = load_module(
        tmp_path, DICT_RULE.format(contribution="{'a': d[result] * 2.0, 'b': d[result]}")
    )
    p = {"a": np.array([0.5, -1.0]), "b": np.array([0.25, 2.0])}
    g = tl.grad(module.f)(p)
    s = p["a"] * 2.0 + p["b"]
    np.testing.assert_allclose(g["a"], 4.0 * s)
    np.testing.assert_allclose(g["b"], 2.0 * s)


@pytest.mark.parametrize(
    ("contribution", "problem"),
    [
        ("{'a': d[result] * 2.0, 'c': d[result]}", "with a key 'c' that p has not"),
        ("{'a': d[result][:1] * 2.0, 'b': d[result]}", "['a'] of shape (1,), but p['a'] has"),
        ("[d[result] * 2.0, d[result]]", "that is a list, but p is a dict"),
        ("d[result]", "that is a ndarray, but p is a dict"),
    ],
)
def test_a_user_rule_contribution_of_the_wrong_structure_is_refused(
    tmp_path, contribution, problem
):
    module = load_module(tmp_path, DICT_RULE.format(contribution=contribution))
    p = {"a": np.array([0.5, -1.0]), "b": np.array([0.25, 2.0])}
    with pytest.raises(CheckError, match=re.escape(problem)):
        tl.grad(module.f)(p)


# --------------------------------------------------------------------------- vjp seeds

OUTPUTS = """\
import numpy as np


def array(x):
    return x * 2.0


def pair(x):
    return x * 2.0, np.sum(x)


def mapping(x):
    return {"a": x * 2.0, "b": np.sum(x)}


def nested(x):
    return x * 3.0, {"a": x * 2.0, "name": "label"}


def scalar(x):
    return np.sum(x * x)
"""


@pytest.fixture
def outputs(tmp_path):
    return load_module(tmp_path, OUTPUTS)


X = np.array([0.5, -1.0, 2.0])


@pytest.mark.parametrize(
    ("function", "seed", "problem"),
    [
        ("array", np.ones(2), "the seed has shape (2,), but the output has shape (3,)"),
        ("array", np.ones((1, 3)), "the seed has shape (1, 3), but the output has shape (3,)"),
        ("array", 1.0, "the seed has shape (), but the output has shape (3,)"),
        ("array", np.ones((3, 3)), "the seed has shape (3, 3), but the output has shape (3,)"),
        ("array", [1.0, 1.0, 1.0], "the seed is a list of 3, not a number or an array"),
        ("array", None, "the seed is None, not a number or an array"),
        ("array", "1", "the seed is a str, not a number or an array"),
        ("array", np.ones(3) + 0j, "the seed has dtype complex128, not a real number dtype"),
        ("array", np.ones(3, dtype=bool), "the seed has dtype bool, not a real number dtype"),
        ("scalar", np.ones(1), "the seed has shape (1,), but the output has shape ()"),
        ("scalar", 1j, "the seed has dtype complex128"),
        ("pair", np.ones(3), "the seed is an array of shape (3,), but the output is a tuple of 2"),
        ("pair", (np.ones(3),), "the seed is a tuple of 1, but the output is a tuple of 2"),
        ("pair", (np.ones(3), 1.0, 1.0), "the seed is a tuple of 3, but the output is a tuple"),
        ("pair", (np.ones(2), 1.0), "the seed[0] has shape (2,), but the output[0] has shape (3,)"),
        ("pair", (np.ones(3), np.ones(3)), "the seed[1] has shape (3,), but the output[1] has"),
        ("pair", {"a": 1.0}, "the seed is a dict with keys 'a', but the output is a tuple of 2"),
        ("mapping", {"a": np.ones(3)}, "the seed is a dict with keys 'a', but the output is a"),
        ("mapping", {"a": np.ones(3), "c": 1.0}, "with keys 'a', 'c', but the output is a dict"),
        ("mapping", (np.ones(3), 1.0), "the seed is a tuple of 2, but the output is a dict"),
        (
            "nested",
            (np.ones(3), {"a": np.ones(4), "name": None}),
            "the seed[1]['a'] has shape (4,), but the output[1]['a'] has shape (3,)",
        ),
        (
            "nested",
            (np.ones(3), {"a": np.ones(3), "name": 1.0}),
            "the output[1]['name'] is a str, which has no cotangent, but the seed[1]['name']",
        ),
    ],
)
def test_a_seed_of_the_wrong_shape_dtype_or_structure_is_refused(outputs, function, seed, problem):
    f = getattr(outputs, function)
    df = tl.vjp(f)
    with pytest.raises(CheckError) as err:
        df(X, seed)
    message = str(err.value)
    assert message.startswith(f"vjp of {function} (returned at {outputs.__name__}.py:")
    assert problem in message
    assert "What to do: pass" in message


def test_seeds_of_the_right_structure_pass(outputs):
    ones = np.ones(3)
    np.testing.assert_allclose(tl.vjp(outputs.array)(X, ones), 2.0 * ones)
    # None is a zero part of a container seed; a missing cotangent is no broadcast
    np.testing.assert_allclose(tl.vjp(outputs.pair)(X, (None, 1.0)), ones)
    np.testing.assert_allclose(tl.vjp(outputs.pair)(X, [ones, None]), 2.0 * ones)
    np.testing.assert_allclose(tl.vjp(outputs.mapping)(X, {"b": 2.0, "a": ones}), 4.0 * ones)
    np.testing.assert_allclose(
        tl.vjp(outputs.nested)(X, (ones, {"a": ones, "name": None})), 5.0 * ones
    )
    assert tl.vjp(outputs.scalar)(X, np.float32(1.0)).dtype == np.float64


def test_integer_seeds_are_taken_as_floats(outputs):
    df = tl.vjp(outputs.array)
    np.testing.assert_array_equal(df(X, np.array([1, 2, 3])), df(X, np.array([1.0, 2.0, 3.0])))
    assert tl.vjp(outputs.scalar)(X, 2) == pytest.approx(4.0 * X)


def test_the_seed_is_never_changed(outputs):
    seed = [np.ones(3), 1.0]
    kept = [seed[0].copy(), 1.0]
    tl.vjp(outputs.pair)(X, seed)
    assert len(seed) == 2 and np.array_equal(seed[0], kept[0]) and seed[1] == 1.0


# --------------------------------------------------------------------------- final gradients


def test_a_final_gradient_of_another_shape_is_a_bug_never_broadcast(tmp_path):
    module = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sum(x * x)\n")
    df = tl.grad(module.f, checks=False)
    source = df.source.replace("gradient_like(bx, x, 'x')", "gradient_like(bx[:1], x, 'x')")
    assert source != df.source
    namespace: dict = {}
    exec(compile(source, "<edited>", "exec"), namespace)
    with pytest.raises(ValueError) as err:
        namespace["df"](np.ones((3, 4)))
    message = str(err.value)
    assert message.startswith("tangentlike: the gradient of x has shape (1, 4), but the argument")
    assert "shape (3, 4)" in message and "a tangentlike bug" in message


Pair = collections.namedtuple("Pair", "a b")


@pytest.mark.parametrize(
    ("b", "x", "expected"),
    [
        (np.ones(3), np.zeros(3, np.float32), np.ones(3, np.float32)),
        (np.ones(3), np.zeros(3, np.float16), np.ones(3, np.float16)),
        (np.ones(3), np.zeros(3, int), np.ones(3)),
        (2.0, np.float32(1.0), np.float32(2.0)),
        (np.float64(2.0), 1.0, 2.0),
        (np.array(2.0), 1.0, 2.0),
        (np.array(2.0), np.array(1.0, np.float32), np.array(2.0, np.float32)),
        (None, np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32)),
        (None, 1.0, 0.0),
        ([np.ones(2), None], np.zeros((2, 2)), np.array([[1.0, 1.0], [0.0, 0.0]])),
    ],
)
def test_gradient_like_gives_the_arguments_type_shape_and_float_dtype(b, x, expected):
    out = boundary.gradient_like(b, x, "x")
    assert type(out) is type(expected)
    assert np.shape(out) == np.shape(expected)
    assert np.result_type(out) == np.result_type(expected)
    np.testing.assert_array_equal(out, expected)


def test_gradient_like_keeps_structures_and_shares_no_memory():
    shared = np.ones(2)
    x = {"w": [np.zeros(2), np.zeros(2, np.float32)], "p": Pair(1.0, np.zeros(2)), "t": (0.0,)}
    b = {"w": [shared, shared], "p": [None, np.broadcast_to(2.0, (2,))]}
    out = boundary.gradient_like(b, x, "params")
    assert out["w"][0] is not out["w"][1] and out["w"][1].dtype == np.float32
    assert isinstance(out["p"], Pair) and out["p"].a == 0.0 and out["p"].b.flags.writeable
    assert out["t"] == (0.0,) and type(out["t"]) is tuple


@pytest.mark.parametrize(
    ("b", "x", "problem"),
    [
        (np.ones((1, 4)), np.ones((3, 4)), "has shape (1, 4), but the argument has shape (3, 4)"),
        (np.ones(1), 1.0, "has shape (1,), but the argument has shape ()"),
        (np.ones(3) + 1j, np.ones(3), "is complex (complex128): the function computes with"),
        (np.ones(3, dtype=bool), np.ones(3), "has dtype bool for a real argument"),
        ({"a": np.ones(2)}, [np.ones(2)], "is a dict, but the argument is a list"),
        (np.ones(3), {"a": np.ones(3)}, "is a ndarray, but the argument is a dict"),
        ([np.ones(2)], [np.ones(2), np.ones(2)], "has 1 items, but the argument has 2"),
        ({"a": np.ones(3)}, {"a": np.ones(2)}, "x['a'] has shape (3,), but the argument"),
        ([np.ones(2), np.ones(3)], np.ones((2, 2)), "x[1] has shape (3,), but the row has (2,)"),
    ],
)
def test_gradient_like_refuses_what_does_not_fit(b, x, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        boundary.gradient_like(b, x, "x")


@pytest.mark.parametrize(
    "x", [1j, np.ones(2, np.complex64), np.complex128(1.0), {"a": np.ones(2) * 1j}]
)
def test_gradient_like_refuses_complex_arguments(x):
    with pytest.raises(ValueError, match="complex"):
        boundary.gradient_like(None, x, "x")
