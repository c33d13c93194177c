"""Loops that grow and read long lists stay linear: each append, each read of an
element and each popped element adjoint costs O(1) in the backward sweep."""

from __future__ import annotations

import time

import numpy as np
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def rnn(x, w, n):
    hs = []
    h = x
    for t in range(n):
        h = np.tanh(h * w + hs[t - 1] * 0.01) if t else np.tanh(h * w)
        hs.append(h)
    return np.sum(np.stack(hs)) + sum(np.sum(v) for v in hs)
"""


def _best_time(df, n: int) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        df(np.full(4, 0.1), 0.5, n)
        times.append(time.perf_counter() - start)
    return min(times)


def test_backward_over_appends_and_reads_is_linear(tmp_path):
    df = tl.grad(load_module(tmp_path, SOURCE).rnn, wrt=(0, 1))
    df(np.full(4, 0.1), 0.5, 10)  # warm up
    small, large = _best_time(df, 250), _best_time(df, 4000)
    # 16 times the length: linear is ~16x, quadratic would be ~256x
    assert large < 64 * small, (small, large)
