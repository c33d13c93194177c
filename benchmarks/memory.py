"""Peak memory of one gradient call, each contender in a fresh process.

    python -m benchmarks.memory WORKLOAD CONTENDER     (what the suite runs per pair)

In a new interpreter: build the contender, call it twice (caches, compilation),
then measure one more call two ways:
- traced: the peak of tracemalloc's traced memory during the call. NumPy reports
  its array buffers to tracemalloc, so for NumPy-based contenders this is the
  most Python objects + arrays held at once (the result included). Torch, XLA and
  numba allocate outside it: for them this number means nothing.
- rss: the rise of the process's peak resident set (VmHWM, reset through
  /proc/self/clear_refs just before the call) over the resident set before it,
  after `malloc_trim(0)` has handed the free memory of earlier calls back to the
  OS (so reused memory is touched anew and counted). Comparable across
  libraries, but rounded to pages, and a library that keeps its own pool (XLA
  may) can still reuse it unseen: a lower bound. Linux with glibc only (None
  elsewhere).
The suite shows `traced` for NumPy-based contenders and `rss` for the others.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Contenders whose arrays tracemalloc sees (NumPy buffers).
TRACED = frozenset({"hand-written", "f alone", "tangentlike", "autograd", "tangent-ad"})


def _status_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _trim_heap() -> None:
    """Return freed heap memory to the OS (glibc), so the next call's pages count again."""
    name = ctypes.util.find_library("c")
    if name:
        trim = getattr(ctypes.CDLL(name), "malloc_trim", None)
        if trim is not None:
            trim(0)


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def measure(workload: str, contender: str) -> dict:
    """Both peaks, in bytes, of one call (run inside the fresh process)."""
    from . import workloads
    from .contenders import KINDS, NotAvailable, Task

    w = workloads.load([workload])[0]
    adapter = dict(KINDS["grad"])[contender]
    try:
        prepared = adapter(Task(w, w.inputs("full"), "grad"))
    except NotAvailable as err:
        return {"status": "n/a", "reason": str(err)}
    for _ in range(2):
        prepared.call()
    gc.collect()
    _trim_heap()
    rss = None
    before = _status_kb("VmRSS")
    if before is not None and _reset_peak():
        prepared.call()
        peak = _status_kb("VmHWM")
        rss = None if peak is None else max(0, peak - before) * 1024
    gc.collect()
    tracemalloc.start()
    prepared.call()
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"status": "ok", "traced": traced, "rss": rss}


def in_fresh_process(workload: str, contender: str, timeout_s: float = 600.0) -> dict:
    """`measure` in a new interpreter with this one's environment."""
    try:
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.memory", workload, contender],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": _pythonpath()},
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired:
        return {"status": "error", "reason": f"timed out after {timeout_s:.0f} s"}
    if out.returncode != 0:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "reason": tail[:200]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _pythonpath() -> str:
    rest = os.environ.get("PYTHONPATH", "")
    return str(ROOT) + (os.pathsep + rest if rest else "")


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2])))
