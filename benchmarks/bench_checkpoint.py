"""Checkpointing a long recurrent loop: memory against time, side by side.

    python benchmarks/bench_checkpoint.py [--steps 10000] [--hidden 64] [--rounds 5] [--quick]

The gradient of a tanh RNN (`samples/rnn.py`, T steps, hidden size h) with
respect to both weight matrices, under: no checkpointing; a snapshot every
sqrt(T) steps (`tl.FixedInterval`); and the binomial schedule with several
snapshot budgets (`tl.Binomial`, the same as `tl.checkpointed(..., snapshots=k)`).
For each: the most bytes held at once on the stack and in snapshots (`df.stats`),
the peak of the process's traced allocations during one call (tracemalloc:
NumPy reports its buffers to it), the time relative to no checkpointing (the
contenders run interleaved, in rotating order, and we report the median of the
per-round ratios: the machine is shared), and the steps the backward sweep
recomputed against the binomial optimum for that budget.

BLAS runs single-threaded unless OPENBLAS_NUM_THREADS is set.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time
import tracemalloc

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")
os.environ.setdefault("TANGENTLIKE_CACHE_DIR", tempfile.mkdtemp(prefix="tangentlike-bench-"))

import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "samples"))

import rnn  # noqa: E402

import tangentlike as tl  # noqa: E402
from tangentlike.runtime.schedule import BinomialPlan  # noqa: E402


def contenders(steps: int) -> list[tuple[str, object]]:
    every = max(1, round(steps**0.5))
    out: list[tuple[str, object]] = [("none", None), (f"every {every}", tl.FixedInterval(every))]
    for k in (10, 30, 100):
        if k < steps:
            out.append((f"binomial {k}", tl.Binomial(k)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1000 steps, 3 rounds")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.rounds = 1000, 3
    W, U, h, xs = rnn.problem(args.steps, args.hidden)
    wrt = ("W", "U")
    entries = contenders(args.steps)
    timed = {name: tl.grad(rnn.loss, wrt=wrt, checkpoint=s) for name, s in entries}
    measured = {name: tl.grad(rnn.loss, wrt=wrt, checkpoint=s, stats=True) for name, s in entries}

    reference = timed["none"](W, U, h, xs)
    for name, df in timed.items():
        for a, b in zip(df(W, U, h, xs), reference, strict=True):
            assert np.allclose(a, b, rtol=1e-10, atol=1e-12), f"{name}: gradients differ"

    rows = {}
    for name, df in measured.items():
        tracemalloc.start()
        df(W, U, h, xs)
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows[name] = (df.stats, traced_peak)

    ratios: dict[str, list[float]] = {name: [] for name in timed}
    names = list(timed)
    for r in range(args.rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        times = {}
        for name in order:
            t0 = time.perf_counter()
            timed[name](W, U, h, xs)
            times[name] = time.perf_counter() - t0
        for name in names:
            ratios[name].append(times[name] / times["none"])

    state = h.nbytes
    print(
        f"tanh RNN, T = {args.steps} steps, hidden size {args.hidden} "
        f"(one state = {state} bytes), gradient wrt W and U; {args.rounds} interleaved rounds"
    )
    header = (
        f"{'schedule':>13} {'stack peak':>11} {'snapshots':>10} {'stored peak':>12} "
        f"{'process peak':>13} {'time':>6} {'recomputed':>11} {'optimum':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, schedule in entries:
        stats, traced = rows[name]
        optimum = ""
        if isinstance(schedule, tl.Binomial):
            plan = BinomialPlan(args.steps, schedule.snapshots)
            optimum = str(
                BinomialPlan.fewest_advances(args.steps, schedule.snapshots) - max(plan.kept)
            )
        print(
            f"{name:>13} {_kb(stats.peak_stack_bytes):>11} {_kb(stats.peak_snapshot_bytes):>10} "
            f"{_kb(stats.peak_bytes):>12} {_kb(traced):>13} "
            f"{statistics.median(ratios[name]):>5.2f}x {stats.recomputed_steps:>11} {optimum:>8}"
        )
    print(
        "stack/snapshots/stored: bytes of array data held at once (df.stats); process: peak "
        "of traced allocations in one call; time: median ratio to 'none'; recomputed: steps "
        "run again in the backward sweep; optimum: the fewest any schedule with that many "
        "snapshots needs (after a full forward sweep)."
    )


def _kb(n: int) -> str:
    return f"{n / 1024:,.0f} kB" if n >= 10 * 1024 else f"{n / 1024:.1f} kB"


if __name__ == "__main__":
    main()
