"""The rule registry loads its rule files lazily; threads asking at once all see every rule."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHILD = """
import json, sys, threading
sys.path.insert(0, {dir!r})
import numpy as np
import scipy.special  # its rules are deferred until it is imported, then loaded on first use
import tangentlike as tl
import target

errors, grads = [], []
start = threading.Barrier({n})

def one(i):
    start.wait()
    try:
        f = (target.f, target.g)[i % 2]
        grads.append(float(tl.grad(f, cache=False)(0.3)))
    except Exception as err:
        errors.append(f"{{type(err).__name__}}: {{err}}")

threads = [threading.Thread(target=one, args=(i,)) for i in range({n})]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({{"errors": errors, "grads": sorted(set(round(g, 12) for g in grads))}}))
"""

TARGET = """
import numpy as np
import scipy.special


def f(x):
    return np.sum(np.tanh(x) * np.exp(x)) + np.sin(x) ** 2


def g(x):
    return scipy.special.erf(x) * np.cos(x)
"""


@pytest.mark.parametrize("attempt", range(3))
def test_first_grads_from_many_threads_find_every_rule(tmp_path: Path, attempt: int) -> None:
    (tmp_path / "target.py").write_text(textwrap.dedent(TARGET))
    result = subprocess.run(
        [sys.executable, "-c", CHILD.format(dir=str(tmp_path), n=12)],
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
            "TANGENTLIKE_DISK_CACHE": "0",
        },
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["errors"] == []
    assert len(out["grads"]) == 2  # one value per function, whatever thread computed it
