"""Third order where the second derivative is a module-level gradient of a function that
calls a module-level gradient (`g = tl.grad(f)`, `gv(x) = sum(g(x) * V)`, `h =
tl.grad(gv)`), and f calls a helper looping over a list or an array. Three fixes were
needed, each tested here:

- the generated module of `h` imports `g` (`from mod import g`), and CPython 3.11 then
  compiles `g.copy()` inside its copy of the runtime helper gradient_like as an attribute
  load, not a method call: the copy's bytecode differs from the helper's, so it was read
  as user source (SourceChangedError); parse/generated.py compares the text compiled
  alone where the bytecode differs;
- the backward sweep of the helper's loop reads ints from a range saved on the stack,
  which the third derivative cannot tell from floats: `add_item` into a range and the
  tangent of iterating a range are zero (TypeError before);
- the tangent of `add(a, b)` spelled a zero tangent of a list as np.zeros_like(list)
  (ValueError); it is a sum of terms now, the zero one dropped.

Against central differences of tangentlike's own lower derivative and autograd."""

from __future__ import annotations

import inspect

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.parse.generated import runtime_helper

SOURCE = """
import numpy as np

import tangentlike as tl

V = np.array([0.2, -0.4, 0.5])


def over_list(xs):
    s = 0.0
    for v in xs:
        s = s + np.sum(v * v)
    return s


def f_list(x):
    return over_list([x, x * 2.0]) * np.sum(x)


def f_array(x):
    return over_list(x) * np.sum(x)


g_list = tl.grad(f_list)
g_array = tl.grad(f_array)


def gv_list(x):
    return np.sum(g_list(x) * V)


def gv_array(x):
    return np.sum(g_array(x) * V)


h_list = tl.grad(gv_list)
h_array = tl.grad(gv_array)


def hv_list(x):
    return np.sum(h_list(x) * V)


def hv_array(x):
    return np.sum(h_array(x) * V)
"""

X = np.array([0.3, 0.7, 1.1])


def _autograd_f(case):
    def over_list(xs):
        s = 0.0
        for v in xs:
            s = s + anp.sum(v * v)
        return s

    if case == "list":
        return lambda x: over_list([x, x * 2.0]) * anp.sum(x)
    return lambda x: over_list(x) * anp.sum(x)


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("third_mod"), SOURCE, name="tl_third_mod")


@pytest.mark.parametrize("case", ["list", "array"])
def test_third_derivative_through_module_level_gradients(m, case):
    V = m.V
    hv, gv = getattr(m, f"hv_{case}"), getattr(m, f"gv_{case}")
    f = _autograd_f(case)
    ag_gv = lambda x: anp.sum(autograd.grad(f)(x) * V)  # noqa: E731
    ag_hv = lambda x: anp.sum(autograd.grad(ag_gv)(x) * V)  # noqa: E731
    expected = autograd.grad(ag_hv)(X)
    eps = 1e-5
    assert np.allclose(hv(X), ag_hv(X), rtol=1e-10)
    third = tl.grad(hv)(X)
    assert np.allclose(third, expected, rtol=1e-9, atol=1e-12)
    along = (hv(X + eps * V) - hv(X - eps * V)) / (2 * eps)
    assert np.isclose(third @ V, along, rtol=1e-6)
    assert np.allclose(tl.hvp(gv)(X, V), expected, rtol=1e-9, atol=1e-12)
    assert np.allclose(tl.hessian(gv)(X) @ V, expected, rtol=1e-9, atol=1e-12)


def test_a_copy_compiled_beside_an_import_of_one_of_its_locals_is_the_helper(tmp_path):
    """gradient_like's `g = g.copy()` compiles to other bytecode in a module importing a
    `g`; the copy is still the helper (and a changed copy still is not)."""
    text = inspect.getsource(runtime.gradient_like)
    module = load_module(tmp_path, f"import numpy as np\nfrom math import e as g\n\n{text}")
    assert runtime_helper(module.gradient_like) is runtime.gradient_like
    changed = text.replace('return like(b, x, "")', 'return like(b, x, "x")')
    assert changed != text
    other = load_module(tmp_path, f"import numpy as np\nfrom math import e as g\n\n{changed}")
    assert runtime_helper(other.gradient_like) is None


def test_the_int_items_of_a_range_carry_no_derivative():
    b = [np.ones(2), None]
    assert runtime.add_item(b, range(3), 1, 5.0) is b
    assert runtime.iterable_tangent(None, range(3)) == [None, None, None]
    assert runtime.uniterable_tangent([1.0, 2.0], range(2)) is None
