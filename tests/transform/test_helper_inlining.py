"""Helpers that change a parameter in place are inlined at their calls (issue 13).

The reverse-mode gradients of corpus.in_place_helpers are checked by
test_in_place_updates.py with corpus.in_place's own cases; here: forward mode on the
same programs (right, never wrong), helpers of another file (inlined, located at their
call), and which helpers are not inlined (recursion, a checkpoint), whose calls stay
refused where the caller reads the argument afterwards.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import in_place_helpers as c
from reference import directional_fd, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _id(case):
    return f"{case[0].__name__}-{c.CASES.index(case)}"


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_forward_mode_matches_finite_differences(case):
    f, make, wrt, _ = case
    args = make()
    for i in wrt:
        t = np.random.RandomState(3).randn(*np.shape(args[i]))
        t = float(t) if isinstance(args[i], float) else t
        changed = _copies(args)
        value, tangent = tl.jvp(f, wrt=i)(*changed, t)
        expected = directional_fd(lambda *a: f(*_copies(a)), _copies(args), i, t)
        np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(value, f(*_copies(args)), rtol=1e-12)
        caller = _copies(args)
        f(*caller)
        for a, b in zip(changed, caller, strict=True):  # what f changes, jvp changes
            np.testing.assert_array_equal(a, b)


def test_the_helper_is_inlined():
    source = tl.grad(c.alias_inside_the_helper, wrt=1).source
    assert "scale_alias" not in source.split("# --- tangentlike runtime helpers ---")[0]
    assert "z2 *= SCALE" in source  # the helper's lines, as comments of its statements


HELPER = """
import numpy as np


def bump(v):
    v += 1.0
    return v


def spread(v, w):
    v[0] = w[0] * 2.0
    v *= np.sin(w)
    return np.sum(v)
"""

CALLER = """
import numpy as np
from {name} import bump, spread

G = np.array([1.0, 2.0])


def helper_elsewhere(x):
    y = x * 1.0
    z = bump(y)
    return np.sum(y * z)


def local_bump(v):
    v += 1.0
    return v


def into_a_global(x):
    s = local_bump(G)
    return np.sum(s * x)


def spread_elsewhere(x):
    out = np.zeros(2)
    s = spread(out, x)
    return s + np.sum(out * x)


def elsewhere_into_a_global(x):
    t = x * 2.0
    s = bump(G)
    return np.sum(s * t)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    where = tmp_path_factory.mktemp("helper_inlining")
    load_module(where, HELPER, "tl_inlined_helper")
    return load_module(where, CALLER.format(name="tl_inlined_helper"))


def test_a_helper_of_another_file_is_inlined(m):
    """`z = bump(y)` with bump imported: y is z, both y + 1, so d/dx sum(y * z) = 2(x + 1)."""
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(tl.grad(m.helper_elsewhere)(x), 2.0 * (x + 1.0))
    value, tangent = tl.jvp(m.helper_elsewhere)(x, np.array([1.0, 0.0]))
    np.testing.assert_allclose(value, np.sum((x + 1.0) ** 2))
    np.testing.assert_allclose(tangent, 2.0 * (x[0] + 1.0))
    source = tl.grad(m.helper_elsewhere).source.split("# --- tangentlike runtime helpers ---")[0]
    assert "bump(" not in source.replace("z = bump(y)", "")  # only the comment names it


def test_a_helper_of_another_file_writing_into_an_array(m):
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(
        tl.grad(m.spread_elsewhere)(x), fd_gradient(m.spread_elsewhere, [x], 0)
    )
    source = tl.grad(m.spread_elsewhere).source
    assert "s = spread(out, x)" in source  # the inlined statements carry the call's line


def test_a_refusal_inside_a_helper_of_another_file_is_located_at_its_call(m):
    """The helper's own lines are in another file: the caller's call line is shown."""
    with pytest.raises((CheckError, UnsupportedSyntaxError)) as err:
        tl.grad(m.elsewhere_into_a_global)(np.array([0.5, -1.0]))
    where = err.value.location
    assert where.filename == m.__file__ and where.text.strip() == "s = bump(G)", where


def test_an_inlined_update_of_a_global_is_refused_at_the_helpers_line(m):
    with pytest.raises((CheckError, UnsupportedSyntaxError)) as err:
        tl.grad(m.into_a_global)(np.array([0.5, -1.0]))
    message = str(err.value)
    assert "v += 1.0" in message and "'G'" in message, message


def _many(n: int) -> str:
    lines = [f"    y{k} = x * {k + 1}.0\n    s{k} = local_bump(y{k})\n" for k in range(n)]
    total = " + ".join(f"np.sum(y{k} * s{k})" for k in range(n))
    return f"def many_{n}(x):\n{''.join(lines)}    return {total}\n"


def test_at_most_max_inlined_calls_per_function(tmp_path):
    """Beyond the budget calls stay calls: refused where the argument is read afterwards."""
    from tangentlike.normalize.helper_calls import MAX_INLINED

    source = CALLER.format(name="tl_inlined_helper_2") + "\n\n" + _many(MAX_INLINED)
    source += "\n\n" + _many(MAX_INLINED + 1)
    load_module(tmp_path, HELPER, "tl_inlined_helper_2")
    module = load_module(tmp_path, source)
    x = np.array([0.5, -1.0])
    within = getattr(module, f"many_{MAX_INLINED}")
    expected = sum(2.0 * (x * (k + 1) + 1.0) * (k + 1) for k in range(MAX_INLINED))
    np.testing.assert_allclose(tl.grad(within)(x), expected)
    beyond = getattr(module, f"many_{MAX_INLINED + 1}")
    with pytest.raises(CheckError, match=rf"local_bump\(y{MAX_INLINED}\) changes its parameter"):
        tl.grad(beyond)(x)


def test_a_helper_writing_a_differentiated_value_into_an_array(tmp_path):
    """Its result unused, the call was refused; inlined, the write is the caller's own."""
    module = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef writer(out, v):\n    out[0] = np.sum(v)\n    return 0\n\n\n"
        "def f(x):\n    out = np.zeros(3)\n    writer(out, x)\n    return np.sum(out * out)\n",
    )
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(tl.grad(module.f)(x), 2.0 * np.sum(x) * np.ones(3))
    np.testing.assert_allclose(tl.grad(module.f)(x), fd_gradient(module.f, [x], 0), rtol=1e-6)
    _, tangent = tl.jvp(module.f)(x, np.ones(3))
    np.testing.assert_allclose(tangent, 2.0 * np.sum(x) * 3.0)
