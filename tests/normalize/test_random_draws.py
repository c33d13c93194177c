"""Random draws from a NumPy Generator or RandomState (passed in, global or made in the
function) are constants for differentiation (normalize/anf_expressions.py lowers
`rng.<draw>(...)` to runtime.random_draw); a differentiated distribution parameter is
refused with its location. Gradients against autograd (same seed, same draws) and
central differences; forward mode against the same."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np

RNG = np.random.default_rng(0)


def elbo(mu, log_sigma, rng):
    eps = rng.standard_normal((5, mu.shape[0]))
    z = mu + np.exp(log_sigma) * eps
    return np.mean(np.sum(-0.5 * z ** 2, axis=1)) + np.sum(log_sigma)


def several_draws(x, rng):
    u = rng.uniform(size=x.shape)
    e = rng.normal(0.0, 2.0, size=3)
    k = rng.integers(0, 3)
    return np.sum((x * e + u) ** 2) * x[k]


def legacy_state(x, rs):
    return np.sum(x * rs.randn(3))


def global_generator(x):
    return np.sum(x * RNG.standard_normal(3))


def made_inside(x):
    rng = np.random.default_rng(4)
    return np.sum(x * rng.normal(size=x.shape))


def differentiated_parameter(x, rng):
    eps = rng.normal(x, 1.0)
    return np.sum(eps)
"""

X = np.array([0.3, 0.5, -0.2])


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("draws"), SOURCE, "random_draws_cases")


def _rng(kind="generator"):
    return np.random.default_rng(7) if kind == "generator" else np.random.RandomState(7)


CASES = {
    "elbo": ((X, X * 0.1, "generator"), (0, 1)),
    "several_draws": ((X, "generator"), (0,)),
    "legacy_state": ((X, "state"), (0,)),
}


def _args(spec):
    return [_rng(a) if isinstance(a, str) else a for a in spec]


@pytest.mark.parametrize("name", list(CASES))
def test_draws_are_constants_against_autograd_and_differences(module, name):
    import autograd

    spec, wrt = CASES[name]
    f = getattr(module, name)
    grads = tl.grad(f, wrt=wrt)(*_args(spec))
    for i, g in zip(wrt, grads, strict=True):
        expected = autograd.grad(autograd_version(f), i)(*_args(spec))
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)

        def same_draws(*args, f=f):
            return f(*[_rng(a) if isinstance(a, str) else a for a in args])

        np.testing.assert_allclose(g, fd_gradient(same_draws, list(spec), i), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", list(CASES))
def test_forward_mode(module, name):
    spec, wrt = CASES[name]
    f = getattr(module, name)
    tangents = tuple(np.ones_like(spec[i]) for i in wrt)
    value, derivative = tl.jvp(f, wrt=wrt)(*_args(spec), tangents)
    grads = tl.grad(f, wrt=wrt)(*_args(spec))
    assert np.isclose(value, f(*_args(spec)))
    assert np.isclose(derivative, sum(float(np.sum(g)) for g in grads))


def test_a_global_generator_and_one_made_inside(module):
    state = module.RNG.bit_generator.state
    g = tl.grad(module.global_generator)(X)
    module.RNG.bit_generator.state = state
    np.testing.assert_allclose(g, module.RNG.standard_normal(3))
    g = tl.grad(module.made_inside)(X)
    np.testing.assert_allclose(g, np.random.default_rng(4).normal(size=3))


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_a_differentiated_distribution_parameter_is_refused(module, mode):
    f = module.differentiated_parameter
    with pytest.raises(UnsupportedSyntaxError) as err:
        if mode == "grad":
            tl.grad(f)(X, _rng())
        else:
            tl.jvp(f)(X, _rng(), np.ones(3))
    message = str(err.value)
    assert "random_draws_cases.py:34:" in message, message
    assert "rng.standard_normal(size)" in message and "^" in message, message


def test_a_method_of_that_name_on_a_user_object_is_its_own(tmp_path):
    source = (
        "import numpy as np\n\nclass Box:\n    def normal(self, size):\n"
        "        return np.ones(size)\n\ndef f(x, box):\n    return np.sum(x * box.normal(3))\n"
    )
    module = load_module(tmp_path, source)
    np.testing.assert_allclose(tl.grad(module.f, wrt=0)(X, module.Box()), np.ones(3))


def test_the_draw_checks_its_object():
    from tangentlike.runtime import random_draw

    with pytest.raises(TypeError, match=r"not a numpy\.random\.Generator"):
        random_draw([1.0], "normal", 3)
    assert random_draw(np.random.default_rng(1), "normal", size=2).shape == (2,)
