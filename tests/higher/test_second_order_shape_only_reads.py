"""Second order where the gradient writes an array that other names share, but reads
those names afterwards for their shape, their memory layout or their length only (hvp
fuzz seed 12, reduced: #67, #291 and the holdout's row of a transpose).

The generated gradient hands such names to its own helpers: `add_item(b, x, k, g)`,
`unsubscript(g, x, k)`, `part(b, k, like)`, `unadd(g, x, y)`, `unconcatenate_index(g,
c, (x, y))`, `same_view(x, base, ...)`, `shape_kept(x)` read x for its type, shape,
dtype or address. A write into an array's values leaves all that alone
(analyze/shape_reads.py), so the second pass no longer asks at run time that those
names share nothing with the array written.

Each lifted case: Hessian-vector products (forward over reverse, reverse over reverse)
against autograd on a twin written out of place and central differences of the
gradient. A name read afterwards for its values is still refused, with the user's line
and names (not the gradient's `A[0] = _A3`).
"""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_gradient, fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def f_row_of_a_transpose_updated(y):
    Y = np.outer(y, np.ones(3))
    Yt = Y.T
    Yt[0] += y
    r = Y.reshape(-1)
    r[1] = y[0] * y[1]
    return np.sum(Y ** 2)


def twin_row_of_a_transpose_updated(y):
    Y = np.outer(y, np.ones(3))
    Y = np.stack([Y[:, 0] + y, Y[:, 1], Y[:, 2]], axis=1)
    top = np.stack([Y[0, 0], y[0] * y[1], Y[0, 2]])
    Y = np.concatenate([top[None, :], Y[1:]], axis=0)
    return np.sum(Y ** 2)


def f_rows_updated_in_a_loop(y):
    A = np.outer(y, y[:2])
    for r in A:
        r += np.sin(y[0])
    return np.sum(np.sin(A))


def twin_rows_updated_in_a_loop(y):
    A = np.outer(y, y[:2]) + np.sin(y[0])
    return np.sum(np.sin(A))
"""
NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINT = np.array([0.5, -0.7, 0.9, 1.1])
V = np.array([0.3, 1.1, -0.7, 0.4])

STILL_REFUSED = """
import numpy as np


def f_row_read_after_the_loop(y):
    A = np.outer(y, y[:2])
    for r in A:
        r += np.sin(y[0])
    A[0] *= 2.0
    return np.sum(np.sin(A)) + np.sum(r ** 2)
"""


RESTORED_IN_A_HELPER = """
import numpy as np


def fill(P):
    A = np.zeros_like(P)
    for i in range(P.shape[0]):
        A[i] = np.sum(P - P[i], axis=0) * P[i]
    return A


def f_rows_filled_in_a_helper(pos):
    P = pos.reshape(3, 2)
    return np.sum(fill(P) ** 2)
"""


SAVED_VALUE_SHARES = """
import numpy as np


def f_saved_value_shares(x, y):
    y *= np.cos(y)
    z1 = y
    z1 += np.sum(z1 / 1000.0)
    v1 = (2.0 * y - z1)[0:3]
    y = 0.5 * y + np.tanh(v1[0])
    z1 -= x
    return np.sum(y) * np.sum(v1) * np.sum(z1)
"""


ITEM_IN_A_ZIP = """
import numpy as np


def f_item_updated_in_a_zip(y):
    L1 = [2.0 ** e for e in y]
    v = y * 1.0
    for e2, e3 in zip(y, np.clip(y, -1.0, 1.0)):
        v[:] = y
        if np.sum(v) > -100.0:
            e2 *= -2
    else:
        y *= np.cos(v[::-1])
    return np.sum(v) + 2.0 * sum(L1) + np.sum(y ** 2)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("shape_only"), SOURCE, name="tl_second_shape_only")


def _expected(m, case):
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(POINT)


