"""`wrt` naming a dict, list or tuple argument: the gradient has the argument's exact
structure (keys and their order, list vs tuple, nesting) and each leaf's float dtype;
keys and positions the output does not depend on get zeros of their shape."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError, WrtError

SOURCE = """
import numpy as np


def loss(params, x):
    h = np.tanh(x @ params["W1"] + params["b1"])
    return np.sum((h @ params['W2']) ** 2)


def mixed(params, w, x):
    return np.sum(np.tanh(x @ params["W"]) * w) + params["s"] * np.sum(w)


def nested(tree, x):
    (a, b), rest = tree["pair"], tree["rest"]
    return np.sum(a * x) + b * np.sum(rest[0] ** 2) + np.sum(rest[1]["deep"] * x)


def vector_out(params, x):
    return np.tanh(x @ params["W"])


def uses_nothing(params, x):
    return np.sum(x * x)
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("wrt"), SOURCE)


def _params(dtype=np.float64):
    r = np.random.RandomState(0)
    return {
        "W1": r.randn(3, 4).astype(dtype),
        "b1": r.randn(4).astype(dtype),
        "W2": r.randn(4, 2).astype(dtype),
        "unused": r.randn(5).astype(dtype),
    }


def test_dict_of_parameters_gets_a_dict_in_the_same_key_order(module):
    params, x = _params(), np.random.RandomState(1).randn(6, 3)
    g = tl.grad(module.loss)(params, x)
    assert list(g) == list(params)
    np.testing.assert_array_equal(g["unused"], np.zeros(5))
    expected = autograd_grad(module.loss, [params, x], 0)
    for k in params:
        assert g[k].shape == params[k].shape
        np.testing.assert_allclose(g[k], expected[k], rtol=1e-7, atol=1e-9)


def test_leaves_keep_their_float_dtype(module):
    params = _params(np.float32)
    params["b1"] = params["b1"].astype(np.float64)
    g = tl.grad(module.loss)(params, np.ones((2, 3)))
    assert {k: v.dtype for k, v in g.items()} == {k: v.dtype for k, v in params.items()}


def test_wrt_mixes_a_dict_and_an_array(module):
    r = np.random.RandomState(2)
    params, w, x = {"W": r.randn(3, 2), "s": 0.5}, r.randn(2), r.randn(4, 3)
    gp, gw = tl.grad(module.mixed, wrt=(0, 1))(params, w, x)
    assert isinstance(gp["s"], float)
    ep, ew = (autograd_grad(module.mixed, [params, w, x], i) for i in (0, 1))
    np.testing.assert_allclose(gp["W"], ep["W"], rtol=1e-7)
    np.testing.assert_allclose(gp["s"], ep["s"], rtol=1e-7)
    np.testing.assert_allclose(gw, ew, rtol=1e-7)
    by_name = tl.grad(module.mixed, wrt=("params", "w"))(params, w, x)
    np.testing.assert_allclose(by_name[0]["W"], gp["W"])


def test_nested_structures_come_back_nested(module):
    r = np.random.RandomState(3)
    tree = {
        "pair": (r.randn(3), 1.5),
        "rest": [r.randn(2, 2), {"deep": r.randn(3), "unused": [r.randn(1), 2.0]}],
    }
    x = r.randn(3)
    g = tl.grad(module.nested)(tree, x)
    assert type(g["pair"]) is tuple and type(g["rest"]) is list
    assert isinstance(g["pair"][1], float)
    assert g["rest"][1]["unused"][1] == 0.0
    np.testing.assert_array_equal(g["rest"][1]["unused"][0], np.zeros(1))
    expected = autograd_grad(module.nested, [tree, x], 0)
    np.testing.assert_allclose(g["pair"][0], expected["pair"][0], rtol=1e-7)
    np.testing.assert_allclose(g["pair"][1], expected["pair"][1], rtol=1e-7)
    np.testing.assert_allclose(g["rest"][0], expected["rest"][0], rtol=1e-7)
    np.testing.assert_allclose(g["rest"][1]["deep"], expected["rest"][1]["deep"], rtol=1e-7)


