"""tangentlike's benchmark suite: every contender against an expert's hand-written gradient.

    make bench                          (python -m benchmarks.suite)
    python -m benchmarks.suite --quick  (a smoke run: few rounds, no memory)
    python -m benchmarks.suite --only mlp,rnn --kinds grad --json run.json

For each workload (benchmarks/workloads/) and each measurement kind (grad, jvp,
hvp, hessian; benchmarks/contenders/), every contender is built, checked
against the hand-written reference (a mismatch is printed and excluded), then
all are timed interleaved in one process, in rotating order, and each gets the
median of its per-round time ratios to the baseline. The geometric mean over
workloads summarises a contender. Then the cost of building tangentlike's
gradient (cold, disk, warm) beside tangent-ad's build and jax.jit's first call,
and the peak memory of one call per contender, each in a fresh process.

Every library runs on one thread (BLAS, XLA, torch) unless the environment
says otherwise: on a shared 2-core machine threads fighting for cores turn
ratios into noise. benchmarks/README.md explains every column.
"""

from __future__ import annotations

import os
import tempfile


def configure_environment() -> str:
    """One thread per library and private, empty caches; returns the cache root to remove.

    Runs before NumPy, JAX or torch load (thread settings are read at load time).
    Cold builds must really transform, and nothing is left behind.
    """
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    os.environ.setdefault(
        "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    root = tempfile.mkdtemp(prefix="tangentlike-suite-")
    for var, sub in (("TANGENTLIKE_CACHE_DIR", "tangentlike"), ("TANGENT_CACHE_DIR", "tangent-ad")):
        os.environ[var] = os.path.join(root, sub)
        os.makedirs(os.environ[var])
    return root


# Run as a script: configured before the imports below load NumPy. Imported (tests): untouched.
_CACHE_ROOT = configure_environment() if __name__ == "__main__" else None

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from importlib import metadata  # noqa: E402

import numpy as np  # noqa: E402

from . import checks, memory, report, timing, transform, workloads  # noqa: E402
from .contenders import (  # noqa: E402
    BASELINE,
    BASELINE_MEANS,
    CONTEXT,
    KINDS,
    NotAvailable,
    Task,
)
from .contenders.common import Adapter  # noqa: E402


def build_task(w: workloads.Workload, kind: str, seed: int, size: str = "full") -> Task:
    args = w.inputs(size)
    if kind not in ("jvp", "hvp"):
        return Task(w, args, kind)
    x = args[w.wrt[0]]
    probe = np.random.default_rng(seed).standard_normal(np.shape(x))
    return Task(w, args, kind, float(probe) if isinstance(x, float) else probe)


def measure_workload(task: Task, rows: list[tuple[str, Adapter]], settings: dict) -> dict:
    """Build, check and time each (name, adapter) of `rows` on one task; rows[0] is the
    baseline. Returns, per name, its status (ok, context, n/a, wrong, error), reason,
    median seconds per call and ratio to the baseline (median and quartiles)."""
    out: dict[str, dict] = {}
    ready = {}
    ref = checks.reference(task)
    for name, adapter in rows:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prepared = adapter(task)
                values = prepared.as_numpy(prepared.call())
        except NotAvailable as err:
            out[name] = {"status": "n/a", "reason": str(err)}
            continue
        except Exception as err:  # a contender that crashes on a call: shown, never fatal
            out[name] = {"status": "error", "reason": f"{type(err).__name__}: {err}"[:200]}
            continue
        if name in CONTEXT:
            out[name] = {"status": "context"}
        elif name == rows[0][0] and task.kind in ("jvp", "hvp"):
            out[name] = {"status": "ok"}  # the gradient: the unit of time, not a J t or H v
        else:
            err = checks.disagreement(values, ref)
            if err > ref.rtol:
                print(
                    f"  !!! {name} on {task.workload.name} ({task.kind}) DISAGREES with the "
                    f"hand-written reference: relative error {err:.3g} > {ref.rtol:g}; "
                    "excluded from timing",
                    flush=True,
                )
                out[name] = {"status": "wrong", "reason": f"relative error {err:.3g}"}
                continue
            out[name] = {"status": "ok", "error": err}
        ready[name] = prepared.call
    if rows[0][0] not in ready:
        return out  # no baseline, no ratios: the statuses say why
    times = timing.interleaved(ready, settings["rounds"], settings["batch_s"], settings["budget_s"])
    for name, t in times.items():
        r = timing.ratio(t, times[rows[0][0]])
        out[name].update(
            seconds=float(np.median(t)),
            rounds=len(t),
            ratio={"median": r.median, "q1": r.q1, "q3": r.q3},
        )
    return out


def run_kind(
    kind: str, selected: list, rows: list[tuple[str, Adapter]], settings: dict, size: str = "full"
) -> dict:
    """One measurement kind over the selected workloads: per-workload entries and the
    geometric mean of each contender's ratios over the workloads where it ran."""
    names = [name for name, _ in rows]
    section = {
        "contenders": names,
        "baseline_means": BASELINE_MEANS[kind],
        "workloads": {},
        "geomean": {},
    }
    rounds_seen = []
    for seed, w in enumerate(selected):
        if kind == "hessian" and w.hessian_by_hand is None:
            continue
        start = time.perf_counter()
        per = measure_workload(build_task(w, kind, seed, size), rows, settings)
        section["workloads"][w.name] = {"contenders": per}
        rounds_seen += [e["rounds"] for e in per.values() if "rounds" in e]
        summary = ", ".join(f"{n} {report.cell(e)}" for n, e in per.items() if n != BASELINE)
        print(f"  {kind} {w.name} ({time.perf_counter() - start:.0f} s): {summary}", flush=True)
    for name in names[1:]:
        ratios = [
            entry["contenders"][name]["ratio"]["median"]
            for entry in section["workloads"].values()
            if entry["contenders"][name]["status"] in ("ok", "context")
        ]
        section["geomean"][name] = {
            "value": timing.geometric_mean(ratios),
            "count": len(ratios),
            "of": len(section["workloads"]),
        }
    lo, hi = (min(rounds_seen), max(rounds_seen)) if rounds_seen else (0, 0)
    section["rounds_note"] = f"{lo} rounds" if lo == hi else f"{lo}-{hi} rounds"
    return section


def run(
    selected: list, kinds: list[str], contenders: set[str], settings: dict, quick: bool
) -> dict:
    result: dict = {"meta": meta(settings, quick), "kinds": {}, "transform": {}, "memory": {}}
    for kind in kinds:
        print(f"{kind}:", flush=True)
        rows = [(name, adapter) for name, adapter in KINDS[kind] if name in contenders]
        result["kinds"][kind] = run_kind(kind, selected, rows, settings)
    if settings["transform"]:
        print("building costs:", flush=True)
        for w in selected:
            repeats = 3 if quick else 11
            costs = transform.tangentlike_costs(w, repeats, fresh=1 if quick else 5)
            if "tangent-ad" in contenders:
                costs["tangent_ad_cold"] = transform.tangent_ad_cold(w, 1 if quick else 3)
            if "jax.jit" in contenders:
                costs["jax_jit_first_call"] = transform.jax_jit_first_call(w, 1 if quick else 3)
            result["transform"][w.name] = costs
            print(f"  {w.name}: tl cold {report.fmt_seconds(costs['cold'])}", flush=True)
    if settings["memory"] and "grad" in result["kinds"]:
        print("memory (a fresh process per contender):", flush=True)
        grad = result["kinds"]["grad"]
        for wname, entry in grad["workloads"].items():
            result["memory"][wname] = {
                name: memory.in_fresh_process(wname, name)
                for name, e in entry["contenders"].items()
                if e["status"] in ("ok", "context")
            }
            print(f"  {wname} done", flush=True)
    return result


def meta(settings: dict, quick: bool) -> dict:
    versions = {"python": platform.python_version()}
    for package in ("numpy", "tangentlike", "autograd", "tangent-ad", "torch", "jax"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "absent"
    threads = ", ".join(
        f"{v}={os.environ[v]}"
        for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
        if v in os.environ
    )
    return {
        "commit": _commit(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "versions": versions,
        "cpus": os.cpu_count(),
        "threads": threads or "default threads",
        "mode": "quick" if quick else "full",
        "settings": settings,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": platform.machine(),
    }


def _commit() -> str:
    """The repository's commit (with + when the work tree differs), or '' outside git."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return ""
    return head + ("+" if head and dirty else "")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.suite", description=__doc__.split("\n")[0]
    )
    p.add_argument("--quick", action="store_true", help="smoke run: 3 rounds, no memory")
    p.add_argument("--only", help="workloads, comma-separated (default: all)")
    p.add_argument("--kinds", default="grad,jvp,hvp,hessian", help="measurements to run")
    p.add_argument("--contenders", help="contenders, comma-separated (the baseline always runs)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 21, quick 3)")
    p.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    p.add_argument("--no-transform", action="store_true", help="skip the build-cost measurement")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    selected = workloads.load(args.only.split(",") if args.only else workloads.NAMES)
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise SystemExit(f"unknown kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    every = {name for rows in KINDS.values() for name, _ in rows}
    contenders = every if not args.contenders else {BASELINE, *args.contenders.split(",")}
    if contenders - every:
        raise SystemExit(f"unknown contender(s) {', '.join(sorted(contenders - every))}")
    settings = {
        "rounds": args.rounds or (3 if args.quick else 21),
        "batch_s": 0.01 if args.quick else 0.05,
        "budget_s": 5.0 if args.quick else 30.0,
        "memory": not (args.quick or args.no_memory),
        "transform": not args.no_transform,
    }
    try:
        result = run(selected, kinds, contenders, settings, args.quick)
    finally:
        if _CACHE_ROOT is not None:
            shutil.rmtree(_CACHE_ROOT, ignore_errors=True)
    print()
    print(report.render(result))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1)
        print(f"\nresults written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
