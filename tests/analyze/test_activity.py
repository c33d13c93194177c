"""Activity: only what depends on wrt AND reaches the output gets an adjoint."""

from __future__ import annotations

from reference import load_module

from tangentlike.parse.source import parse_function
from tangentlike.pipeline import ModuleBuilder
from tangentlike.rules.registry import default_registry

SOURCE = """
import numpy as np


def f(x, w, n):
    k = x.shape[0]
    count = 0
    for i in range(n):
        count = count + 1
    mask = x > 0
    unused = np.exp(x)
    scale = w * 2.0
    y = np.where(mask, x, 0.0) * scale / k
    return np.sum(y) + count
"""


def active(tmp_path, wrt):
    module = load_module(tmp_path, SOURCE)
    ctx, _ = ModuleBuilder(default_registry())._prepare(parse_function(module.f), wrt)
    return sorted(n for n in ctx.activity.active if not n.startswith("_"))


def test_counters_shapes_flags_and_dead_values_are_inactive(tmp_path):
    assert active(tmp_path, ("x",)) == ["f", "x", "y"]
    assert active(tmp_path, ("w",)) == ["f", "scale", "w", "y"]
    assert active(tmp_path, ("x", "w")) == ["f", "scale", "w", "x", "y"]
