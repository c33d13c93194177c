"""Dead code: unused pure values are dropped, side effects and returned values stay."""

from __future__ import annotations

import gast
import numpy as np
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f(x):
    unused = np.exp(x) * 2.0
    print("value", np.sum(x))
    return np.sum(np.sin(x))
"""


def test_unused_values_are_dropped_and_prints_kept(tmp_path, capsys):
    module = load_module(tmp_path, SOURCE)
    df = tl.grad(module.f)
    assert "unused" not in df.source and "print(" in df.source
    x = np.array([0.1, 0.2])
    assert np.allclose(df(x), np.cos(x))
    assert capsys.readouterr().out.count("value") == 1  # side effect once, not twice


def test_optimize_false_keeps_everything(tmp_path):
    module = load_module(tmp_path, SOURCE)
    assert "unused = " in tl.grad(module.f, optimize=False).source


def test_an_update_in_place_keeps_what_it_updates(tmp_path):
    """`b *= m` reads b: the assignment of b stays while the update is live, and both go
    when b is dead (a helper whose parameter is rebound before its use)."""
    from tangentlike.optimize.dce import drop_dead_assignments

    def dce(source: str, live: set[str]) -> list[str]:
        body = gast.parse(source).body
        kept = drop_dead_assignments(body, live, lambda value: True)
        return [type(s).__name__ for s in kept]

    code = "b = g * 2.0\nb *= 1.5\nout = b\n"
    assert dce(code, {"out"}) == ["Assign", "AugAssign", "Assign"]
    assert dce(code, set()) == []

    module = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef h(p0, p1):\n    p0 = np.sin(p1) * 2.0\n"
        "    u = np.tanh(1.5 * p0)\n    return u\n\n\n"
        "def f(x):\n    s = x * 1.0\n    for _ in range(2):\n        s = s + h(s, 1.0)\n"
        "    return np.sum(s)\n",
    )
    df = tl.grad(module.f)
    assert "*=" not in df.source.split("def _bwd_h")[1].split("\ndef ")[0]
    assert np.allclose(df(np.array([0.3, -0.2])), 1.0)
