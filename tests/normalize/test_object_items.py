"""Functions held in attributes (`self.act = np.tanh`, then `self.act(h)`) and lists of
objects (`for layer in self.layers: h = layer(h)`) (normalize/methods.py, the classes
and functions a build is specialised for: parse/resolve.object_classes): gradients of
global objects and bound methods against central differences, forward mode too; a
changed function, item class or list is a rebuild, never a stale gradient; items of
different classes are refused with the location of the call."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np


def relu_ish(h):
    return h * np.tanh(h) + 0.1 * h


class Lin:
    def __init__(self, w):
        self.w = w

    def __call__(self, h):
        return np.tanh(h * self.w)


class Sq:
    def __init__(self, w):
        self.w = w

    def __call__(self, h):
        return (h * self.w) ** 2


class Model:
    def __init__(self, act):
        self.layers = [Lin(0.5), Lin(1.5)]
        self.act = act

    def loss(self, x):
        h = x
        for layer in self.layers:
            h = self.act(layer(h))
        return np.sum(h)


M = Model(np.sin)
LAYERS = [Lin(0.5), Lin(-1.2)]


def uses_global_model(x):
    return M.loss(x)


def uses_global_list(x):
    h = x
    for layer in LAYERS:
        h = layer(h) * x
    return np.sum(h)
"""

X = np.array([0.3, -0.7, 1.1])


@pytest.fixture
def module(tmp_path):
    return load_module(tmp_path, SOURCE)


def _check(f, df):
    np.testing.assert_allclose(df(X), fd_gradient(f, [X], 0), rtol=1e-6, atol=1e-8)


def test_global_objects_with_function_attributes_and_layer_lists(module):
    for f in (module.uses_global_model, module.uses_global_list):
        _check(f, tl.grad(f))
        value, derivative = tl.jvp(f)(X, np.ones(3))
        assert np.isclose(value, f(X))
        assert np.isclose(derivative, fd_gradient(f, [X], 0).sum(), rtol=1e-6)


def test_a_python_function_in_an_attribute_is_differentiated_through_its_source(module):
    m = module.Model(module.relu_ish)
    _check(m.loss, tl.grad(m.loss))


def test_changes_rebuild_the_gradient(module):
    g = tl.grad(module.uses_global_model)
    _check(module.uses_global_model, g)
    module.M.act = np.cos  # another function in the attribute
    _check(module.uses_global_model, g)
    module.M.layers = [module.Sq(0.3), module.Sq(2.0), module.Sq(0.1)]  # another class
    _check(module.uses_global_model, g)
    module.M.layers.append(module.Sq(0.7))  # the same list grown
    _check(module.uses_global_model, g)
    module.LAYERS[1] = module.Sq(0.4)  # a global list now mixed: refused, never stale
    with pytest.raises(UnsupportedSyntaxError, match="not all objects of one class"):
        tl.grad(module.uses_global_list)(X)


def test_a_bound_method_is_specialised_to_its_object_at_each_call(module):
    m = module.Model(np.tanh)
    g, jf = tl.grad(m.loss), tl.jvp(m.loss)
    _check(m.loss, g)
    m.act = np.sin
    m.layers.append(module.Lin(3.0))
    _check(m.loss, g)
    _, derivative = jf(X, np.ones(3))
    assert np.isclose(derivative, fd_gradient(m.loss, [X], 0).sum(), rtol=1e-6)


def test_items_of_different_classes_are_refused_at_the_call(module):
    m = module.Model(np.tanh)
    m.layers = [module.Lin(0.5), module.Sq(1.0)]
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(m.loss)(X)
    message = str(err.value)
    assert ":33:" in message and "self.layers" in message and "^" in message, message
    assert "What to do" in message, message
