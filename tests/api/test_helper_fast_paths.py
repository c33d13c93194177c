"""The runtime helpers' fast paths (add_item's first adjoint of a float array, unmul of
arrays of one shape, add of two arrays) give what their general forms give, and the
generic build that calls them (debug mode runs it) still computes the right gradient."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl
from tangentlike import runtime

SOURCE = """
import numpy as np


def chain(k, q):
    for _ in range(3):
        s = np.diff(np.concatenate(([0.0], q, [0.0])))
        t = k * s
        q = q - 0.1 * (t[1:] - t[:-1]) * q[0]
    return np.sum(q * q) - np.sum(k * k)
"""


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("index", [0, 3, slice(1, None), slice(None, -1), slice(None, None, 2)])
def test_first_adjoint_of_an_item_is_unsubscript(dtype, index):
    x = np.arange(6.0, dtype=dtype)
    g = np.ones_like(x[index]) * 2.5
    got, want = runtime.add_item(None, x, index, g), runtime.unsubscript(g, x, index)
    assert got.dtype == want.dtype == dtype and np.array_equal(got, want)
    later = runtime.add_item(got, x, index, g)
    assert np.array_equal(later, 2 * want) and np.array_equal(got, want)  # a new array


def test_unmul_and_add_of_arrays_of_one_shape():
    rng = np.random.default_rng(0)
    g, x, y = (rng.standard_normal((3, 2)) for _ in range(3))
    gx, gy = runtime.unmul(g, x, y)
    assert np.array_equal(gx, g * y) and np.array_equal(gy, g * x)
    gx, gy = runtime.unmul(np.array(2.0), np.array(3.0), np.array(4.0))  # 0-d: arrays out
    assert type(gx) is np.ndarray and gx == 8.0 and gy == 6.0
    gx, gy = runtime.unmul(g, x, y[:1])  # broadcast: summed down
    assert gy.shape == (1, 2) and np.allclose(gy, np.sum(g * x, axis=0, keepdims=True))
    assert np.array_equal(runtime.add(x, y), x + y)
    assert runtime.add([x], [y])[0].shape == (3, 2)


def test_generic_build_through_the_fast_paths_is_right(tmp_path):
    m = load_module(tmp_path, SOURCE)
    rng = np.random.default_rng(2)
    args = [1.0 + rng.random(5), rng.standard_normal(4)]
    df = tl.grad(m.chain, wrt=(0, 1), checks=True)  # debug mode runs the generic build
    grads = df(*args)
    assert "add_item(None, t," in df.source and "unmul(" in df.source  # the paths ran
    for i in range(2):
        check_against_fd(m.chain, grads[i], args, i, rtol=1e-5)
        assert np.allclose(grads[i], autograd_grad(m.chain, args, i), rtol=1e-10)
