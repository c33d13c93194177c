"""Cold transformation vs warm in-memory lookup vs warm disk load (new process), side by side.

For each sample function, in fresh processes sharing one cache directory:
  cold  - `tl.grad` with an empty disk cache (parse + transform + emit + load)
  disk  - `tl.grad` in a new process with the entry on disk (hash check + load)
  warm  - a second `tl.grad` in the same process (dictionary lookup)
Each measured inside the child process (so interpreter start-up is excluded),
repeated, medians reported with the ratios cold/disk and cold/warm.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = [
    ("samples/mlp.py", "loss", ("W1", "W2")),
    ("tests/golden/loop_overwrite.py", "rnn", ("w", "h")),
    ("tests/golden/if_else.py", "piecewise", ("x", "a")),
]

CHILD = """
import importlib.util, json, sys, time, timeit
spec = importlib.util.spec_from_file_location("target", {path!r})
module = importlib.util.module_from_spec(spec); sys.modules["target"] = module
spec.loader.exec_module(module)
import tangentlike as tl
t = time.perf_counter()
df = tl.grad(getattr(module, {func!r}), wrt={wrt!r})
first = time.perf_counter() - t
n = 20000
warm = min(timeit.repeat(lambda: tl.grad(getattr(module, {func!r}), wrt={wrt!r}),
                         number=n, repeat=3)) / n
print(json.dumps({{"first": first, "warm": warm, "from": df.built_from}}))
"""


def child(path: str, func: str, wrt: tuple[str, ...], cache: str) -> dict:
    code = CHILD.format(path=str(ROOT / path), func=func, wrt=wrt)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={
            "TANGENTLIKE_CACHE_DIR": cache,
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT / "samples"),
        },
    )
    return json.loads(out.stdout)


def main(repeats: int = 7) -> None:
    print(
        f"{'function':<12}{'cold ms':>10}{'disk ms':>10}{'warm us':>10}"
        f"{'cold/disk':>11}{'cold/warm':>11}"
    )
    for path, func, wrt in TARGETS:
        cold, disk, warm = [], [], []
        for _ in range(repeats):  # interleaved: cold then disk, each in a fresh process
            with tempfile.TemporaryDirectory() as cache:
                a = child(path, func, wrt, cache)
                b = child(path, func, wrt, cache)
            assert a["from"] == "transform" and b["from"] == "disk cache", (a, b)
            cold.append(a["first"])
            disk.append(b["first"])
            warm.append(a["warm"])
        c, d, w = (statistics.median(v) for v in (cold, disk, warm))
        print(
            f"{func:<12}{c * 1e3:>10.2f}{d * 1e3:>10.2f}{w * 1e6:>10.2f}"
            f"{c / d:>10.1f}x{c / w:>10.0f}x"
        )


if __name__ == "__main__":
    main()
