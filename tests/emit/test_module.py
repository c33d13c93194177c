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


def test_helpers_used_by_helpers_never_take_a_name_the_program_uses(tmp_path):
    """add_item calls the runtime's add, BinomialPlan derives from Plan: when the user's
    module has its own add and Plan, the copies get other names, and the user's stay."""
    module = load_module(
        tmp_path,
        "import numpy as np\nimport tangentlike as tl\n\n"
        "class Plan:\n    scale = 3.0\n\n"
        "def add(a, b):\n    return a * 10.0 + b\n\n"
        "def f(params, h, n):\n"
        "    k = add(float(n), 1.0) * Plan.scale\n"
        "    for _ in tl.checkpointed(range(n), snapshots=2):\n"
        "        h = np.tanh(h * params['W'])\n"
        "    return np.sum(params['W'] * k) + np.sum(h)\n",
        name="helper_clash",
    )
    params, h = {"W": np.array([0.5, -0.2])}, np.array([0.3, 0.1])
    df = tl.grad(module.f)
    got = df(params, h, 2)["W"]
    eps = 1e-6
    want = [
        (
            module.f({"W": params["W"] + eps * e}, h, 2)
            - module.f({"W": params["W"] - eps * e}, h, 2)
        )
        / (2 * eps)
        for e in np.eye(2)
    ]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert "def add_2(" in df.source and "class Plan_2:" in df.source
    assert "class BinomialPlan(Plan_2):" in df.source
    assert not lint_problems(df.source)
