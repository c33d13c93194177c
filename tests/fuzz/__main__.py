"""python -m tests.fuzz --n 5000 --seed 0 --out fuzz-out"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import masks
from .classify import MODES
from .runner import print_progress, run
from .second_order import SECOND_ORDER


def _masks(spec: str) -> tuple[str, ...]:
    try:
        return masks.names(spec)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz",
        description="Differential random-program tester: tangentlike vs finite differences "
        "and autograd.",
    )
    parser.add_argument("--n", type=int, default=200, help="how many programs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="first program index")
    parser.add_argument("--out", type=Path, default=None, help="directory for reproductions")
    parser.add_argument("--shrink", type=int, default=6, help="failures shrunk per kind")
    parser.add_argument("--shrink-seconds", type=float, default=30.0, help="per failure")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per program")
    parser.add_argument("--constructs", type=int, default=None, help="rows of the table")
    parser.add_argument(
        "--mask",
        type=_masks,
        default=(),
        help="rewrite known bug classes out of every program first: 'all' or some of "
        + ", ".join(masks.MASKS),
    )
    parser.add_argument(
        "--mode",
        choices=sorted([*MODES, "hvp"]),
        default="reverse",
        help="how tangentlike differentiates: reverse (value_and_grad), forward "
        "(tl.jacobian in forward mode: vector tangents, one per input entry) or hvp "
        "(tl.hvp against second differences of f)",
    )
    args = parser.parse_args(argv)
    summary = run(
        args.n,
        args.seed,
        args.out,
        start=args.start,
        shrink_each=args.shrink,
        shrink_seconds=args.shrink_seconds,
        timeout=args.timeout,
        progress=print_progress(max(args.n // 20, 10)),
        masks=args.mask,
        differentiate=SECOND_ORDER if args.mode == "hvp" else MODES[args.mode],
    )
    print(summary.line())
    print()
    print(summary.construct_table(args.constructs))
    print()
    print("failure kinds (wrong and crash):")
    print(summary.failure_kinds() or "  none")
    print()
    print("shrunk failures by signature and constructs:")
    print(summary.family_list() or "  none")
    print()
    print("refusals:")
    for signature, count in summary.refusals.most_common():
        print(f"{count:5d}  {signature}")
    print("skipped:")
    for reason, count in summary.skips.most_common():
        print(f"{count:5d}  {reason}")
    if args.out is not None:
        print(f"\nreproductions and summary.json in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
