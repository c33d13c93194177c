"""Second order where the gradient writes memory that other names share (hvp fuzz seed 12's
biggest refusal group, reduced): a view updated twice (`z = y[2:4]; z += ...; z /= ...`,
or a reshape of y), a view of a view updated in a branch, an alias updated and then its
base. The generated gradient restores y in place and reads the views again; the second
pass used to refuse, for four reasons the analysis now sees through:

- a name read after the write for its shape only (`unbroadcast(g, z)`, `np.shape(z)`,
  `spread(g, z)`) sees nothing of a write into an array (analyze/shape_reads.py);
- a reshape of y on one path and a new array on the other stays a reshape of y (asked
  at run time), not "the same" as the new array (analyze/joins.py);
- a saved view made again after a write into its base is a new object of the same
  memory: the pop checks the key its push saved, which nothing rebinds, and binds the
  saved name (higher/form_pairs.py);
- a write into a name "the same" as its base on one path only goes into that name's
  own array on the other path, not into a copy it is then bound to (its object, which
  the pops check, is kept: transform/in_place.py `alone`).

Each case: Hessian-vector products (forward over reverse, reverse over reverse) and
grad of grad against autograd (on a twin written out of place) and central differences
of the gradient; what is still refused is refused with the user's line.
"""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def f_slice_updated_twice(y):
    z = y[2:4]
    z += 0.3 * z
    z /= z ** 2 + 1.0
    return np.sum(y ** 2) + np.sum(z ** 2)


def twin_slice_updated_twice(y):
    z = y[2:4] + 0.3 * y[2:4]
    z = z / (z ** 2 + 1.0)
    y = np.concatenate([y[:2], z])
    return np.sum(y ** 2) + np.sum(z ** 2)


def f_reshape_updated_twice(y):
    z = y.reshape(2, 2)
    z += 0.3
    z += z ** 2
    return np.mean(np.sin(y))


def twin_reshape_updated_twice(y):
    z = y.reshape(2, 2) + 0.3
    z = z + z ** 2
    y = z.reshape(4)
    return np.mean(np.sin(y))


def f_reshape_of_a_value_updated_twice(y):
    y = y * 0.8
    z = y.reshape(2, 2)
    z += 0.3
    z += z ** 2
    return np.mean(np.sin(y)) + np.sum(z)


def twin_reshape_of_a_value_updated_twice(y):
    y = y * 0.8
    z = y.reshape(2, 2) + 0.3
    z = z + z ** 2
    y = z.reshape(4)
    return np.mean(np.sin(y)) + np.sum(z)


def f_view_of_a_view_in_a_branch(y):
    z = y[2:4]
    z += 0.3
    if np.sum(y) > -100.0:
        w = z[1:2]
        w += z[::2] - np.max(z)
    return np.sum(y ** 2) + np.sum(z ** 2)


def twin_view_of_a_view_in_a_branch(y):
    z = y[2:4] + 0.3
    w = z[1:2] + (z[::2] - np.max(z))
    z = np.concatenate([z[:1], w])
    y = np.concatenate([y[:2], z])
    return np.sum(y ** 2) + np.sum(z ** 2)


def f_alias_then_base_updated(y):
    z = y
    z += 0.3
    y += y
    return np.mean(np.sin(y)) + np.sum(z ** 2)


def twin_alias_then_base_updated(y):
    y = y + 0.3
    y = y + y
    return np.mean(np.sin(y)) + np.sum(y ** 2)
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINT = np.array([0.5, -0.7, 0.9, 1.1])
V = np.array([0.3, 1.1, -0.7, 0.4])

STILL_REFUSED = """
import numpy as np


def f_alias_updated_in_a_loop(y):
    v = np.tanh(y)
    for i in range(2):
        z = v
        z -= z * 1.21
        v += 0.3
    return np.sum(v ** 2)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("shared"), SOURCE, name="tl_second_shared")


def _expected(m, case):
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    return autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * V))(POINT)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_where_the_gradient_writes_shared_memory(m, case, method):
    f = getattr(m, case)
    given = POINT.copy()
    # the specialised build (checks=False): in debug mode the generic gradient's form of
    # f_view_of_a_view_in_a_branch is refused where it runs, located (a CheckError)
    hv = tl.hvp(f, method=method, checks=False)(given, V)
    assert np.allclose(hv, _expected(m, case), rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, fd_hvp(lambda y: f(y.copy()), POINT, V), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", NAMES)
def test_grad_of_grad_where_the_gradient_writes_shared_memory(m, case):
    f = getattr(m, case)
    g = tl.grad(f, checks=False)  # the specialised build, as above
    gg = tl.grad(lambda y: np.sum(g(y) * V), checks=False)(POINT.copy())
    assert np.allclose(gg, _expected(m, case), rtol=1e-7, atol=1e-9)


def test_an_alias_updated_in_a_loop_is_still_refused_with_its_line(tmp_path):
    m = load_module(tmp_path, STILL_REFUSED, name="tl_second_shared_refused")
    with pytest.raises(TangentlikeError) as info:
        tl.hvp(m.f_alias_updated_in_a_loop)(POINT.copy(), V)
    message = str(info.value)
    # (refused when built, or, with the stack's entries known, where it runs)
    assert "tl_second_shared_refused.py:9:9: " in message
    assert "    z -= z * 1.21\n" in message  # the user's line, shown
