"""Random straight-line and looping programs from a small grammar, against finite differences."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from reference import check_against_fd, load_module

import tangentlike as tl

UNARY = [
    "np.sin({})",
    "np.cos({})",
    "np.tanh({})",
    "np.exp(0.3 * {})",
    "({} * {})",
    "np.sqrt({} * {} + 1.0)",
    "np.log1p({} * {})",
    "-{}",
    "np.abs({})",
]
BINARY = [
    "({} + {})",
    "({} - {})",
    "({} * {})",
    "({} / ({} * {} + 1.0))",
    "np.maximum({}, {})",
    "np.where({} > 0.0, {}, 0.5 * {})",
]
LEAVES = ["x", "y", "1.5", "x[0]", "np.sum(y)"]

_ids = itertools.count()


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(LEAVES))
    if draw(st.booleans()):
        template = draw(st.sampled_from(UNARY))
        arg = draw(expressions(depth=depth - 1))
        return template.format(*[arg] * template.count("{}"))
    template = draw(st.sampled_from(BINARY))
    a = draw(expressions(depth=depth - 1))
    b = draw(expressions(depth=depth - 1))
    args = [a, b, b] if template.count("{}") == 3 else [a, b]
    if template.startswith("np.where"):
        args = [a, a, b]
    return template.format(*args)


@st.composite
def programs(draw):
    lines = []
    names = ["x", "y"]
    for i in range(draw(st.integers(1, 4))):
        expr = draw(expressions())
        target = draw(st.sampled_from(["t", "u"])) if i else "t"
        lines.append(f"{target} = {expr}")
        names.append(target)
    loop = draw(st.integers(0, 2))
    if loop:
        lines = [f"for _k in range({loop}):"] + ["    " + ln for ln in lines]
    body = "\n".join("    " + ln for ln in lines)
    return (
        f"import numpy as np\n\n\ndef f(x, y):\n    t = x * 1.0\n{body}\n    return np.sum(t * x)\n"
    )


@given(source=programs(), seed=st.integers(0, 2**16))
def test_random_program_gradient_matches_finite_differences(tmp_path_factory, source, seed):
    module = load_module(tmp_path_factory.mktemp("prog"), source, name=f"prog_{next(_ids)}")
    rng = np.random.RandomState(seed)
    x, y = rng.uniform(-1.0, 1.0, 3), rng.uniform(-1.0, 1.0, 3)
    value = module.f(x, y)
    if not np.isfinite(value) or abs(value) > 1e6:
        return
    gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y)
    check_against_fd(module.f, gx, [x, y], 0, rtol=1e-4, atol=1e-5, seed=seed)
    check_against_fd(module.f, gy, [x, y], 1, rtol=1e-4, atol=1e-5, seed=seed)


@st.composite
def looping_programs(draw):
    """A loop over an argument-given trip count, its body from the grammar above."""
    lines = []
    for i in range(draw(st.integers(1, 4))):
        target = draw(st.sampled_from(["t", "u"])) if i else "t"
        lines.append(f"{target} = {draw(expressions())}")
    if draw(st.booleans()):
        lines.append("if np.sum(t) > 0.0:\n            t = t * 0.5")
    body = "\n".join("        " + ln for ln in lines)
    return (
        "import numpy as np\n\n\ndef f(x, y, n):\n    t = x * 1.0\n    u = y * 1.0\n"
        f"    for _k in range(n):\n{body}\n        y = y * 0.9 + 0.1 * np.tanh(t)\n"
        "    return np.sum(t * x) + np.sum(u)\n"
    )


SCHEDULES = st.one_of(
    st.builds(tl.Binomial, st.integers(1, 4)), st.builds(tl.FixedInterval, st.integers(1, 4))
)


@given(
    source=looping_programs(),
    steps=st.integers(0, 9),
    schedule=SCHEDULES,
    seed=st.integers(0, 2**16),
)
def test_random_loops_have_the_same_gradient_under_any_checkpoint_schedule(
    tmp_path_factory, source, steps, schedule, seed
):
    module = load_module(tmp_path_factory.mktemp("loop"), source, name=f"loop_{next(_ids)}")
    rng = np.random.RandomState(seed)
    x, y = rng.uniform(-1.0, 1.0, 3), rng.uniform(-1.0, 1.0, 3)
    value = module.f(x, y, steps)
    if not np.isfinite(value) or abs(value) > 1e6:
        return
    plain = tl.grad(module.f, wrt=(0, 1))(x, y, steps)
    checkpointed = tl.grad(module.f, wrt=(0, 1), checkpoint=schedule)(x, y, steps)
    for a, b in zip(plain, checkpointed, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)
    check_against_fd(module.f, plain[0], [x, y, steps], 0, rtol=1e-4, atol=1e-5, seed=seed)
