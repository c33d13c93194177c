"""Item writes into a name that may have held an argument's list earlier in the function
and certainly holds an array where the write runs (issue 13): the gradient (reverse
mode) and the tangent (forward mode) against central differences and autograd; where
the name may still hold the argument's list, a run-time refusal located at the write."""

from __future__ import annotations

import re

import numpy as np
import pytest
from corpus import rebound_arrays as c
from forward.corpus_check import check_case, check_vector
from reference import autograd_grad, fd_gradient

import tangentlike as tl
from tangentlike.errors import CheckError


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray | list) else a for a in args]


@pytest.mark.parametrize("case", c.CASES, ids=lambda k: k[0].__name__)
def test_gradient_matches_finite_differences_and_autograd(case):
    f, args, wrt, equivalent = case
    grads = tl.grad(f, wrt=wrt)(*_copies(args))
    for i, g in zip(wrt, grads, strict=True):
        expected = fd_gradient(lambda *a: f(*_copies(a)), _copies(args), i)
        np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-7)
        reference = autograd_grad(equivalent, _copies(args), i)
        np.testing.assert_allclose(g, reference, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("case", c.CASES, ids=lambda k: k[0].__name__)
def test_forward_mode_matches_reverse_mode_and_differences(case):
    f, args, wrt, _ = case
    check_case(f, _copies(args), wrt)
    check_vector(f, _copies(args), wrt)


@pytest.mark.parametrize("case", c.REFUSED, ids=lambda k: k[0].__name__)
@pytest.mark.parametrize("build", [tl.grad, lambda f: tl.jacobian(f, wrt=1, mode="forward")])
def test_refused_where_the_name_may_hold_the_arguments_list(case, build):
    f, args, words = case
    with pytest.raises(CheckError, match=r"rebound_arrays\.py:\d+:\d+: ") as err:
        build(f)(*_copies(args))
    message = str(err.value)
    for word in words:
        assert word in message, message
    assert re.search(r"\^", message), message
