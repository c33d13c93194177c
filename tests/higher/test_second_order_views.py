"""Second order through updates in place of a view or an alias (`z = v[1:3]; z *= ...`,
`z = y; z -= ...`): the generated gradient pushes the view before making it again after
the update and pops it back before restoring its base in place, so the view read after
the restore has the restored values. The differentiable form pairs the pop with its push
(higher/form_pairs.py; with the update's two ways, `if _shares1:`, each pop pairs with the
push of its own branch), and the alias analysis keeps the saved name a view of the base
when the view's own name is made again (analyze/aliases.py `killed`), so the second pass
makes it again after the restore instead of refusing it as an array shared and read
afterwards. Hessian-vector products (forward over reverse, reverse over reverse) and
Hessians against autograd (on twins written out of place) and central differences of the
gradient; the form's rewrite of branch-paired pops on a small text. f_two_aliases_updated
(hvp fuzz seed 12 program 143) stopped with an UnboundLocalError in the generated code
when single-site saved names were left unbound."""

from __future__ import annotations

import ast

import autograd
import numpy as np
import pytest
from reference import autograd_version, fd_hvp, load_module

import tangentlike as tl
from tangentlike.higher.form_pairs import pops_paired

SOURCE = """
import numpy as np


def f_alias_after_loop(y):
    for i in range(2):
        y = y * 0.9
    z = y
    z -= 0.5 * y
    return np.sum(y ** 2) + np.mean(np.sin(z))


def twin_alias_after_loop(y):
    for i in range(2):
        y = y * 0.9
    y = y - 0.5 * y
    return np.sum(y ** 2) + np.mean(np.sin(y))


def f_alias_of_argument(y):
    z = y
    z -= 0.5 * np.sin(y)
    return np.sum(y ** 2) + np.mean(np.sin(z))


def twin_alias_of_argument(y):
    y = y - 0.5 * np.sin(y)
    return np.sum(y ** 2) + np.mean(np.sin(y))


def f_two_aliases_updated(y):
    z1 = y
    z1 += 0.5
    z2 = y
    z2 *= 1.5
    return np.sum(y**2) * 0.5 + np.sum(np.sin(z1))


def twin_two_aliases_updated(y):
    y = (y + 0.5) * 1.5
    return np.sum(y**2) * 0.5 + np.sum(np.sin(y))


def f_slice_view_updated(x):
    v = np.sin(x) * 1.0
    z = v[1:3]
    z *= z * x[0]
    return np.sum(v ** 2) + np.mean(np.sin(z)) - np.sum(z)


def twin_slice_view_updated(x):
    v = np.sin(x) * 1.0
    z = v[1:3] * (v[1:3] * x[0])
    v = np.concatenate([v[:1], z])
    return np.sum(v ** 2) + np.mean(np.sin(z)) - np.sum(z)


def f_row_view_after_branch(x):
    A = np.outer(x, x) + 1.0
    if np.sum(x) > 0.0:
        x = x * np.cos(x)
    z = A[2:3]
    z *= z
    s = A.max()
    return np.mean(np.sin(A)) + 0.5 * s + np.mean(np.sin(z)) * np.sum(x)


def twin_row_view_after_branch(x):
    A = np.outer(x, x) + 1.0
    if np.sum(x) > 0.0:
        x = x * np.cos(x)
    z = A[2:3] * A[2:3]
    A = np.concatenate([A[:2], z])
    s = A.max()
    return np.mean(np.sin(A)) + 0.5 * s + np.mean(np.sin(z)) * np.sum(x)
"""

NAMES = [line[4:].split("(")[0] for line in SOURCE.splitlines() if line.startswith("def f_")]
POINTS = [np.array([0.6, -0.4, 0.9]), np.array([-0.7, 0.5, -1.2])]  # both branches


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("views2"), SOURCE, name="tl_second_views")


