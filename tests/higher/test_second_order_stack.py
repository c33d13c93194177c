"""Second order where a name the gradient pushes and pops outside its loops is pushed and
popped inside them too: the differentiable form pairs the pops outside loops with the
pushes outside loops (checked at run time, higher/form_pairs.py), so the values saved
there (an argument's array, an entry copy) no longer count as what every pop in a loop
may return. Hessian-vector products against autograd (on a twin written without item
writes) and against central differences of the gradient; the rewrite on a small text;
and, where the second pass still cannot show that the gradient's saved values share no
memory with an array it updates, a refusal in the user's words (parse/form_words.py)."""

from __future__ import annotations

import ast

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.analyze import memory
from tangentlike.higher.form_pairs import pops_paired

SOURCE = """
import numpy as np


def f_rebound_in_a_loop(x):
    v = np.array([x[1], x[0]])
    v[0] = x[0] * x[2]
    v = 0.5 * v + np.tanh(x[:2])
    for e in x:
        v += 0.5 * e
    return np.sum(v ** 2) * x[0]


def twin_rebound_in_a_loop(x):
    v = np.array([x[0] * x[2], x[0]])
    v = 0.5 * v + np.tanh(x[:2])
    for e in x:
        v = v + 0.5 * e
    return np.sum(v ** 2) * x[0]


def f_scaled_in_a_loop(x):
    v = np.array([x[2], x[1]])
    v[1] = x[0] ** 2
    v = v * x[1] + np.cos(x[1:])
    for k in range(3):
        v += x[k] * v[0]
    return np.sum(v ** 2)


def twin_scaled_in_a_loop(x):
    v = np.array([x[2], x[0] ** 2])
    v = v * x[1] + np.cos(x[1:])
    for k in range(3):
        v = v + x[k] * v[0]
    return np.sum(v ** 2)
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINTS = [np.array([0.6, -0.4, 0.9]), np.array([-0.7, 0.5, 1.2])]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("stack10"), SOURCE, name="tl_second_stack")


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_where_a_name_is_pushed_in_and_out_of_loops(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    v = np.array([0.3, 1.1, -0.7])
    hv = tl.hvp(f, method=method)(x, v)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", NAMES)
def test_hessian_where_a_name_is_pushed_in_and_out_of_loops(m, case):
    f, x = getattr(m, case), POINTS[0]
    twin = autograd_version(getattr(m, case.replace("f_", "twin_")))
    assert np.allclose(tl.hessian(f)(x), autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)


OUTSIDE_AND_IN = """
def df(x):
    _stack = None
    v = x
    _stack = (v, _stack)
    v = x * 2.0
    for i in range(2):
        _stack = (v, _stack)
        v = v * 3.0
    for i in range(2):
        v = _stack[0]
        _stack = _stack[1]
    v = _stack[0]
    _stack = _stack[1]
    return v
"""


def test_pops_outside_loops_pair_with_pushes_outside_loops_only():
    fn = ast.parse(OUTSIDE_AND_IN).body[0]
    pops_paired(fn, {})
    text = ast.unparse(fn)
    assert "_pushed1 = v\n    _stack = (pushed(v), _stack)" in text
    assert "        _stack = (v, _stack)\n" in text  # the loop's push stays as it was
    assert "        v = _stack[0]\n" in text  # and so does the loop's pop
    assert (
        "if _stack[0] is _pushed1:\n        v = _pushed1\n"
        "    elif same_pushed(_stack[0], _pushed1):\n        v = _pushed1\n    else:\n        raise"
    ) in text


def test_the_paired_form_computes_what_the_plain_one_does():
    plain: dict = {}
    exec(OUTSIDE_AND_IN, plain)
    fn = ast.parse(OUTSIDE_AND_IN).body[0]
    external: dict = {}
    pops_paired(fn, external)
    paired = dict(external)
    exec(ast.unparse(fn), paired)
    x = np.array([1.0, 2.0])
    assert paired["df"](x) is x and plain["df"](x) is x


def test_zeros_and_reshaped_adjoints_are_new_memory_or_the_adjoints_own():
    from tangentlike import runtime

    assert runtime.unarray in memory._FIRST_ARGUMENT_ONLY
    x = np.arange(4.0)
    assert not np.may_share_memory(runtime.zeros_of(x), x)
    g = np.ones(4)
    parts = [np.ones(2), np.ones(2)]
    assert np.may_share_memory(runtime.unarray(g.reshape(2, 2), parts), g)
    assert not any(np.may_share_memory(runtime.unarray(g.reshape(2, 2), parts), p) for p in parts)


REFUSED = """
import numpy as np


