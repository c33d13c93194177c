"""The inner part of a vector's undiff (optimize/differences.py), asserted as source: a
recorded undiff read once as `b[1:-1]` becomes `g[:-1] - g[1:]`; kept when it is not
recorded, read otherwise, or g changes first. End to end: a chain with fixed ends (the
ode_euler workload's stretch) agrees with central differences and autograd, and its
concatenation is no longer saved at every step."""

from __future__ import annotations

import gast
import numpy as np
from reference import autograd_grad, check_against_fd
from stages import body, code

import tangentlike as tl
from tangentlike.optimize import differences

PAIR = """
def df(g, a, bq):
    b = undiff(g, a, 1, -1)
    s = 2.0
    bq = bq + b[1:-1]
    return bq
"""


def _run(source: str, recorded: bool = True) -> str:
    fn = gast.parse(code(source)).body[0]
    calls = [n for n in gast.walk(fn) if isinstance(n, gast.Call)]
    vector = {id(c) for c in calls if recorded and c.func.id == "undiff"}
    return body(differences.run(fn, vector))


def test_the_inner_part_of_a_vector_undiff_is_a_difference():
    assert _run(PAIR) == code(
        """
        s = 2.0
        bq = bq + (g[:-1] - g[1:])
        return bq
        """
    )


def test_other_reads_keep_the_undiff():
    assert "undiff" in _run(PAIR, recorded=False)  # a not known to be a vector
    assert "undiff" in _run(PAIR.replace("    return bq", "    return bq + b"))
    assert "undiff" in _run(PAIR.replace("b[1:-1]", "b[1:]"))
    assert "undiff" in _run(PAIR.replace("    s = 2.0", "    g *= 2.0"))  # g changes
    looped = PAIR.replace("    bq = bq + b[1:-1]", "    for i in s:\n        bq = bq + b[1:-1]")
    assert "undiff" in _run(looped)


def chain(k, q, steps):
    for _ in range(steps):
        stretch = np.diff(np.concatenate(([0.0], q, [0.0])))
        tension = k * stretch
        q = q + 0.1 * (tension[1:] - tension[:-1])
    return np.sum(q * q)


def test_a_chain_with_fixed_ends_is_right():
    rng = np.random.default_rng(8)
    args = (1.0 + rng.random(5), rng.standard_normal(4), 3)
    df = tl.grad(chain, wrt=(0, 1), checks=False)  # debug mode checks the generic build only
    g = df(*args)
    (source,) = df.specialised.values()
    assert "undiff" not in source.split("# --- tangentlike runtime helpers ---")[0]
    assert "(bstretch[:-1] - bstretch[1:])" in source and "_push(_stretch3)" not in source
    for checks in (False, None):
        g = tl.grad(chain, wrt=(0, 1), checks=checks)(*args)
        for i in (0, 1):
            check_against_fd(chain, g[i], args, i)
            np.testing.assert_allclose(g[i], autograd_grad(chain, args, i), rtol=1e-10)
    generic = tl.grad(chain, wrt=(0, 1))(args[0], args[1], np.int64(3))
    for i in (0, 1):
        np.testing.assert_allclose(generic[i], g[i], rtol=1e-12)


def test_the_forward_difference_of_a_vector_is_two_slices():
    rng = np.random.default_rng(9)
    args = (1.0 + rng.random(5), rng.standard_normal(4), 3)
    df = tl.grad(chain, wrt=(0, 1), checks=False)
    df(*args)
    source = _code(df.specialised[("k[N]", "q[N]", "steps")])
    assert "np.diff(" not in source
    assert "stretch = _stretch3[1:] - _stretch3[:-1]" in source
    assert "np.diff(" in _code(df.source)  # the generic build: the shapes are not known


def _code(text: str) -> str:
    """The generated entry function's code, without comments."""
    return "\n".join(line.split("#")[0].rstrip() for line in text.split("\ndef d")[-1].splitlines())


def rows_differenced(a):
    return np.sum(np.sin(np.diff(a * 2.0)))


def test_a_matrix_difference_keeps_np_diff():
    a = np.random.default_rng(10).standard_normal((3, 4))
    df = tl.grad(rows_differenced, checks=False)
    g = df(a)
    assert "np.diff(" in _code(df.specialised[("a[NN]",)])
    check_against_fd(rows_differenced, g, (a,), 0)
    np.testing.assert_allclose(g, autograd_grad(rows_differenced, (a,), 0), rtol=1e-10)
