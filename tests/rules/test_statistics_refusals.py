"""What the statistics rules (rules/numpy_statistics.py) do not differentiate is refused
with what to do, never answered wrong: a quantile method other than 'linear', np.cov
with y or weights, a differentiated q."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np


def nearest(x):
    return np.quantile(x, 0.3, method="nearest") * 2.0


def with_y(x, y):
    return np.sum(np.cov(x, y))


def weighted(x):
    return np.sum(np.cov(x, fweights=np.array([1, 2, 1, 1])))


def differentiated_q(x, q):
    return np.quantile(x, q)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("stats"), SOURCE, "statistics_refusals")


X = np.array([[0.3, -0.8, 1.2, 0.5], [1.0, 0.1, -0.4, 0.7]])


@pytest.mark.parametrize(
    ("name", "args", "words"),
    [
        ("nearest", (X[0],), "method='nearest'"),
        ("with_y", (X[0], X[1]), "y, fweights or aweights"),
        ("weighted", (X,), "y, fweights or aweights"),
    ],
)
def test_unsupported_options_are_refused_when_the_gradient_runs(m, name, args, words):
    with pytest.raises(ValueError, match="What to do") as err:
        tl.grad(getattr(m, name))(*args)
    assert words in str(err.value)


def test_a_differentiated_q_is_refused_at_the_call(m):
    with pytest.raises(TangentlikeError) as err:
        tl.grad(m.differentiated_q, wrt=1)(X[0], 0.3)
    assert "statistics_refusals.py:" in str(err.value) and "q" in str(err.value)