def f_halved_in_a_loop(x, y):
    for e in y:
        if e > 0.0:
            y *= 0.5
    v = np.array([np.sum(y), x])
    v[1] = x * y[0]
    return np.sum(np.sin(v)) + np.sum(y ** 2)
"""


def test_a_refusal_at_second_order_names_the_users_variable_and_line(tmp_path):
    mod = load_module(tmp_path, REFUSED, name="tl_second_halved")
    with pytest.raises(tl.UnsupportedSyntaxError) as caught:
        tl.hvp(mod.f_halved_in_a_loop, wrt=(0, 1), method="reverse")
    text = str(caught.value)
    first = text.splitlines()[0]
    assert "y *= 0.5" in text.splitlines()[1]  # the user's line, shown
    assert "'y'" in first and "what the gradient saved for its backward sweep" in first
    assert "_stack" not in first and "at line" not in first
    assert "What to do: at second order" in text


# seed 12 program 168 of the random programs (tests/fuzz, --mode hvp): a reshape of an
# argument updated in place, loops that read it, arrays made by np.array and written
# by index. Its gradient's backward sweep restores the argument's copy in place while
# adjoints made by zeros_of and unarray are live, which the second pass took for
# sharers of that copy (a run-time refusal). Checked against central differences of the
# gradient, along a few directions (no autograd twin: the loops `continue`).
FUZZ_168 = """
import numpy as np


def f(x, y, w, n):
    s1 = y.min()
    s2 = np.cumsum(y).max()
    s3 = x
    z1 = y.reshape(2, 2)
    z1 -= ((3 - z1) @ np.outer(np.array([s3, s3]), y[-2:]))[::-1]
    for e1 in y:
        if s1 > z1[-2][n % 2] and (not n < 1):
            continue
        for e2 in y:
            if y[n % 4] < -1:
                continue
            e1 /= 2
            s2 /= np.max(y) ** 2 + 1.0
            s3 += (np.sum(z1.transpose()) ** 2 + 0.25) ** 0.5
    L1 = [np.cumsum(y)]
    v1 = np.ones(4)
    v1[-4] = np.min(--z1)
    v1[::2] = y[2:4]
    L2 = list(v1)
    return np.sum(y) + 2.0 * sum(L2) + np.sum(v1 ** 2)
"""


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_a_random_program_whose_adjoints_were_taken_for_sharers(tmp_path, method):
    f = load_module(tmp_path, FUZZ_168, name=f"tl_second_fuzz168_{method}").f
    x, y, w, n = 0.3, np.array([0.5, -0.2, 0.8, 0.1]), 0.7, 3
    hv = tl.hvp(f, wrt=(0, 1, 2), method=method)
    g = tl.grad(f, wrt=(0, 1, 2))
    rng = np.random.default_rng(168)
    for _ in range(3):
        u = (float(rng.standard_normal()), rng.standard_normal(4), float(rng.standard_normal()))
        got = hv(x, y.copy(), w, n, u)

        def grad_at(t, u=u):
            return g(x + t * u[0], y + t * u[1], w + t * u[2], n)

        h = 1e-5
        for a, plus, minus in zip(got, grad_at(h), grad_at(-h), strict=True):
            fd = (np.asarray(plus) - np.asarray(minus)) / (2 * h)
            assert np.allclose(a, fd, rtol=1e-5, atol=1e-6)
