"""`obj[k]` of a user object whose class defines `__getitem__` is a method call,
differentiated through its source: a global object, an attribute of a bound `self`, a
local made by the class; index by a value, a slice or a tuple. An object whose
`__getitem__` is no `def` is refused when the index depends on the differentiated
inputs, and so is, when the gradient runs, a parameter of unknown class that turns out
to be an object; arrays, lists and dicts indexed by such a value (integers, keys) stay
selections."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


class Table:
    def __init__(self, w=3.0):
        self.w = w

    def __getitem__(self, k):
        return np.sin(k) * self.w


class Window(Table):
    def __getitem__(self, key):
        return np.sum(self.data[key]) * key.stop


class Pair(Table):  # inherits __init__
    def __getitem__(self, key):
        a, b = key
        return a * b + self.w


class Opaque:
    __getitem__ = staticmethod(lambda k: k * 3.0)


TABLE = Table()
WINDOW = Window(2.0)
WINDOW.data = np.arange(5.0)
PAIR = Pair(2.0)


class Model:
    def __init__(self):
        self.table = Table(2.0)

    def loss(self, x):
        return np.sum(self.table[x] * x)


def global_object(x):
    return np.sum(TABLE[x] + TABLE[2.0] * x)


def tuple_index(x, y):
    return np.sum(PAIR[x, y * x])


def slice_index(x):
    return np.sum(WINDOW[1:3] * x)


def parameter(x, table):
    return np.sum(table[x])


def local_object(x):
    t = Table(0.5)
    return np.sum(t[x * x])


def in_a_loop(x):
    s = 0.0
    for i in range(3):
        s = s + TABLE[x * i]
    return np.sum(s)


def container_parameters(params, data):
    s = 0.0
    for key in params:
        s = s + params[key] * data[key]
    return s
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("getitem"), SOURCE)


X = np.array([0.3, -1.2, 0.8])


@pytest.mark.parametrize(
    ("name", "args", "wrt"),
    [
        ("global_object", (X,), (0,)),
        ("tuple_index", (X, X[::-1]), (0, 1)),
        ("slice_index", (X,), (0,)),
        ("local_object", (X,), (0,)),
        ("in_a_loop", (X,), (0,)),
    ],
)
def test_gradient_matches_finite_differences(module, name, args, wrt):
    f = getattr(module, name)
    grads = tl.grad(f, wrt=wrt)(*args)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for i, g in zip(wrt, grads, strict=True):
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-6, atol=1e-8)


def test_an_attribute_of_a_bound_self(module):
    model = module.Model()
    g = tl.grad(model.loss)(X)
    np.testing.assert_allclose(g, fd_gradient(model.loss, [X], 0), rtol=1e-6, atol=1e-8)


def test_a_parameter_indexed_by_a_differentiated_value_is_checked_when_it_runs(module):
    """Its class is not known when the gradient is built: an array, list or dict selects
    (zero gradient through the index), an object with its own __getitem__ is refused."""
    df = tl.grad(module.parameter)
    assert df(1.0, {1.0: 3.0, 2.0: 4.0}) == 0.0
    assert "selects(table," in df.source
    with pytest.raises(
        TypeError, match=r"tl_case_\d+\.py:\d+: 'table' is indexed by a differentiated"
    ):
        df(X, module.Table(1.5))
    with pytest.raises(TypeError, match="own __getitem__"):
        df(X, module.Opaque())


def test_containers_indexed_by_keys_of_a_differentiated_dict(module):
    params, data = {"a": 2.0, "b": 1.0}, {"a": 5.0, "b": 7.0}
    assert tl.grad(module.container_parameters)(params, data) == {"a": 5.0, "b": 7.0}


def test_the_method_call_is_in_the_generated_code(module):
    source = tl.grad(module.global_object).source
    assert "Table.__getitem__(TABLE, 2.0)" in source
