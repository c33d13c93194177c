"""What building a derivative costs, before any call.

tangentlike (`tl.grad(f, wrt=...)`):
- cold: the in-memory cache cleared and the disk cache directory emptied before
  each build: parse, transform, emit, load.
- disk: the first `tl.grad` in a fresh interpreter whose disk cache holds the
  entry (hash check and load), timed inside the child so start-up is excluded.
- warm: a repeated `tl.grad` in the same process (the in-memory lookup).
- jit first call: `tl.grad(f, jit=True)` built cold and called once (numba compiles);
  jit cached: the same in a fresh process whose caches hold it (numba loads its cache).
Peers, for context: tangent-ad's cold build (its memory and disk caches cleared)
and jax.jit's first call (trace, compile, run; `jax.clear_caches()` before each).

    python -m benchmarks.transform --disk-child WORKLOAD   (what the suite runs for `disk`)
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

from .contenders import NotAvailable, Task
from .contenders.jax_peer import jax_jit
from .workloads import Workload

ROOT = Path(__file__).resolve().parent.parent


def empty_dir(path: str) -> None:
    for entry in os.scandir(path):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)


def _median(times: list[float]) -> float | None:
    return statistics.median(times) if times else None


def tangentlike_costs(w: Workload, repeats: int, fresh: int) -> dict:
    """Median seconds of a cold build, a disk load in a fresh process and a warm lookup."""
    import tangentlike as tl
    import tangentlike.gradients

    cache_dir = os.environ["TANGENTLIKE_CACHE_DIR"]
    cold = []
    for _ in range(repeats):
        tangentlike.gradients._cache.clear()
        empty_dir(cache_dir)
        start = time.perf_counter()
        tl.grad(w.f, wrt=w.wrt)
        cold.append(time.perf_counter() - start)
    disk = []
    for _ in range(fresh):
        child = _disk_in_fresh_process(w.name)
        if child.get("built_from") == "disk cache":
            disk.append(child["seconds"])
    tl.grad(w.f, wrt=w.wrt)
    number = 2000
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(number):
            tl.grad(w.f, wrt=w.wrt)
        warm.append((time.perf_counter() - start) / number)
    out = {"cold": _median(cold), "disk": _median(disk), "warm": min(warm)}
    out["jit_first_call"] = _tangentlike_jit_first_call(w, cache_dir)
    if out["jit_first_call"] is not None:  # numba's cache now holds it: a new process
        out["jit_cached_first_call"] = _disk_in_fresh_process(w.name, jit=True).get("seconds")
    return out


def _tangentlike_jit_first_call(w: Workload, cache_dir: str) -> float | None:
    import tangentlike as tl
    import tangentlike.gradients

    if "jit" not in inspect.signature(tl.grad).parameters:
        return None
    tangentlike.gradients._cache.clear()
    empty_dir(cache_dir)
    args = w.inputs("full")
    start = time.perf_counter()
    try:
        tl.grad(w.f, wrt=w.wrt, jit=True)(*args)
    except Exception:
        return None  # the timing table already says why it is n/a
    return time.perf_counter() - start


def _disk_in_fresh_process(name: str, jit: bool = False) -> dict:
    rest = os.environ.get("PYTHONPATH", "")
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.transform", "--disk-child", name]
        + (["--jit"] if jit else []),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT) + (os.pathsep + rest if rest else "")},
    )
    if out.returncode != 0:
        return {}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _disk_child(name: str, jit: bool = False) -> None:
    """Time the first tl.grad in this process (`jit`: also its first call, numba
    imported before the clock starts: start-up, not compilation)."""
    from . import workloads

    w = workloads.load([name])[0]
    import tangentlike as tl

    if jit:
        import tangentlike.jit.kernels  # numba imported: start-up, not compilation

        args = w.inputs("full")
        start = time.perf_counter()
        df = tl.grad(w.f, wrt=w.wrt, jit=True)
        df(*args)
    else:
        start = time.perf_counter()
        df = tl.grad(w.f, wrt=w.wrt)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "built_from": getattr(df, "built_from", "")}))


def tangent_ad_cold(w: Workload, repeats: int) -> float | None:
    """Median seconds of tangent.grad with its caches cleared; None if it is absent or fails."""
    try:
        import tangent
    except ImportError:
        return None
    cache_dir = os.environ.get("TANGENT_CACHE_DIR")
    times = []
    for _ in range(repeats):
        tangent.clear_cache()
        if cache_dir:
            empty_dir(cache_dir)
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():  # its generated code trips SyntaxWarnings
                warnings.simplefilter("ignore")
                tangent.grad(w.f, wrt=w.wrt, verbose=0)
        except Exception:
            return None
        times.append(time.perf_counter() - start)
    return _median(times)


def jax_jit_first_call(w: Workload, repeats: int) -> float | None:
    """Median seconds of the first call of a fresh jax.jit gradient, caches cleared."""
    try:
        import jax
    except ImportError:
        return None
    times = []
    for _ in range(repeats):
        jax.clear_caches()
        start = time.perf_counter()
        try:
            jax_jit(Task(w, w.inputs("full"), "grad"))  # builds, then calls once
        except NotAvailable:
            return None
        times.append(time.perf_counter() - start)
    return _median(times)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--disk-child"]:
        _disk_child(sys.argv[2], jit="--jit" in sys.argv[3:])
