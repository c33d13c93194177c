"""The CI gate of issue 10: a fixed batch of random programs gives no wrong gradient
and no crash, and most of them are differentiated rather than refused.

`python -m tests.fuzz --n 250 --seed 2024 --out DIR` shows what fails, with shrunk
reproductions. The bound on refusals keeps "refuse everything" from passing: at
most 55% of the programs with a reference may be refused. 48% are today: the
generator writes in place on purpose (two programs in three have an augmented
assignment, an `out=` or an index write), and most refusals are updates through an
alias that is read afterwards, writes into an argument (which would change the
caller's array), and index writes into arrays not yet recognised as arrays
(issue 13). Lower the bound as those land.
"""

from __future__ import annotations

from .runner import run

PROGRAMS = 250
SEED = 2024
MAX_REFUSED = 0.55


def test_random_programs_give_no_wrong_gradient_and_no_crash():
    summary = run(PROGRAMS, SEED, shrink_each=0, timeout=20.0)
    counts = summary.counts
    failures = "\n".join(
        f"{len(fails)}  {sig}  ({fails[0].program.name})"
        for sig, fails in summary.by_signature.items()
    )
    assert counts["wrong"] == 0 and counts["crash"] == 0, f"{summary.line()}\n{failures}"
    judged = counts["programs"] - counts["skipped"]
    assert counts["refused"] <= MAX_REFUSED * judged, summary.line()