@pytest.mark.parametrize("point", range(len(POINTS)))
@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp_through_views_updated_in_place(m, case, method, point):
    f, x = getattr(m, case), POINTS[point]
    v = np.array([0.3, 1.1, -0.7])
    hv = tl.hvp(f, method=method)(x.copy(), v)
    assert np.allclose(hv, fd_hvp(f, x, v), rtol=1e-4, atol=1e-6)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(x)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hessian_through_views_updated_in_place(m, case, method):
    f, x = getattr(m, case), POINTS[0]
    given, changed = x.copy(), x.copy()
    H = tl.hessian(f, method=method)(given)
    twin = autograd_version(getattr(m, case.replace("f_", "twin_", 1)))
    assert np.allclose(H, autograd.hessian(twin)(x), rtol=1e-7, atol=1e-9)
    f(changed)  # f_alias_of_argument changes its argument: H's columns, once in all
    assert np.allclose(given, changed, rtol=1e-12, atol=0.0)


def test_grad_of_grad_through_a_view_updated_in_place(m):
    f, x = m.f_slice_view_updated, POINTS[1]
    v = np.array([0.3, 1.1, -0.7])
    g = tl.grad(f)
    gg = tl.grad(lambda y: np.sum(g(y) * v))(x.copy())
    twin = autograd_version(m.twin_slice_view_updated)
    expected = autograd.grad(lambda y: autograd.numpy.sum(autograd.grad(twin)(y) * v))(x)
    assert np.allclose(gg, expected, rtol=1e-7, atol=1e-9)


BRANCHES = """
def df(x, c):
    _stack = None
    v = x * 2.0
    if c:
        _stack = (v, _stack)
        v = v * v
    else:
        _stack = (v, _stack)
        v = v + 1.0
    if c:
        v = _stack[0]
        _stack = _stack[1]
    else:
        v = _stack[0]
        _stack = _stack[1]
    return v
"""


def _rewritten(text: str) -> tuple[str, dict]:
    fn = ast.parse(text).body[0]
    external: dict = {}
    pops_paired(fn, external)
    return ast.unparse(fn), external


ONCE = BRANCHES.replace("def df(x, c):", "def df(x, d):").replace(
    "    v = x * 2.0\n", "    c = d > 0\n    v = x * 2.0\n"
)


def test_a_pop_pairs_with_the_push_of_its_own_branch_only():
    text, _ = _rewritten(ONCE)
    # each pop tries one name; every saved name is prebound (checks elsewhere read them)
    assert "_pushed1 = None" in text and "_pushed2 = None" in text
    assert (
        "if _stack[0] is _pushed1:\n            v = _pushed1\n"
        "        elif same_pushed(_stack[0], _pushed1):\n            v = _pushed1\n"
        "        else:\n            raise" in (text)
    )
    assert (
        "if _stack[0] is _pushed2:\n            v = _pushed2\n"
        "        elif same_pushed(_stack[0], _pushed2):\n            v = _pushed2\n"
        "        else:\n            raise" in (text)
    )


def test_a_test_bound_more_than_once_pairs_a_pop_with_every_push():
    text, _ = _rewritten(BRANCHES)  # c a parameter: it could be rebound between the ifs
    assert "_pushed1 = None" in text and "_pushed2 = None" in text
    assert text.count("elif _stack[0] is _pushed2:") == 2


@pytest.mark.parametrize("d", [1.0, -1.0])
def test_branch_paired_pops_bind_the_pushed_value_or_raise(d):
    text, external = _rewritten(ONCE)
    namespace = {"np": np, **external}
    exec(text, namespace)
    x = np.array([0.5, 2.0])
    assert np.array_equal(namespace["df"](x, d), 2.0 * x)
    # another value pushed on top in the branch that runs: the pop refuses it
    extra = (
        "        _stack = (x, _stack)\n        v = v * v\n"
        if d > 0
        else ("        _stack = (x, _stack)\n        v = v + 1.0\n")
    )
    broken = text.replace(extra.split("\n", 1)[1], extra)
    exec(broken, namespace)
    with pytest.raises(ValueError, match="pop out of order"):
        namespace["df"](x, d)
