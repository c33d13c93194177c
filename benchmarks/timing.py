"""Interleaved timing: every contender in every round, in a rotating order.

The machine is shared and noisy, so absolute times mean little; what each
round gives is a set of times taken close together. A round times a batch of
calls per contender (calibrated so a batch lasts about `batch_s`, one call if a
call is longer), and the order of contenders rotates from round to round so no
one always runs right after another. Ratios are taken round by round.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Ratio:
    median: float
    q1: float
    q3: float


def calls_per_batch(call: Callable[[], object], batch_s: float) -> tuple[int, float]:
    """(calls per batch, seconds one call took): one warm-up call, then one timed call.

    One warm-up is enough after the suite's build-and-check call; more cost minutes
    with eager JAX on a thousand-step loop."""
    call()
    start = time.perf_counter()
    call()
    once = max(time.perf_counter() - start, 1e-7)
    return max(1, round(batch_s / once)), once


def interleaved(
    calls: dict[str, Callable[[], object]], rounds: int, batch_s: float, budget_s: float
) -> dict[str, list[float]]:
    """Per-call seconds of each contender, one entry per round.

    Rounds are cut (to no fewer than 3) when one round would take so long that
    `rounds` of them exceed `budget_s`: slow contenders (eager JAX on a loop of a
    thousand steps) would otherwise make the run last an hour.
    """
    sizes = {name: calls_per_batch(call, batch_s) for name, call in calls.items()}
    per_round = sum(number * once for number, once in sizes.values())
    rounds = max(3, min(rounds, int(budget_s / max(per_round, 1e-9))))
    names = list(calls)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            call, number = calls[name], sizes[name][0]
            start = time.perf_counter()
            for _ in range(number):
                call()
            times[name].append((time.perf_counter() - start) / number)
    return times


def ratio(times: list[float], baseline: list[float]) -> Ratio:
    """Median and quartiles of the per-round ratios times / baseline."""
    ratios = [t / b for t, b in zip(times, baseline, strict=True)]
    if len(ratios) < 2:
        return Ratio(ratios[0], ratios[0], ratios[0])
    q1, median, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
    return Ratio(median, q1, q3)


def geometric_mean(values: list[float]) -> float:
    return statistics.geometric_mean(values) if values else float("nan")
