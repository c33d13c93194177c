"""Run a batch: generate programs i = start .. start + n - 1 of a seed, classify each
under a time limit, shrink the first few failures of each kind, write reproductions.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .classify import Differentiate, Outcome, crash, evaluate
from .constructs import constructs
from .generator import generate
from .masks import mask
from .program import Program
from .report import FAILURES, Failure, Summary, write_failure
from .second_order import SECOND_ORDER, evaluate_hvp
from .shrink import shrink


def check(
    program: Program,
    workdir: Path,
    timeout: float,
    differentiate: Differentiate | None = None,
    use_autograd: bool = True,
) -> Outcome:
    try:
        if differentiate is SECOND_ORDER:
            return evaluate_hvp(program, workdir, timeout)
        return evaluate(program, workdir, differentiate, use_autograd, timeout)
    except RecursionError as e:
        return crash(e, None)
    except Exception as e:  # the tester's own failure: counted, never fatal to a run
        return Outcome("skipped", f"tester error: {type(e).__name__}: {e}"[:200], "tester error")


def run(
    n: int,
    seed: int,
    out: Path | None = None,
    *,
    start: int = 0,
    shrink_each: int = 2,
    shrink_seconds: float = 30.0,
    timeout: float = 20.0,
    progress: Callable[[int, Summary], None] | None = None,
    differentiate: Differentiate | None = None,
    masks: tuple[str, ...] = (),
) -> Summary:
    """Classify n programs; shrink the first `shrink_each` failures of each signature and
    write every failure to `out` (when given) as a standalone reproduction. `masks`
    rewrite known bug classes out of every program first (see `masks`)."""
    summary = Summary()
    workdir = Path(tempfile.mkdtemp(prefix="tangentlike-fuzz-"))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for index in range(start, start + n):
        program = generate(seed, index)
        if masks:
            source = mask(program.source, masks)
            program = replace(program, source=source, tags=frozenset(constructs(source)))
        outcome = check(program, workdir, timeout, differentiate)
        summary.add(program, outcome)
        if outcome.kind in FAILURES:
            failure = Failure(program, outcome)
            known = summary.by_signature[outcome.signature]
            if shrink_each and len(known) < shrink_each:
                failure.shrunk, failure.shrunk_outcome = shrink(
                    program,
                    outcome,
                    lambda p: check(p, workdir, min(timeout, 5.0), differentiate, False),
                    seconds=shrink_seconds,
                )
            if out is not None:
                failure.path = write_failure(out, failure)
            summary.add_failure(failure)
        if progress is not None:
            progress(index, summary)
    if out is not None:
        summary.write(out)
    return summary


def print_progress(every: int) -> Callable[[int, Summary], None]:
    def show(index: int, summary: Summary) -> None:
        if (index + 1) % every == 0:
            print(f"[{index + 1}] {summary.line()}", file=sys.stderr, flush=True)

    return show
