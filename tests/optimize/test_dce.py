"""Dead code: unused pure values are dropped, side effects and returned values stay."""

from __future__ import annotations

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
