"""Arrays recognised from the operations that made them (issue 13): an array made by
np.zeros(n)-like calls or np.array([...]), then rebound to arithmetic with itself (`v =
v * w[::-1]`, `v *= v[0]`), a copy or a slice of it, is written by index like any array
(before, `v * w` might have been a list repeated, and the write was refused as one into
a list). Gradients against central differences, tangents against reverse mode."""

from __future__ import annotations

import numpy as np
import pytest
from forward.corpus_check import check_case
from reference import fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

BODIES = {
    "times_its_own_item": [
        "v = np.zeros(4)",
        "v[3:4] += y[-2]",
        "v[0] = x",
        "v *= v[0]",
        "return np.sum(v * y)",
    ],
    "times_a_slice_of_an_argument": [
        "v = np.ones(4)",
        "v[1] = x",
        "v = v * y[::-1]",
        "v[2] = v[1] * x",
        "return np.sum(v ** 2)",
    ],
    "array_of_a_list_in_a_loop": [
        "v = np.array([1.5, x, x, y[1]])",
        "for i in range(2):",
        "    v[0] -= y[i]",
        "    v = (v - np.sqrt(y ** 2 + 0.5))[::-1]",
        "return np.sum(v ** 2)",
    ],
    "copied_then_written": [
        "v = np.zeros(4)",
        "w = np.copy(v * x)",
        "w[1:3] = y[:2] * w[0:2] + x",
        "v = -w",
        "v[0] = y[3]",
        "return np.sum(np.sin(v))",
    ],
}


def _module(tmp_path, name):
    body = "".join(f"    {line}\n" for line in BODIES[name])
    return load_module(tmp_path, f"import numpy as np\n\n\ndef f(x, y):\n{body}")


@pytest.mark.parametrize("name", sorted(BODIES))
def test_written_by_index_and_differentiated(tmp_path, name):
    module = _module(tmp_path, name)
    x, y = 0.7, np.array([0.3, -0.7, 1.1, 0.5])
    gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y.copy())
    np.testing.assert_allclose(gy, fd_gradient(module.f, [x, y.copy()], 1), rtol=1e-6, atol=1e-8)
    h = 1e-6
    fx = (module.f(x + h, y.copy()) - module.f(x - h, y.copy())) / (2 * h)
    np.testing.assert_allclose(gx, fx, rtol=1e-6, atol=1e-8)
    check_case(module.f, [x, y.copy()], (0, 1))


@pytest.mark.parametrize(
    "made",
    [
        "np.array(2)",  # a 0-d int array: v * 3 is an np.int64, which repeats a list
        "np.zeros(4, int)",  # a dtype given
        "y",  # an argument (a list, maybe)
    ],
)
def test_values_that_may_repeat_a_list_are_still_refused(tmp_path, made):
    source = (
        "import numpy as np\n\n\ndef f(x, y):\n"
        f"    a = {made}\n    b = a * 3\n    c = b * y\n    c[0] = x\n    return c[0] * x\n"
    )
    module = load_module(tmp_path, source)
    with pytest.raises(UnsupportedSyntaxError, match="writing into the list or dict 'c'"):
        tl.grad(module.f)(0.5, [1.0, 2.0])
