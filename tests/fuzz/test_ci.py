"""The CI gate of issue 10: a fixed batch of random programs gives no wrong gradient
and no crash, and most of them are differentiated rather than refused.

`python -m tests.fuzz --n 250 --seed 2024 --out DIR` shows what fails, with shrunk
reproductions. The bound on refusals keeps "refuse everything" from passing: at
most 45% of the programs with a reference may be refused (about 28% are today,
most of them container writes and aliases the generator makes on purpose).
"""

from __future__ import annotations

import pytest

from .runner import run

PROGRAMS = 250
SEED = 2024
MAX_REFUSED = 0.45


@pytest.mark.xfail(reason="enabled when the issue-10 fixes land", strict=False)
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
