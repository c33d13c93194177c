"""A value saved only so that it can be put back (a parameter rebound in a loop whose
gradient is zero: the final gradient reads its original value for the shape) is put
back inside the branch and loop that overwrote it: that restore reads the branch's test
and the loop's trip count, which must then be saved per iteration too.

Before the saved sites were chosen to a fixpoint, the restore read the last iteration's
test: the stack went out of step and `y` came back as a number (a silent wrong gradient
in plain mode)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

BODIES = {
    "break": ["if e > 2.0:", "    break", "x = e"],
    "continue": ["if e > 2.0:", "    continue", "x = e"],
    "if": ["if e > 2.0:", "    x = e"],
    "if-else": ["if e > 2.0:", "    x = e", "else:", "    x = e * 2.0"],
    "two-ifs": ["if e > 0.5:", "    if e < 2.5:", "        x = e"],
}
LOOPS = {
    "for": ["for e in y:"],
    "while": ["k = 0", "while k < 3:", "    e = y[k]", "    k = k + 1"],
}


def _source(body: str, loop: str) -> str:
    lines = ["for i in range(2):", "    y = y * 1.5"]
    head = LOOPS[loop]
    lines += ["    " + line for line in head]
    lines += ["        " + line for line in BODIES[body]]
    lines.append("return np.sum(y)")
    text = "\n".join("    " + line for line in lines)
    return f"import numpy as np\n\n\ndef f(x, y):\n{text}\n"


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("body", BODIES)
def test_a_restore_in_a_branch_reads_that_iterations_test(tmp_path, body, loop):
    f = load_module(tmp_path, _source(body, loop)).f
    df = tl.grad(f, wrt=(0, 1))
    for y in ([1.0, 3.0, 0.2], [0.1, 0.4, 2.7], [2.2, 2.4, 2.6]):
        x, y = 0.5, np.array(y)
        gx, gy = df(x, y)
        assert gx == 0.0 and np.shape(gy) == (3,)
        np.testing.assert_allclose(gy, autograd_grad(f, [x, y], 1), rtol=1e-12)
        check_against_fd(f, gy, [x, y], 1)
