"""Gradients specialised to the arguments: a call passing Python numbers or arrays runs
a build in which those parameters are known scalars, or arrays of known dimensions
(which are 1), so no unbroadcast and no shape is saved where shapes agree; built once
per signature; other calls run the generic build. Each signature's gradient is checked
against autograd and central differences, in any order of calls."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl
from tangentlike.wrapper import scalar_signature, signature

SOURCE = """
import numpy as np

def iterate(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return np.sum(x)

def layer(x, W, b):
    z = x @ W + b
    return np.sum(np.tanh(z) * z)


def mixed(x, w, scale=2.0):
    y = x * scale + w
    if np.sum(y) > 0:
        y = y * y
    return np.sum(np.tanh(y) * scale)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("specialised"), SOURCE)


def test_the_specialised_build_drops_unbroadcast_and_saved_shapes(m):
    df = tl.grad(m.iterate, wrt=(0, 1), checks=False)
    df(0.3, 0.9, 5)
    text = df.specialised[("x", "a", "steps")]
    assert "scalars=('x', 'a', 'steps')" in text
    body = text.split("def diterate")[1]
    assert "unbroadcast" not in body
    assert body.count("_push(") == 1  # only x, which the backward sweep reads
    assert "unbroadcast" in df.source  # the generic build keeps them


def test_debug_mode_runs_the_generic_build(m):
    df = tl.grad(m.iterate, wrt=(0, 1), checks=True)
    assert df(0.3, 0.9, 3) == tl.grad(m.iterate, wrt=(0, 1), checks=False)(0.3, 0.9, 3)
    assert not df.specialised


ARGUMENTS = [
    (0.3, 0.9),
    (np.float64(0.3), 0.9),
    (np.array([0.3, -0.2]), 0.9),
    (0.3, np.array([0.9, 1.1, 0.8])),
    (np.array(0.3), np.array([[0.9], [1.1]])),
    (np.float32(0.3), 0.9),
]


@pytest.mark.parametrize("order", [1, -1])
def test_every_signature_in_any_order(m, order):
    df = tl.grad(m.iterate, wrt=(0, 1))
    for x, a in ARGUMENTS[::order]:
        gx, ga = df(x, a, 4)
        check_against_fd(m.iterate, gx, (x, a, 4), 0, rtol=1e-4)
        check_against_fd(m.iterate, ga, (x, a, 4), 1, rtol=1e-4)
        assert np.shape(gx) == np.shape(x) and np.shape(ga) == np.shape(a)
        if np.ndim(x) == 0 and np.ndim(a) == 0:
            assert gx == pytest.approx(autograd_grad(m.iterate, (float(x), float(a), 4), 0))


def test_defaults_keywords_and_seeds_are_not_taken_for_scalars(m):
    x, w = np.array([0.3, -0.5, 0.2]), 0.4
    for df in (tl.grad(m.mixed, wrt=(0, 1)), tl.value_and_grad(m.mixed, wrt=(0, 1))):
        for args, kwargs in (((x, w), {}), ((x, w, 3.0), {}), ((x,), {"w": w, "scale": 3.0})):
            out = df(*args, **kwargs)
            grads = out[1] if isinstance(out[0], float) else out
            assert np.shape(grads[0]) == (3,)
    vjp = tl.vjp(m.mixed, wrt=0)
    g = vjp(x, w, 1.0)  # the seed is not a parameter: scale keeps its default
    check_against_fd(m.mixed, g, (x, w), 0)
    assert all("scale" not in key for key in vjp.specialised)


def test_the_signature():
    names = ("x", "n", "flag", "v")
    assert scalar_signature(names, (1.0, 3, True, np.float64(2.0))) == ("x", "n")
    assert scalar_signature(names, (np.ones(2),)) == ()
    assert scalar_signature(names, (1.0, 2, 3.0, 4.0, 5.0)) == ("x", "n", "flag", "v")
    given = (np.ones((3, 1)), 2, np.ones(4, dtype=object), np.ones(()))
    assert signature(names, given) == (("x", "N1"), ("n", None), ("v", ""))


LAYER_SHAPES = [
    ((4, 3), (3, 5), (5,)),
    ((6, 3), (3, 5), (5,)),  # the same pattern: the same build
    ((4, 3), (3, 5), (1, 5)),
    ((4, 3), (3, 5), (1,)),
    ((1, 3), (3, 5), (5,)),
    ((4, 1), (1, 5), (5,)),
    ((3,), (3, 5), (5,)),
]


def test_builds_specialised_to_which_dimensions_are_1(m):
    df = tl.grad(m.layer, wrt=(0, 1, 2), checks=False)  # debug mode runs the generic build
    rng = np.random.default_rng(0)
    for shapes in LAYER_SHAPES:
        args = [rng.standard_normal(s) for s in shapes]
        grads = df(*args)
        for i in range(3):
            check_against_fd(m.layer, grads[i], args, i, rtol=1e-4)
            assert np.shape(grads[i]) == np.shape(args[i])
    assert len(df.specialised) == len(LAYER_SHAPES) - 1
    text = df.specialised[("x[NN]", "W[NN]", "b[N]")]
    assert "arrays=(('x', 'NN'), ('W', 'NN'), ('b', 'N'))" in text
    body = text.split("def dlayer")[1]
    # b's adjoint is summed over the rows of x @ W, a NumPy sum where both shapes are known
    assert body.count("unbroadcast(") == 0 and body.count(".sum(axis=0)") == 1
    assert df.source.split("def dlayer")[1].count("unbroadcast(") > 1
