"""Writes into arrays (y[i] = v, y[:, j] = v, y[mask] = v, y[i] += v) against finite differences.

autograd cannot differentiate in-place writes, so central differences are the reference.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import writes
from reference import fd_gradient

import tangentlike as tl

R = np.random.RandomState(0)
CASES = [
    (writes.fill, (R.randn(4, 3), R.randn(3)), (0, 1)),
    (writes.column, (R.randn(3, 3), R.randn(3)), (0, 1)),
    (writes.masked, (R.randn(5),), (0,)),
    (writes.rnn_buffer, (R.randn(3, 3) * 0.5, R.randn(3), 4), (0, 1)),
    (writes.overwrite_twice, (R.randn(3),), (0,)),
    (writes.fancy, (R.randn(4), R.randn(2)), (0, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_writes_match_finite_differences(case):
    f, args, wrt = case
    grads = tl.grad(f, wrt=wrt)(*args)
    for i, g in zip(wrt, grads, strict=True):
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_arrays_are_restored_and_values_kept(case):
    f, args, wrt = case
    value, _ = tl.value_and_grad(f, wrt=wrt)(*args)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)


def test_repeated_indices_in_a_write_are_refused(tmp_path):
    from reference import load_module

    module = load_module(
        tmp_path,
        "import numpy as np\n\ndef f(x, v):\n    y = x * 1.0\n"
        "    y[np.array([1, 1])] = v\n    return np.sum(y)\n",
    )
    with pytest.raises(ValueError, match="repeated indices"):
        tl.grad(module.f, wrt=1)(np.ones(3), np.ones(2))


def test_float32_writes_keep_float32():
    x, w = (np.asarray(a, dtype=np.float32) for a in (R.randn(4, 3), R.randn(3)))
    gx, gw = tl.grad(writes.fill, wrt=(0, 1))(x, w)
    assert gx.dtype == np.float32 and gw.dtype == np.float32
    ref = tl.grad(writes.fill, wrt=(0, 1))(x.astype(float), w.astype(float))
    np.testing.assert_allclose(gx, ref[0], rtol=1e-3, atol=1e-4)
