"""The generated module binds exactly the names its functions read, lint clean."""

from __future__ import annotations

import numpy as np
from reference import lint_problems, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

MASK = np.array([1.0, 0.0, 2.0])
SCALE = 0.5


def helper(z):
    return np.sin(z)


def f(x):
    return np.sum(helper(x) * MASK) * SCALE


def g(x):
    return np.sum(helper(x))
"""


def test_callee_is_not_imported_when_only_its_variants_are_used(tmp_path):
    module = load_module(tmp_path, SOURCE, name="emit_case_a")
    text = tl.grad(module.g).source
    assert "import helper" not in text and "_fwd_helper" in text
    for make in (tl.grad, tl.vjp, tl.value_and_grad):
        out = tmp_path / f"out_{make.__name__}.py"
        out.write_text(make(module.g).source)
        assert lint_problems(out, "F,I") == ""


def test_module_level_arrays_are_imported_from_their_module(tmp_path):
    module = load_module(tmp_path, SOURCE, name="emit_case_b")
    df = tl.grad(module.f)
    assert "from emit_case_b import MASK" in df.source
    assert "SCALE = 0.5" in df.source
    assert df.external == {}
    x = np.array([0.1, 0.2, 0.3])
    assert np.allclose(df(x), np.cos(x) * module.MASK * 0.5)


def test_objects_of_a_running_program_are_bound_by_the_loader():
    scale = np.array([2.0, 3.0])

    def f(x):
        return np.sum(x * scale)

    df = tl.grad(f)
    assert set(df.external) == {"scale"}
    assert "Bound by tangentlike when loaded" in df.source
    assert np.allclose(df(np.ones(2)), scale)
