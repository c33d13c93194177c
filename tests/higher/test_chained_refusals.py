"""A value reaching the output through two refused calls in a row is refused, never a
zero derivative: the arguments of a refused call still flow into its result
(analyze/operands.py), so the first refused call is found active. Before, a generated
gradient's `top_right(linalg.expm(frechet_block(a, g)))` (scipy.linalg.expm's adjoint,
its helpers then without second-order rules) gave a zero Hessian-vector product."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np
from tangentlike.runtime.forward import lift

C = np.array([0.5, 1.5, -0.7])


def chained(x):
    y = lift(x, C)
    z = lift(np.sin(y), C)
    return np.sum(z)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("chained"), SOURCE, name="tl_chained_refusals")


@pytest.mark.parametrize("make", [tl.grad, tl.jvp], ids=["grad", "jvp"])
def test_two_refused_calls_in_a_row_are_refused_at_the_first(m, make):
    x = np.array([0.3, -1.2, 2.0])
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        f = make(m.chained)
        f(x) if make is tl.grad else f(x, np.ones(3))
    message = str(err.value)
    assert "lift" in message and "no second-order rule" in message, message
    assert err.value.location.line == m.chained.__code__.co_firstlineno + 1, message
