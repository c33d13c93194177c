"""Nested functions, lambdas, *args/**kwargs, methods, partials and decorated helpers:
each program's gradient against central differences and autograd (through a copy)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from corpus.functions import CASES
from reference import autograd_grad, fd_gradient

import tangentlike as tl


def _id(case):
    f = case[0]
    name = getattr(f, "__qualname__", None) or getattr(f, "func", type(f)).__name__
    return f"{name}-{CASES.index(case)}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gradient_matches_finite_differences(case):
    f, make, wrt = case
    args = make()
    grads = tl.grad(f, wrt=wrt)(*args)
    for i, g in zip(wrt, grads, strict=True):
        assert np.shape(g) == np.shape(args[i])
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gradient_matches_autograd(case):
    f, make, wrt = case
    args = make()
    grads = tl.grad(f, wrt=wrt)(*args)
    if not inspect.isfunction(f):
        pytest.skip("the autograd oracle copies plain functions only")
    for i, g in zip(wrt, grads, strict=True):
        np.testing.assert_allclose(g, autograd_grad(f, list(args), i), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_value_and_grad_returns_the_primal_value(case):
    f, make, wrt = case
    args = make()
    value, _ = tl.value_and_grad(f, wrt=wrt)(*args)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)


def test_a_lambda_can_be_differentiated(tmp_path):
    from reference import load_module

    module = load_module(
        tmp_path,
        "import numpy as np\n\nsquare_sum = lambda x, k=2.0: np.sum(x ** 2) * k\n"
        "pair = (lambda x: np.sum(x), lambda x, y: np.sum(x * y))\n",
    )
    x = np.arange(3.0)
    np.testing.assert_allclose(tl.grad(module.square_sum)(x), 4.0 * x)
    assert "def dsquare_sum(x, k=2.0" in tl.grad(module.square_sum).source
    np.testing.assert_allclose(tl.grad(module.pair[1], wrt=1)(x, x + 1.0), x)
    np.testing.assert_allclose(tl.grad(lambda v: np.sum(np.sin(v)))(x), np.cos(x))


HOLDER = """
import numpy as np

class Scale:
    def __call__(self, x):
        return x * 2.0

class Square:
    def __call__(self, x):
        return x * x

class Holder:
    def __init__(self):
        self.op = Scale()

    def run(self, x):
        return np.sum(self.op(x))

H = Holder()

def f(x):
    return H.run(x)
"""


def test_a_global_object_whose_attribute_changes_class_is_rebuilt(tmp_path):
    from reference import load_module

    module = load_module(tmp_path, HOLDER)
    x = np.arange(3.0)
    np.testing.assert_allclose(tl.grad(module.f)(x), [2.0, 2.0, 2.0])
    module.H.op = module.Square()
    np.testing.assert_allclose(tl.grad(module.f)(x), 2.0 * x)


def test_a_bound_method_follows_its_object_attribute_classes(tmp_path):
    from reference import load_module

    module = load_module(tmp_path, HOLDER)
    holder = module.Holder()
    df = tl.grad(holder.run)
    x = np.arange(3.0)
    np.testing.assert_allclose(df(x), [2.0, 2.0, 2.0])
    holder.op = module.Square()
    np.testing.assert_allclose(df(x), 2.0 * x)


def test_a_global_dict_spelled_out_as_keywords_is_watched(tmp_path):
    from reference import load_module

    module = load_module(
        tmp_path,
        """
        import numpy as np

        OPTIONS = {"scale": 2.0}

        def g(x, scale=1.0, shift=0.0):
            return np.sum(x * scale + shift * x * x)

        def f(x):
            return g(x, **OPTIONS)
        """,
    )
    x = np.arange(3.0)
    np.testing.assert_allclose(tl.grad(module.f)(x), [2.0, 2.0, 2.0])
    module.OPTIONS["scale"] = 3.0  # values are read when the gradient runs
    np.testing.assert_allclose(tl.grad(module.f)(x), [3.0, 3.0, 3.0])
    module.OPTIONS["shift"] = 1.0  # a new key: rebuilt
    np.testing.assert_allclose(tl.grad(module.f)(x), 3.0 + 2.0 * x)


def test_a_differentiable_method_has_grad_on_its_object():
    from corpus.functions import Residual2

    model, x = Residual2(8), np.random.RandomState(0).randn(3)
    expected = fd_gradient(model.score, [x], 0)
    np.testing.assert_allclose(model.score.grad(x), expected, rtol=1e-5, atol=1e-6)
    value, g = model.score.value_and_grad(x)
    np.testing.assert_allclose(value, Residual2.score.__wrapped__(model, x))
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-6)
