"""Third order through np.concatenate, np.hstack and sum() over a list: the second
derivative's reverse forms call unconcatenate_vjp, unstack_vjp and unsum_vjp, which
were refused ("has no second-order rule yet") when differentiated again; their rules
(rules/runtime_pieces.py) are the cuts they transpose. Against central differences of
tangentlike's second derivative and autograd's third."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

C = np.array([0.3, -1.2, 0.8])


def f_concatenate(t):
    return np.sum(np.concatenate([C * t ** 2, np.sin(C * t)]) ** 3)


def f_hstack(t):
    return np.sum(np.hstack([C * t ** 2, np.sin(C * t)]) ** 3)


def f_sum_of_list(t):
    return np.sum(sum([C * t ** 2, np.sin(C * t)]) ** 3)
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("third_pieces"), SOURCE, name="tl_third_pieces")


@pytest.mark.parametrize("case", ["f_concatenate", "f_hstack", "f_sum_of_list"])
def test_third_derivative(m, case):
    f, t, eps = getattr(m, case), 0.7, 1e-5
    second = tl.grad(tl.grad(f))
    third = tl.grad(tl.grad(tl.grad(f)))(t)
    assert np.isclose(third, (second(t + eps) - second(t - eps)) / (2 * eps), rtol=1e-5)
    expected = autograd.grad(autograd.grad(autograd.grad(autograd_version(f))))(t)
    assert np.isclose(third, expected, rtol=1e-9)
