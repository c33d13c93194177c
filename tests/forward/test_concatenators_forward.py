"""`np.r_[...]` and `np.c_[...]` in forward mode: the tangent is the same concatenation
of the items' tangents (zeros for constant ranges and items that do not vary), checked
by jvp against vjp (dot product) and central differences, and k directions at once
against k single directions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from corpus_check import check_case, check_vector

from tests.reference import load_module
from tests.transform.test_concatenators import CASES, _ids


@pytest.mark.parametrize(("expr", "sx", "sy"), CASES, ids=[_ids(c) for c in CASES])
def test_the_tangent_is_the_concatenation_of_tangents(tmp_path, expr, sx, sy):
    module = load_module(
        tmp_path, f"import numpy as np\n\n\ndef f(x, y):\n    r = {expr}\n    return r * 1.5\n"
    )
    rng = np.random.RandomState(0)
    x = rng.standard_normal(sx) if sx else 0.3
    y = rng.standard_normal(sy) if sy else -0.8
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_case(module.f, [x, y], (0, 1))
        check_case(module.f, [x, y], (1,))
        check_vector(module.f, [x, y], (0, 1))


def test_items_that_do_not_vary_and_a_range(tmp_path):
    module = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef f(x, y):\n    r = np.c_[x, y]\n"
        "    s = np.r_[np.array([x[0], -3.0]), y[-1:], 0:2]\n    return np.sum(r ** 2) * s\n",
    )
    x, y = np.array([0.3, -0.7, 1.1]), np.array([2.0, 0.5, -1.0])
    check_case(module.f, [x, y], (0, 1))
    check_case(module.f, [x, y], (0,))
    check_vector(module.f, [x, y], (0, 1))
