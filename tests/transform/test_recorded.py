"""To-be-recorded: the forward sweep saves only values the backward sweep reads later."""

from __future__ import annotations

import numpy as np
from reference import fd_gradient

import tangentlike as tl
from tangentlike.runtime.schedule import Tape


def _r(seed):
    return np.random.RandomState(seed)


def _overwrites(x, T):
    y = x * 1.0
    for t in range(T):
        s = x * float(t)
        y = y + s
        s = y * 2.0
        y = s - y
    return np.sum(y)


def test_values_the_backward_sweep_never_reads_are_never_pushed():
    df = tl.grad(_overwrites, stats=True)
    x = _r(6).randn(4)
    np.testing.assert_allclose(df(x, 50), fd_gradient(_overwrites, [x, 50], 0), rtol=1e-6)
    # 250 overwrites (y, s and a temporary each twice or once per step): additions and
    # scalings of same-shaped values need none of the old values; only float(t) is kept
    assert df.stats.pushes == 50
    assert df.source.count("_push(") == 1


def test_stats_are_none_unless_asked_for():
    df = tl.grad(_overwrites)
    df(np.ones(2), 3)
    assert df.stats is None


def _rebinds_an_argument(x, y):
    x = np.zeros(5)
    return np.sum(y * 2.0) + np.sum(x)


def test_an_unreached_argument_that_is_rebound_gets_zeros_of_its_own_shape():
    gx, gy = tl.grad(_rebinds_an_argument, wrt=(0, 1))(np.ones(3), np.ones(2))
    np.testing.assert_array_equal(gx, np.zeros(3))
    np.testing.assert_array_equal(gy, np.full(2, 2.0))


def _keyword_only(x, *, k=2.0):
    return np.sum(x * k)


def test_stats_with_keyword_only_parameters():
    # the measuring stack is the last keyword-only parameter, after f's own
    df = tl.grad(_keyword_only, stats=True)
    np.testing.assert_allclose(df(np.ones(3), k=3.0), 3.0 * np.ones(3))
    assert df.stats.pushes == 0


def _reads_a_parameter_per_step(P, h, xs):
    total = 0.0
    for t in range(len(xs)):
        h = np.tanh(h @ P["W"] + xs[t])
        total = total + np.sum(h)
    return total


def test_stats_count_an_array_pushed_again_once():
    # P["W"] is pushed at every step (the backward sweep reads it): the stack holds one
    # array, not one per step
    df = tl.grad(_reads_a_parameter_per_step, stats=True)
    P, h, xs = {"W": np.eye(30)}, np.zeros((2, 30)), np.full((40, 2, 30), 0.1)
    df(P, h, xs)
    steps = len(xs)
    assert df.stats.pushes >= 2 * steps
    per_step = h.nbytes + xs[0].nbytes  # h and the step's input (a view of xs)
    assert df.stats.peak_stack_bytes <= P["W"].nbytes + steps * per_step
    assert df.stats.peak_stack_bytes < steps * P["W"].nbytes


def test_stats_count_each_holding_of_a_number():
    tape = Tape()
    a = np.ones(10)
    tape.append(a)
    tape.append(2.0)
    tape.append(a)
    tape.append([a, 3.0])
    assert tape.peak_stack_bytes == a.nbytes + 16
    tape.pop()
    tape.pop()
    assert tape.bytes == a.nbytes + 8
    tape.pop()
    tape.pop()
    assert tape.bytes == 0 and not tape.held
