"""Random programs of nested control flow (tests/control_programs.py: if/elif/else,
for and while loops with break, continue, else blocks and early returns): the compiled
gradient equals the Python adjoint's on each path (numba absent: skipped)."""

from __future__ import annotations

import numpy as np
import pytest
from control_programs import program
from reference import load_module

import tangentlike as tl

pytest.importorskip("numba")

# seeds whose programs walk a range by index (a loop with break) or test a flag
# restored before its first assignment, and a few others
SEEDS = [3, 9, 13, 21, 27, 5]
ARRAY_SEEDS = [2, 7]


@pytest.mark.parametrize(
    ("seed", "arrays"), [(s, False) for s in SEEDS] + [(s, True) for s in ARRAY_SEEDS]
)
def test_compiled_control_flow_matches_python(tmp_path, seed, arrays):
    m = load_module(tmp_path, program(seed, arrays))
    rng = np.random.default_rng(seed)
    dj = tl.grad(m.f, wrt=(0, 1), jit=True)
    for _ in range(3):
        if arrays:
            x, y = rng.standard_normal(3), rng.standard_normal(3)
        else:
            x, y = float(rng.standard_normal()), float(rng.standard_normal())
        n = int(rng.integers(0, 5))
        got = dj(x, y, n)
        expected = tl.grad(m.f, wrt=(0, 1))(x, y, n)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12)
