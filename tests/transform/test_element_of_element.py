"""`y[i][j] = v` and `y[i][j] op= v` (issue 13): Python takes the element `y[i]` and
writes into it; for an array that element is a view (a basic index) and the write
changes y. Gradients against central differences, tangents against reverse mode; what
the views cannot follow (a view of a view, an advanced index's copy) is refused with a
location."""

from __future__ import annotations

import numpy as np
import pytest
from forward.corpus_check import check_case
from reference import fd_gradient, load_module

import tangentlike as tl

BODIES = {
    "rows_and_slices": [
        "M = np.zeros((3, 4))",
        "M[1][2] = x",
        "M[0][1:3] = y[:2] * x",
        "M[2][3] += y[3]",
        "return np.sum(M ** 2) + M[1, 2] * y[0]",
    ],
    "in_a_loop_reading_the_array": [
        "M = np.outer(y, y) * 1.0",
        "for i in range(3):",
        "    M[i][i + 1] = M[i][i] * x",
        "return np.sum(np.sin(M))",
    ],
    "a_row_read_afterwards": [
        "M = np.zeros((3, 4))",
        "row = M[1]",
        "M[1][2] = x * y[1]",
        "return np.sum(row * y) + np.sum(M)",
    ],
    "a_view_of_a_view": [  # the chain of views is written into M (in-place chains)
        "M = np.zeros((3, 4)) + y",
        "M[1:3][0][2] = x",
        "return np.sum(M ** 2)",
    ],
    "in_a_tuple_target": [
        "M = np.ones((2, 4))",
        "a, M[1][0] = x * 2.0, y[2] * x",
        "return a * np.sum(M * M)",
    ],
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_the_write_goes_into_the_array(tmp_path, name):
    body = "".join(f"    {line}\n" for line in BODIES[name])
    module = load_module(tmp_path, f"import numpy as np\n\n\ndef f(x, y):\n{body}")
    x, y = 0.7, np.array([0.3, -0.7, 1.1, 0.5])
    gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y.copy())
    np.testing.assert_allclose(gy, fd_gradient(module.f, [x, y.copy()], 1), rtol=1e-6, atol=1e-8)
    h = 1e-6
    fx = (module.f(x + h, y.copy()) - module.f(x - h, y.copy())) / (2 * h)
    np.testing.assert_allclose(gx, fx, rtol=1e-6, atol=1e-8)
    check_case(module.f, [x, y.copy()], (0, 1))


def test_a_write_into_an_advanced_index_copy_leaves_the_array_alone(tmp_path):
    # `M[[0, 2]]` is a copy, which Python writes into: asked at run time to share none of
    # M (runtime.untouched), the write into the copy leaves M and its gradient alone
    source = (
        "import numpy as np\n\n\ndef f(x, y):\n    M = np.zeros((3, 4)) + y\n"
        "    M[[0, 2]][1] = x\n    return np.sum(M ** 2)\n"
    )
    module = load_module(tmp_path, source)
    y = np.array([0.3, -0.7, 1.1, 0.5])
    gx, gy = tl.grad(module.f, wrt=(0, 1))(0.7, y.copy())
    assert gx == 0.0
    np.testing.assert_allclose(gy, fd_gradient(module.f, [0.7, y.copy()], 1), rtol=1e-6)
