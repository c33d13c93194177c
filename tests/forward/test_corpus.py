"""Every corpus program (tests/corpus/*.py CASES) through jvp: its value is f's, the
dot-product test against vjp (<u, J t> == <J^T u, t>), central differences; and vector
mode (k directions in one pass) equal to k single-direction runs."""

from __future__ import annotations

import numpy as np
import pytest
from corpus import checkpointed, containers, functions, in_place, programs
from corpus_check import check_case, check_vector


def _r(seed):
    return np.random.RandomState(seed)


# checkpoint markers change nothing in forward mode (no stack): the same programs
CHECKPOINTED = [
    (
        checkpointed.rnn,
        lambda: (_r(0).randn(3, 3) * 0.5, _r(1).randn(3), _r(2).randn(5, 3), 2),
        (0, 1),
    ),
    (
        checkpointed.rnn_interval,
        lambda: (_r(0).randn(3, 3) * 0.5, _r(1).randn(3), _r(2).randn(5, 3), 2),
        (0, 1, 2),
    ),
    (checkpointed.over_rows, lambda: (_r(0).randn(4, 3), _r(1).randn(3), 2), (0, 1)),
    (checkpointed.with_branches_and_calls, lambda: (_r(0).randn(3), _r(1).randn(3), 7, 2), (0, 1)),
    (checkpointed.checkpointed_calls, lambda: (_r(0).randn(3), _r(1).randn(3), 4), (0, 1)),
    (checkpointed.block, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (checkpointed.blocks_in_loop, lambda: (_r(0).randn(3), _r(1).randn(3), 4), (0, 1)),
    (checkpointed.nested, lambda: (_r(0).randn(3), _r(1).randn(3), 3, 2), (0, 1)),
    (checkpointed.writes_in_place, lambda: (_r(0).randn(3), _r(1).randn(3), 4, 2), (0, 1)),
    (checkpointed.state_bound_in_the_loop, lambda: (_r(0).randn(3), _r(1).randn(3), 4, 2), (0, 1)),
    (checkpointed.continues, lambda: (_r(0).randn(3), _r(1).randn(3), 5, 2), (0, 1)),
    (
        checkpointed.enumerated,
        lambda: ([_r(0).randn(3), _r(1).randn(3)], _r(2).randn(3), 2),
        (0, 1),
    ),
]

CASES = [
    pytest.param(
        case[0],
        case[1],
        case[2],
        id=f"{module.__name__.split('.')[-1]}-{i}-"
        + getattr(case[0], "__name__", type(case[0]).__name__),
    )
    for module, cases in (
        (programs, programs.CASES),
        (containers, containers.CASES),
        (functions, functions.CASES),
        (in_place, in_place.CASES),
        (checkpointed, CHECKPOINTED),
    )
    for i, case in enumerate(cases)
]


@pytest.mark.parametrize("f, make, wrt", CASES)
def test_jvp_against_vjp_and_differences(f, make, wrt):
    check_case(f, make(), wrt)


@pytest.mark.parametrize("f, make, wrt", CASES)
def test_vector_mode_equals_single_directions(f, make, wrt):
    check_vector(f, make(), wrt)