@pytest.mark.parametrize("case", NAMES)
def test_the_gradient_is_right(m, case):
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    given = tl.grad(getattr(m, case))(POINT.copy())
    assert np.allclose(given, autograd.grad(twin)(POINT), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_where_shared_names_are_read_for_their_shape(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method)(POINT.copy(), V)
    assert np.allclose(hv, _expected(m, case), rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, fd_hvp(lambda y: f(y.copy()), POINT, V), rtol=1e-4, atol=1e-6)


def test_a_row_read_for_its_values_is_still_refused_in_the_users_words(tmp_path):
    m = load_module(tmp_path, STILL_REFUSED, name="tl_second_shape_only_refused")
    assert np.all(np.isfinite(tl.grad(m.f_row_read_after_the_loop)(POINT.copy())))
    with pytest.raises(TangentlikeError) as info:
        tl.hvp(m.f_row_read_after_the_loop)(POINT.copy(), V)
    message = str(info.value)
    assert "tl_second_shape_only_refused.py:9:5: `A[0] *= 2.0` changes 'A' in place" in message
    assert "'r' (read afterwards) shares its memory" in message
    assert "_A" not in message.split("\n")[0]  # no generated temporary (`A[0] = _A3`)


def test_a_helpers_array_restored_from_the_saved_values_is_refused_saying_why(tmp_path):
    """The helper's gradient restores the rows of A from what it saved, among which is P,
    a view of the caller's 'pos'; the second pass cannot tell A from P there (the split
    helper's saved tuple is read back whole). The refusal says so, on the user's line,
    instead of calling A (made by np.zeros_like) a view of 'pos'."""
    m = load_module(tmp_path, RESTORED_IN_A_HELPER, name="tl_second_shape_only_helper")
    x = np.linspace(0.3, 1.4, 6)
    assert np.allclose(
        tl.grad(m.f_rows_filled_in_a_helper)(x.copy()),
        fd_gradient(m.f_rows_filled_in_a_helper, [x], 0),
    )
    with pytest.raises(TangentlikeError) as info:
        tl.hvp(m.f_rows_filled_in_a_helper)(x.copy(), np.ones(6))
    first = str(info.value).split("\n")[0]
    assert "tl_second_shape_only_helper.py:8:9: writing into 'A' (in the gradient of fill)" in first
    assert "may change the caller's array 'pos'" in first
    assert "read back from what the gradient saved for its backward sweep" in first
    assert "may be a view of that argument" not in first
    assert "_stack" not in first
    assert "\n    A[i] = np.sum(P - P[i], axis=0) * P[i]\n" in str(info.value)


def test_a_saved_value_sharing_the_written_array_is_named_in_the_users_words(tmp_path):
    """The gradient's copy of the argument y, written by `z1 -= x`, is also what the
    gradient saved (its pushes of z1): the refusal names y and the saved values, not the
    form's `_y_own1[...] = _z12`, `_pushed7 = None` (hvp seed 12 #247, reduced)."""
    m = load_module(tmp_path, SAVED_VALUE_SHARES, name="tl_second_shape_only_saved")
    f, x, y = m.f_saved_value_shares, 0.7, POINT.copy()
    _, gy = tl.grad(f, wrt=("x", "y"))(x, y.copy())
    assert np.allclose(gy, fd_gradient(lambda y: f(x, y.copy()), [y], 0), rtol=1e-6)
    with pytest.raises(TangentlikeError) as info:
        tl.hvp(f, wrt=("x", "y"))(x, y.copy(), (0.3, V))
    first = str(info.value).split("\n")[0]
    assert (
        "tl_second_shape_only_saved.py:11:5: `z1 -= x` changes 'y' (the gradient's copy of "
        "that argument) in place, and what the gradient saved for its backward sweep (read "
        "afterwards) shares its memory" in first
    )
    assert "_pushed" not in first and "_own" not in first and "None" not in first


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_names_the_run_time_checks_read_are_not_read_for_their_values(tmp_path, method):
    """The write of `e2 *= -2` into y is lowered where the names sharing y are read
    afterwards for their shape only, and checked again once lowered: the lowering's own
    run-time checks (`same_memory(_seq1, y)`, `kept_apart`, `untouched`) read what memory
    a name holds, not its values, and must not make the check refuse what the lowering
    followed (hvp seed 12 #73, reduced: refused with the first shape-only reads alone)."""
    m = load_module(tmp_path, ITEM_IN_A_ZIP, name="tl_second_shape_only_zip")
    f = m.f_item_updated_in_a_zip
    assert np.allclose(tl.grad(f)(POINT.copy()), fd_gradient(lambda y: f(y.copy()), [POINT], 0))
    hv = tl.hvp(f, method=method)(POINT.copy(), V)
    assert np.allclose(hv, fd_hvp(lambda y: f(y.copy()), POINT, V), rtol=1e-4, atol=1e-6)
