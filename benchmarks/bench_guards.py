"""The per-call cost of keeping a gradient current (guards checked before each call).

For a scalar function and for the digits MLP loss (samples/mlp.py, the batch shapes of
samples/mlp_digits.py), times a warm gradient call in a fresh process per copy of
tangentlike given on the command line (default: this tree), e.g. main's tree and this one:

    python benchmarks/bench_guards.py /path/to/before /path/to/after

Inside the last one it also times, interleaved with the guarded call, the same generated
function wrapped without guards; the generated function alone and behind its guards
("guard us": what keeping it current costs per call); and the compiled check alone (and
counts its steps). Times are CPU time of the measuring thread, the best of 15 rounds, so
that other processes on the machine disturb them less.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
sys.path.insert(0, {samples!r})
import numpy as np
import tangentlike as tl
import mlp
sys.path.insert(0, {scratch!r})
from scalar_case import scalar

def cpu_per_call(fn, n):  # microseconds of this thread's CPU time per call
    start = time.thread_time()
    for _ in range(n):
        fn()
    return (time.thread_time() - start) / n * 1e6


rng = np.random.default_rng(0)
W1, W2 = mlp.init_params(rng, 64, 128, 10)
X = rng.random((32, 64))
Y = np.eye(10)[rng.integers(0, 10, 32)]
cases = {{
    "scalar": (scalar, ("x",), (0.3,)),
    "mlp_digits_loss": (mlp.loss, ("W1", "W2"), (W1, W2, X, Y, 1e-4)),
}}
out = {{}}
for name, (f, wrt, args) in cases.items():
    df = tl.grad(f, wrt=wrt if len(wrt) > 1 else wrt[0], cache=False)
    df(*args)
    timed = {{"call_us": df}}
    live = None
    for per_func in list(getattr(tl.gradients, "_cache", {{}}).values()):
        for entry in per_func.values():
            if getattr(entry, "wrapper", None) is df and getattr(entry, "live", None):
                live = entry.live
    if live is not None:  # the same gradient without its guards, for comparison
        job = tl.job.Job.of(f, wrt if len(wrt) > 1 else wrt[0], cache=False)
        timed["unguarded_us"] = tl.wrapper.wrap(job, live.generated, df.source)
        timed["generated_us"] = live.generated  # the generated function alone ...
        timed["checked_us"] = live.caller()  # ... and behind its guards
    n = 5000 if name == "scalar" else 200
    best = {{k: float("inf") for k in timed}}
    for _ in range(15):  # interleaved, so all see the same machine; the best of each
        for k, g in timed.items():
            best[k] = min(best[k], cpu_per_call(lambda: g(*args), n))
    out[name] = best
    if live is not None:
        out[name]["check_us"] = min(cpu_per_call(live.check, n) for _ in range(15))
        out[name]["steps"] = len(live.built.guards.guards)
print(json.dumps(out))
"""


SCALAR = """
import numpy as np

COEF = 1.5


def scalar(x):
    return np.sin(x) * COEF + x * x
"""


def measure(tree: Path) -> dict:
    scratch = tempfile.mkdtemp(prefix="bench-guards-")
    (Path(scratch) / "scalar_case.py").write_text(SCALAR)
    code = CHILD.format(samples=str(ROOT / "samples"), scratch=scratch)
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "TANGENTLIKE_DISK_CACHE": "0"},
    )
    return json.loads(result.stdout)


def main(trees: list[Path]) -> None:
    results = [measure(t) for t in trees]
    names = [t.name for t in trees]
    print(
        f"{'function':<18}"
        + "".join(f"{'call us (' + n + ')':>22}" for n in names)
        + f"{'unguarded us':>14}{'guarded/unguarded':>19}{'guard us':>10}{'check us':>10}"
        + f"{'steps':>7}"
    )
    for name in results[0]:
        row = "".join(f"{r[name]['call_us']:>22.2f}" for r in results)
        last = results[-1][name]
        if "unguarded_us" in last:
            ratio = last["call_us"] / last["unguarded_us"]
            row += f"{last['unguarded_us']:>14.2f}{ratio:>19.3f}"
            row += f"{last['checked_us'] - last['generated_us']:>10.3f}"
            row += f"{last['check_us']:>10.3f}{last['steps']:>7}"
        print(f"{name:<18}{row}")


if __name__ == "__main__":
    main([Path(p).resolve() for p in sys.argv[1:]] or [ROOT])
