"""`L[k] op= v` on items of lists and dicts holding arrays or numbers (issue 13): the
gradient (reverse mode) and the tangent (forward mode) against central differences and
autograd (whose boxes update out of place, the program's meaning where nothing else
holds the item), or a run-time refusal located at the update when something read
afterwards holds or shares the array."""

from __future__ import annotations

import re

import numpy as np
import pytest
from corpus import item_updates as c
from forward.corpus_check import check_case, check_vector
from reference import autograd_grad, fd_gradient

import tangentlike as tl
from tangentlike.errors import CheckError


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("case", c.CASES, ids=lambda k: k[0].__name__)
def test_gradient_matches_finite_differences_and_autograd(case):
    f, args, wrt, equivalent = case
    g = tl.grad(f, wrt=wrt)(*_copies(args))
    expected = fd_gradient(lambda *a: f(*_copies(a)), _copies(args), wrt)
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(
        g, autograd_grad(equivalent or f, _copies(args), wrt), rtol=1e-9, atol=1e-11
    )


@pytest.mark.parametrize("case", c.CASES, ids=lambda k: k[0].__name__)
def test_forward_mode_matches_reverse_mode_and_differences(case):
    f, args, wrt, _ = case
    check_case(f, _copies(args), (wrt,))
    check_vector(f, _copies(args), (wrt,))


@pytest.mark.parametrize("case", c.REFUSED, ids=lambda k: k[0].__name__)
@pytest.mark.parametrize("build", [tl.grad, lambda f: tl.jacobian(f, mode="forward")])
def test_refused_where_a_value_read_afterwards_holds_the_item(case, build):
    f, args, words = case
    df = build(f)
    with pytest.raises(CheckError, match=r"item_updates\.py:\d+:\d+: ") as err:
        df(*_copies(args))
    message = str(err.value)
    assert "in place" in message and "copy" in message, message
    for word in words:
        assert word.replace('"', "'") in message.replace('"', "'"), message
    assert re.search(r"\^", message), message


def test_the_argument_changes_as_it_does_in_the_function():
    y, changed = c.Y.copy(), c.Y.copy()
    c.argument_in_a_dict(changed)
    tl.grad(c.argument_in_a_dict)(y)
    np.testing.assert_array_equal(y, changed)  # y + y, written back into the caller's


def test_names_holding_the_old_array_are_rebound_to_the_new_one():
    source = tl.grad(c.name_and_slot).source
    assert " is _L_old" in source, source
