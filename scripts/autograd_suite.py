"""Re-run autograd's own gradient tests against tangentlike and count the outcomes.

    python scripts/autograd_suite.py [--version 1.9.1] [--json out.json] [-k EXPR] [--order 2]

Downloads autograd's source distribution (its tests are not in the wheel) with pip into
a cache directory, runs its tests with scripts/autograd_suite_plugin.py (which replaces
`check_grads` by a tangentlike check: see its docstring) and prints, per test file and
in total, how many of the tests that check gradients pass with tangentlike (every
check of the test ok), and the reasons of the others. A measurement, not a test: the
project's tests never download anything.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def autograd_tests(version: str, cache: Path) -> Path:
    """The tests directory of autograd `version`'s sdist, downloaded once into `cache`."""
    root = cache / f"autograd-{version}"
    if not (root / "tests").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", f"autograd=={version}", "--no-binary",
             ":all:", "--no-deps", "-q", "-d", str(cache)],
            check=True,
        )  # fmt: skip
        with tarfile.open(cache / f"autograd-{version}.tar.gz") as archive:
            archive.extractall(cache, filter="data")
    return root / "tests"


def verdict(calls: list[dict]) -> str:
    """A test's outcome from its checks: out of scope if none is in scope, else the
    worst of them (crash > wrong > refused > ok)."""
    kinds = {c["outcome"] for c in calls} - {"out of scope"}
    for kind in ("crash", "wrong", "refused", "ok"):
        if kind in kinds:
            return kind
    return "out of scope"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="1.9.1")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "tl-peer-suites"))
    parser.add_argument("--json", help="write every check's outcome here")
    parser.add_argument("-k", help="pytest -k expression")
    parser.add_argument(
        "--order", type=int, choices=(1, 2), default=1,
        help="2: differentiate the generated gradient again (where order 1 passes)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    tests = autograd_tests(args.version, Path(args.cache))
    out = Path(args.json or tempfile.mktemp(suffix=".json"))
    env = dict(os.environ, TL_AUTOGRAD_OUT=str(out), TL_AUTOGRAD_ORDER=str(args.order))
    paths = [str(HERE), str(HERE.parent), env.get("PYTHONPATH")]  # this tangentlike first
    env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "autograd_suite_plugin",
        "-p",
        "no:cacheprovider",
        "--tb=no",
        "-c",
        os.devnull,
        "--rootdir",
        str(tests),
        str(tests),
    ]  # fmt: skip (autograd's own config requires plugins)
    if args.k:
        command += ["-k", args.k]
    ran = subprocess.run(command, env=env, cwd=tests, capture_output=True, text=True)
    if not out.exists():
        sys.exit(f"the test run wrote no results:\n{ran.stdout[-3000:]}{ran.stderr[-3000:]}")
    results = json.loads(out.read_text())
    by_file: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    reasons: collections.Counter = collections.Counter()
    for test, calls in results.items():
        kind = verdict(calls)
        by_file[test.split("::")[0]][kind] += 1
        for c in calls:
            if c["outcome"] in ("refused", "crash", "wrong"):
                reasons[f"{c['outcome']}: {c['why'][:110]}"] += 1
    total: collections.Counter = sum(by_file.values(), collections.Counter())
    kinds = ("ok", "refused", "wrong", "crash", "out of scope")
    print(f"{'file':28} " + " ".join(f"{k:>12}" for k in kinds))
    for name, counts in sorted(by_file.items()):
        print(f"{name:28} " + " ".join(f"{counts[k]:>12}" for k in kinds))
    print(f"{'total':28} " + " ".join(f"{total[k]:>12}" for k in kinds))
    scope = sum(total[k] for k in kinds[:4])
    print(f"\ntests that check gradients, in scope: {scope}; pass with tangentlike: "
          f"{total['ok']} ({100 * total['ok'] / max(scope, 1):.1f}%)")  # fmt: skip
    print("\nmost common reasons (per check):")
    for why, n in reasons.most_common(40):
        print(f"{n:5}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
