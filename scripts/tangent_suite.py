"""Re-run Google Tangent's own gradient tests against tangentlike and count the outcomes.

    python scripts/tangent_suite.py [--source URL|PATH] [--commit SHA] [--short]
                                    [--json out.json] [-k EXPR] [--order 2]

Tangent's tests are in neither its wheel nor its sdist (`tangent` 0.1.9 ships the
package only; `tangent-ad` ships its own, different tests without the corpus), so this
clones its repository (`--source`, by default https://github.com/google/tangent; a
local clone or mirror works too) at a pinned commit into a cache directory, once. It
runs the four test files that differentiate functions: test_reverse_mode.py,
test_forward_mode.py, test_hessian_vector_products.py and test_reverse_over_reverse.py
(their corpus is functions.py), with scripts/tangent_suite_plugin.py, which puts
tangentlike behind Tangent's API (scripts/tangent_suite_shim.py) and classifies each
test: see its docstring. The other files test Tangent's internals (test_anf, test_cfg,
test_template, test_transformers, ...: its ANF, CFG, templates, optimiser, compiler) and
are out of scope. `--short` is Tangent's own quick run (one value per argument instead
of ten scalars, three vector and two matrix sizes). A measurement, not a test: the
project's tests never download anything.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMMIT = "6533e83af09de7345d1b438512679992f080dcc9"  # google/tangent master, 2018
FILES = (
    "test_reverse_mode.py",
    "test_forward_mode.py",
    "test_hessian_vector_products.py",
    "test_reverse_over_reverse.py",
)
KINDS = ("ok", "refused", "wrong", "crash", "out of scope")


def tangent_tests(source: str, commit: str, cache: Path) -> Path:
    """The tests directory of Tangent at `commit`, cloned once into `cache`."""
    root = cache / f"tangent-{commit[:12]}"
    if not (root / "tests" / "functions.py").is_file():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", "--no-checkout", source, str(root)], check=True)
        checkout = ["git", "-C", str(root), "checkout", "-q", commit, "--", "tests"]
        subprocess.run(checkout, check=True)  # the tests only: no need for the docs' GIFs
    return root / "tests"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="https://github.com/google/tangent")
    parser.add_argument("--commit", default=COMMIT)
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "tl-peer-suites"))
    parser.add_argument("--json", help="write every test's outcome here")
    parser.add_argument("-k", help="pytest -k expression")
    parser.add_argument("--short", action="store_true", help="Tangent's quick run")
    parser.add_argument(
        "--order", type=int, choices=(1, 2), default=1,
        help="2: differentiate the generated derivatives again (where order 1 passes)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    tests = tangent_tests(args.source, args.commit, Path(args.cache))
    out = Path(args.json or tempfile.mktemp(suffix=".json"))
    env = dict(os.environ, TL_TANGENT_OUT=str(out), TL_TANGENT_ORDER=str(args.order))
    paths = [str(HERE), str(HERE.parent), env.get("PYTHONPATH")]  # this tangentlike first
    env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "tangent_suite_plugin",
        "-p", "no:cacheprovider", "--tb=no", "-c", os.devnull, "--rootdir", str(tests),
        *FILES,
    ]  # fmt: skip
    if args.k:
        command += ["-k", args.k]
    if args.short:
        command.append("--short")
    ran = subprocess.run(command, env=env, cwd=tests, capture_output=True, text=True)
    if not out.exists():
        sys.exit(f"the test run wrote no results:\n{ran.stdout[-3000:]}{ran.stderr[-3000:]}")
    report(json.loads(out.read_text()))
    return 0


def report(results: dict[str, dict]) -> None:
    """Counts per test function and in total, and the commonest reasons."""
    by_test: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    reasons: collections.Counter = collections.Counter()
    for test, r in results.items():
        by_test[test.split("[")[0]][r["outcome"]] += 1
        if r["outcome"] != "ok":
            reasons[f"{r['outcome']}: {r.get('why', '')[:110]}"] += 1
    total: collections.Counter = sum(by_test.values(), collections.Counter())
    print(f"{'test':56} " + " ".join(f"{k:>8}" for k in KINDS))
    for name, counts in sorted(by_test.items()):
        print(f"{name[-56:]:56} " + " ".join(f"{counts[k]:>8}" for k in KINDS))
    print(f"{'total':56} " + " ".join(f"{total[k]:>8}" for k in KINDS))
    scope = sum(total[k] for k in KINDS[:4])
    print(f"\ntests in scope: {scope}; pass with tangentlike: "
          f"{total['ok']} ({100 * total['ok'] / max(scope, 1):.1f}%)")  # fmt: skip
    print("\nmost common reasons:")
    for why, n in reasons.most_common(40):
        print(f"{n:6}  {why}")


if __name__ == "__main__":
    sys.exit(main())
