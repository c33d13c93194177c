"""Updates through views and aliases (issue 13) in forward mode, and the shape of the code
the reverse mode writes for them: the in-place corpus (tests/corpus/in_place.py, whose
reverse-mode gradients test_in_place_updates.py checks) against central differences along
a direction, each evaluation on fresh copies of the arguments the function changes.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from corpus import in_place as c

import tangentlike as tl


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _id(case):
    return f"{case[0].__name__}-{c.CASES.index(case)}"


def _direction(arg, seed):
    if isinstance(arg, float):
        return 0.37 + seed
    return np.random.RandomState(seed).standard_normal(np.shape(arg))


def _fd_along(f, args, i, t, eps=1e-6):
    up, down = _copies(args), _copies(args)
    up[i] = up[i] + eps * t
    down[i] = down[i] - eps * t
    return (f(*_copies(up)) - f(*_copies(down))) / (2 * eps)


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_forward_mode_matches_central_differences(case):
    f, make, wrt, _ = case
    args = make()
    if not all(isinstance(args[i], (float, np.ndarray)) for i in wrt):
        pytest.skip("an integer argument")
    for i in wrt:
        t = _direction(args[i], i)
        given, changed = _copies(args), _copies(args)
        value, tangent = tl.jvp(f, wrt=i)(*given, t)
        np.testing.assert_allclose(value, f(*changed), rtol=1e-12)
        for a, b in zip(given, changed, strict=True):  # changed as f changes them
            np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(tangent, _fd_along(f, args, i, t), rtol=1e-5, atol=1e-6)


def test_a_transpose_update_is_written_back_into_its_base():
    source = tl.grad(c.transposed).source
    assert re.search(r"_shares\d* = same_memory\(Z, Y\)", source), source
    assert re.search(r"Y\[\.\.\.\] = _Y\d", source), source


def test_a_reshape_that_copies_leaves_its_base_alone():
    X = np.random.RandomState(0).randn(3, 2)
    Y = (X * 1.0).T
    assert not np.shares_memory(Y.reshape(-1), Y)  # the case the corpus function meets
    expected = 2 * X + 4 * X  # d/dX [sum(X*X) + sum(2 X.T.ravel() * X.T.ravel())]
    np.testing.assert_allclose(tl.grad(c.reshape_that_copies)(X), expected, rtol=1e-12)


def test_other_views_of_the_base_are_made_again():
    source = tl.grad(c.views_of_one_base, wrt=(0, 1)).source
    for again in ("r = np.reshape(Y, -1)", "a = Y", "row = Y[1, :]"):
        assert again in source, source