def test_value_and_grad_and_vjp_with_a_dict(module):
    params, x = _params(), np.random.RandomState(4).randn(6, 3)
    value, g = tl.value_and_grad(module.loss)(params, x)
    np.testing.assert_allclose(value, module.loss(params, x))
    assert list(g) == list(params)
    seed = np.random.RandomState(5).randn(6, 4)
    vp = tl.vjp(module.vector_out)({"W": params["W1"]}, x, seed)
    expected = x.T @ (seed * (1 - np.tanh(x @ params["W1"]) ** 2))
    np.testing.assert_allclose(vp["W"], expected, rtol=1e-10)


def test_an_argument_nothing_reaches_gets_zeros_in_its_structure(module):
    ragged = [np.ones(2), (np.ones(3, np.float32), 4.0)]
    g = tl.grad(module.uses_nothing)(ragged, np.ones(2))
    assert type(g) is list and type(g[1]) is tuple
    assert g[1][0].dtype == np.float32 and g[1][1] == 0.0


def test_integer_leaf_is_named_in_the_error(module):
    with pytest.raises(WrtError, match=r"params\['s'\]"):
        tl.grad(module.mixed)({"W": np.ones((3, 2)), "s": 1}, np.ones(2), np.ones((1, 3)))


def test_differentiable_decorator_with_a_dict(module):
    loss = tl.differentiable(module.loss)
    params = _params()
    g = loss.grad(params, np.ones((2, 3)))
    assert list(g) == list(params)


def test_mutating_an_argument_list(tmp_path):
    """The caller's list grows as it does under f; the gradient is shaped like the list on
    entry (transform/argument_containers.py)."""
    m = load_module(tmp_path, "def f(xs):\n    xs.append(xs[0] * 2.0)\n    return xs[-1][0]\n")
    xs = [np.ones(2)]
    g = tl.grad(m.f)(xs)
    assert len(g) == 1 and np.array_equal(g[0], [2.0, 0.0])
    assert len(xs) == 2 and np.array_equal(xs[1], [2.0, 2.0])


def test_mutating_an_argument_list_returned_whole_is_refused(tmp_path):
    source = "def f(xs):\n    xs.append(xs[0] * 2.0)\n    return xs\n"
    m = load_module(tmp_path, source)
    with pytest.raises(UnsupportedSyntaxError, match="caller's list") as err:
        tl.vjp(m.f)([np.ones(2)], [np.ones(2), np.ones(2)])
    assert ":2:" in str(err.value) and "xs.append(xs[0] * 2.0)" in str(err.value)


def test_gradient_leaves_never_share_memory(tmp_path):
    m = load_module(
        tmp_path, "import numpy as np\n\ndef f(p):\n    return np.sum(p['a'] + p['b'])\n"
    )
    g = tl.grad(m.f)({"a": np.ones(3), "b": np.ones(3)})
    g["a"] *= 2.0
    np.testing.assert_array_equal(g["b"], np.ones(3))


def test_a_string_leaf_is_named_in_the_error(module):
    with pytest.raises(WrtError, match=r"params\['name'\]\": it is a str"):
        tl.grad(module.loss)({**_params(), "name": "layer"}, np.ones((2, 3)))


def test_the_generated_module_alone_returns_the_full_structure(module):
    """What the CLI writes (df.source) needs no wrapper: every key, in order, zeros where
    unreached."""
    df = tl.grad(module.loss)
    namespace: dict = {"__name__": "written"}
    exec(compile(df.source, "written.py", "exec"), namespace)
    params = _params()
    g = namespace[df.__name__](params, np.ones((2, 3)))
    assert list(g) == list(params)
    np.testing.assert_array_equal(g["unused"], np.zeros(5))
    np.testing.assert_allclose(g["W1"], df(params, np.ones((2, 3)))["W1"])
