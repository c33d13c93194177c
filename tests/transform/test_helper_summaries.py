"""What callers know of the helpers they call (issue 13): corpus.helper_summaries.

Reverse mode against central differences and autograd on the out-of-place program,
in the generic build and the one specialised to the arguments' signature (the
corpus.in_place tests and tests/forward/test_corpus.py run the same cases once);
and the programs that must stay refused, with the words that say why.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from corpus import helper_summaries as c
from reference import autograd_grad, fd_on_copies, fresh_copies, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError


def _id(case):
    return f"{case[0].__name__}-{c.CASES.index(case)}"


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_generic_and_specialised_builds_match_both_references(case):
    f, make, wrt, equivalent = case
    args = make()
    expected = [fd_on_copies(f, args, i) for i in wrt]
    twin = [autograd_grad(equivalent, fresh_copies(args), i) for i in wrt]
    df = tl.value_and_grad(f, wrt=wrt)
    for _ in range(3):  # the generic build, then the one specialised to the signature
        value, grads = df(*fresh_copies(args))
        np.testing.assert_allclose(value, f(*fresh_copies(args)), rtol=1e-12)
        for g, fd, ag in zip(grads, expected, twin, strict=True):
            np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(g, ag, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", c.CASES, ids=_id)
def test_forward_mode_matches_autograd(case):
    f, make, wrt, equivalent = case
    args = make()
    for i in wrt:
        t = np.random.RandomState(4).randn(*np.shape(args[i]))
        t = float(t) if isinstance(args[i], float) else t
        _, tangent = tl.jvp(f, wrt=i)(*fresh_copies(args), t)
        expected = np.sum(np.asarray(autograd_grad(equivalent, fresh_copies(args), i)) * t)
        np.testing.assert_allclose(tangent, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", c.REFUSED, ids=lambda k: k[0].__name__)
def test_still_refused(case):
    f, make, when, words = case
    error = UnsupportedSyntaxError if when == "build" else CheckError
    with pytest.raises(error) as err:
        tl.grad(f, wrt=(0, 1))(*make())
    message = str(err.value)
    assert re.search(r"helper_summaries\.py:\d+:\d+: ", message), message
    for word in words:
        assert word in message, message


def test_items_of_new_arrays_are_updated_through_their_views():
    source = tl.grad(c.tuple_items_updated, wrt=(0, 1)).source
    assert "unshared(" not in source  # no run-time check: v and s share nothing


def test_a_call_changing_only_a_temporary_is_not_inlined():
    source = tl.grad(c.temporary_argument, wrt=(0, 1)).source
    code = [line.split("#")[0] for line in source.splitlines()]
    assert any("shift_in_place(" in line for line in code)


def test_many_calls_are_all_inlined():
    source = tl.grad(c.damped_many, wrt=(0, 1)).source
    code = [line.split("#")[0] for line in source.splitlines()]
    assert not any("damp(" in line for line in code)  # no call left: five bodies inlined


STALE = """
import numpy as np


def inner(a, x):
    return np.sum(a) * 0.0


def outer(a, x):
    return inner(a, x)


def writer(a, x):
    np.copyto(a, x)
    return 0.0


def f(x, y):
    t = outer(y, x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x
"""


def test_a_callee_that_starts_writing_is_seen(tmp_path):
    """The answer of analyze.plain_calls rests on the callee's callees: rebinding one
    to a function that writes its argument rebuilds the gradient, which refuses."""
    module = load_module(tmp_path, STALE)
    df = tl.grad(module.f, wrt=(0, 1))
    x, y = 0.7, np.array([0.3, -0.5, 1.2, 0.4])
    np.testing.assert_allclose(df(x, y.copy())[0], np.sum(y**2))
    module.inner = module.writer
    with pytest.raises(UnsupportedSyntaxError, match=r"copyto\(\.\.\.\) writes into its first"):
        df(x, y.copy())  # where the writer writes (its callers' summaries say so)
