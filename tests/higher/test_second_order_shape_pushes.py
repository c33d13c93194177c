"""Second order where the gradient pushes a name sharing an array it then writes, and
reads the popped value back for its shape only (hvp fuzz seed 12 programs 26, 43, 56,
65, 69, 270, reduced): rows of an array updated in a loop (`for r in a: r *= 1.5`, whose
gradient pushes `iterable(a)`, a itself, and pops it into `add_item(b, _seq1, i, g)`),
an alias updated and pushed before the base is updated again, a view updated in a loop.

The chain held the array when the form wrote into it, and the second pass refused the
write. The form now pushes a stand-in of the same shape (higher/form_shapes.py) where
every read of the popped value is a shape read. Each case: Hessian-vector products
(forward over reverse, reverse over reverse) and grad of grad against autograd (on a
twin written out of place) and central differences of the gradient. A near miss, whose
popped view is read for its values after its base is restored, stays refused with the
user's line.
"""

from __future__ import annotations

import ast

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.errors import TangentlikeError
from tangentlike.higher.form_shapes import pushes_for_shape

SOURCE = """
import numpy as np


def f_rows_updated_in_a_loop(y):
    a = np.outer(y, y)
    for r in a:
        r *= 1.5
    return np.sum(np.sin(a))


def twin_rows_updated_in_a_loop(y):
    a = np.outer(y, y) * 1.5
    return np.sum(np.sin(a))


def f_alias_updated_before_a_loop(y):
    v = y * 1.0
    z = v
    z *= 0.7 * v
    for i, e in enumerate(z):
        if np.sum(y) < 100.0:
            break
        z = z + v
    z += v
    return np.sum(v) + np.mean(np.sin(z))


def twin_alias_updated_before_a_loop(y):
    v = y * 1.0
    v = v * (0.7 * v)
    v = v + v
    return np.sum(v) + np.mean(np.sin(v))


def f_view_updated_in_a_loop(y):
    for k in range(3):
        if np.sum(y) > -100.0:
            z = y[3:4]
            z -= z / -1.1
    return np.mean(np.sin(y)) + np.sum(y ** 3)


def twin_view_updated_in_a_loop(y):
    z = y[3:4]
    for k in range(3):
        z = z - z / -1.1
    y = np.concatenate([y[:3], z])
    return np.mean(np.sin(y)) + np.sum(y ** 3)
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINT = np.array([0.5, -0.7, 0.9, 1.1])
V = np.array([0.3, 1.1, -0.7, 0.4])

NEAR_MISS = """
import numpy as np


def f_view_read_after_its_base_is_restored(y):
    a = y * 1.0
    for i in range(2):
        a *= np.minimum(-1.0, y[0])
    z = a.reshape(2, 2)
    z *= z ** 2
    a *= z[1, 1]
    return np.sum(a ** 2) + np.sum(z ** 2)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("shapes"), SOURCE, name="tl_second_shapes")


def _expected(m, case):
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(POINT)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_where_a_pushed_name_shares_an_array_written_afterwards(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method, checks=False)(POINT.copy(), V)
    assert np.allclose(hv, _expected(m, case), rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, fd_hvp(lambda y: f(y.copy()), POINT, V), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", NAMES)
def test_grad_of_grad_where_a_pushed_name_shares_an_array_written_afterwards(m, case):
    f = getattr(m, case)
    g = tl.grad(f, checks=False)
    gg = tl.grad(lambda y: np.sum(g(y) * V), checks=False)(POINT.copy())
    assert np.allclose(gg, _expected(m, case), rtol=1e-7, atol=1e-9)


def test_a_view_read_for_its_values_after_a_restore_is_still_refused(tmp_path):
    m = load_module(tmp_path, NEAR_MISS, name="tl_second_shapes_refused")
    with pytest.raises(TangentlikeError) as info:
        tl.hvp(m.f_view_read_after_its_base_is_restored, checks=False)(POINT.copy(), V)
    message = str(info.value)
    assert "tl_second_shapes_refused.py:11:5: " in message
    assert "    a *= z[1, 1]\n" in message  # the user's line, shown


FORM = """
def df(x, bf=1.0):
    _stack = None
    z = x
    _stack = (z, _stack)
    z = x * 2.0
    w = x
    _stack = (w, _stack)
    w = x + 1.0
    x[0] = 1.0
    w = _stack[0]
    _stack = _stack[1]
    bw = unbroadcast(bf, w)
    z = _stack[0]
    _stack = _stack[1]
    bz = unbroadcast(bf * z, z)
    return bz + bw
"""


def test_only_names_read_back_for_their_shape_are_pushed_as_stand_ins():
    fn = ast.parse(FORM).body[0]
    external = {"unbroadcast": runtime.unbroadcast}
    pushes_for_shape(fn, external)
    text = ast.unparse(fn)
    assert "_stack = (shape_kept(w), _stack)" in text  # read by unbroadcast(g, w) only
    assert "_stack = (z, _stack)" in text  # read for its values: `bf * z`
    assert external["shape_kept"] is runtime.shape_kept


LOOP = """
def df(x, bf=1.0):
    _stack = None
    w = x
    _stack = (w, _stack)
    w = x + 1.0
    x[0] = 1.0
    b = bf
    for _k in range(2):
        b = b * w
        w = _stack[0]
        _stack = _stack[1]
        b = unbroadcast(b, w)
    return b
"""


@pytest.mark.parametrize(("read", "kept"), [("b * w", False), ("b * 2.0", True)])
def test_a_pop_read_for_its_values_in_the_next_round_keeps_its_push(read, kept):
    fn = ast.parse(LOOP.replace("b * w", read)).body[0]
    pushes_for_shape(fn, {"unbroadcast": runtime.unbroadcast})
    text = ast.unparse(fn)
    assert ("_stack = (shape_kept(w), _stack)" in text) is kept
    assert ("_stack = (w, _stack)" in text) is not kept


def test_shape_kept_stands_for_an_array_or_a_number_by_its_type_shape_and_dtype():
    a = np.arange(6.0).reshape(2, 3).T
    kept = runtime.shape_kept(a)
    assert type(kept) is np.ndarray and kept.shape == (3, 2) and kept.dtype == a.dtype
    assert not np.may_share_memory(kept, a) and not kept.any()
    assert [runtime.shape_kept(v) for v in (1.5, 2, True)] == [0.0, 0, False]
    assert type(runtime.shape_kept(np.float32(2.0))) is np.float32
    items = [a, 1.5]  # a list (or dict) could change length in place: kept as it is
    assert runtime.shape_kept(items) is items
    masked = np.ma.masked_array([1.0])  # not an ndarray itself: kept as it is
    assert runtime.shape_kept(masked) is masked
