"""Checkpointed loops, blocks and calls: the same gradient as without, in bounded memory."""

from __future__ import annotations

import numpy as np
import pytest
from corpus import checkpointed as c
from corpus.programs import CASES
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError
from tangentlike.runtime.schedule import BinomialPlan


def _r(seed):
    return np.random.RandomState(seed)


W3, H3, XS, W, X = (
    _r(0).randn(3, 3) * 0.5,
    _r(1).randn(3),
    _r(2).randn(7, 3),
    _r(3).randn(3),
    _r(4).randn(3),
)

MARKED = [
    (c.rnn, (W3, H3, XS, 3), (0, 1, 2)),
    (c.rnn, (W3, H3, XS, 1), (0, 1, 2)),
    (c.rnn_interval, (W3, H3, XS, 3), (0, 1, 2)),
    (c.over_rows, (XS, W, 2), (0, 1)),
    (c.with_branches_and_calls, (W, H3, 8, 3), (0, 1)),
    (c.checkpointed_calls, (W, H3, 4), (0, 1)),
    (c.block, (W, X), (0, 1)),
    (c.blocks_in_loop, (W, X, 4), (0, 1)),
    (c.nested, (W, H3, 5, 2), (0, 1)),
    (c.writes_in_place, (W, X, 6, 2), (0, 1)),
    (c.state_bound_in_the_loop, (W, X, 6, 2), (0, 1)),
    (c.continues, (W, X, 7, 2), (0, 1)),
    (c.enumerated, (XS, W, 3), (0, 1)),
    (c.inside_plain_loop, (W, X, 5, 2), (0, 1)),
    (c.callee_with_checkpointed_loop, (W, X, 5, 2), (0, 1)),
    (c.reads_after_loop, (W, X, 5, 2), (0, 1)),
    (c.overwritten_after, (W, X, 5, 2), (0, 1)),
    (c.appends, (W, X, 6, 2), (0, 1)),
]


def _id(case):
    return f"{case[0].__name__}-{MARKED.index(case)}"


@pytest.mark.parametrize("case", MARKED, ids=_id)
def test_marked_programs_match_finite_differences_and_autograd(case):
    f, args, wrt = case
    grads = tl.grad(f, wrt=wrt)(*args)
    for i, g in zip(wrt, grads, strict=True):
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-5, atol=1e-6)
        try:
            expected = autograd_grad(f, list(args), i)
        except (TypeError, NotImplementedError, ValueError, AttributeError):
            continue  # autograd cannot write into arrays (writes_in_place)
        np.testing.assert_allclose(g, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("case", MARKED, ids=_id)
def test_value_and_grad_keeps_the_value(case):
    f, args, wrt = case
    value, grads = tl.value_and_grad(f, wrt=wrt)(*args)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)
    for a, b in zip(grads, tl.grad(f, wrt=wrt)(*args), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


SCHEDULES = [tl.Binomial(1), tl.Binomial(3), tl.FixedInterval(2)]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0].__name__}-{CASES.index(case)}")
def test_every_corpus_program_has_the_same_gradient_with_checkpoints(case, schedule):
    """checkpoint= puts every outermost for loop of the corpus under a schedule."""
    f, make, wrt = case
    args = make()
    plain = tl.grad(f, wrt=wrt)(*args)
    checkpointed = tl.grad(f, wrt=wrt, checkpoint=schedule)(*args)
    for a, b in zip(plain, checkpointed, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)


def test_the_corpus_option_really_checkpoints_loops():
    marked = [
        f
        for f, _, wrt in CASES
        if "reversal()" in tl.grad(f, wrt, checkpoint=tl.Binomial(2)).source
    ]
    assert len(marked) >= 15, marked


def _plain_rnn(W, h, xs):
    for t in range(len(xs)):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)


@settings(max_examples=30, deadline=None)
@given(steps=st.integers(0, 40), budget=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_binomial_gradient_and_recomputation_for_any_trip_count_and_budget(steps, budget, seed):
    r = _r(seed)
    W_, h, xs = r.randn(3, 3) * 0.6, r.randn(3), r.randn(steps, 3)
    df = tl.grad(c.rnn, wrt=(0, 1, 2), stats=True)
    got = df(W_, h, xs, budget)
    want = tl.grad(_plain_rnn, wrt=(0, 1, 2))(W_, h, xs)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-13)
    assert df.stats.snapshots <= budget
    if steps:
        spine_end = max(BinomialPlan(steps, budget).kept)
        optimum = BinomialPlan.fewest_advances(steps, budget)
        assert df.stats.recomputed_steps == optimum - spine_end


@settings(max_examples=20, deadline=None)
@given(steps=st.integers(0, 30), every=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_fixed_interval_gradient_for_any_trip_count(steps, every, seed):
    r = _r(seed)
    W_, h, xs = r.randn(3, 3) * 0.6, r.randn(3), r.randn(steps, 3)
    got = tl.grad(c.rnn_interval, wrt=(0, 1, 2))(W_, h, xs, every)
    want = tl.grad(_plain_rnn, wrt=(0, 1, 2))(W_, h, xs)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-13)


@settings(max_examples=15, deadline=None)
@given(steps=st.integers(1, 12), budget=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_branches_calls_and_nesting_for_any_trip_count(steps, budget, seed):
    r = _r(seed)
    w, h = r.randn(3), r.randn(3)
    for f in (
        c.with_branches_and_calls,
        c.nested,
        c.state_bound_in_the_loop,
        c.writes_in_place,
        c.appends,
    ):
        got = tl.grad(f, wrt=(0, 1))(w, h, steps, budget)
        for i in (0, 1):
            want = fd_gradient(f, [w, h, steps, budget], i)
            np.testing.assert_allclose(got[i], want, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------
# Memory


def test_stack_memory_is_one_step_and_snapshots_are_bounded_by_the_budget():
    steps, hidden, budget = 300, 16, 6
    r = _r(5)
    W_, h, xs = r.randn(hidden, hidden) * 0.3, r.randn(hidden), r.randn(steps, hidden)
    plain = tl.grad(_plain_rnn, wrt=0, stats=True)
    marked = tl.grad(c.rnn, wrt=0, stats=True)
    np.testing.assert_allclose(marked(W_, h, xs, budget), plain(W_, h, xs), rtol=1e-11)
    state = h.nbytes
    assert plain.stats.peak_stack_bytes >= steps * state  # every step's state kept
    assert marked.stats.peak_snapshot_bytes <= budget * state
    assert marked.stats.peak_stack_bytes <= 4 * state  # one step recorded at a time
    assert marked.stats.peak_bytes < plain.stats.peak_bytes / 10
    assert marked.stats.snapshots == budget


def test_a_checkpointed_block_stores_its_inputs_only():
    df = tl.grad(c.block, wrt=(0, 1), stats=True)
    df(W, X)
    # the block's state (y) goes on the stack; its three statements record nothing forward
    assert df.stats.pushes <= 4


# ---------------------------------------------------------------------------
# Plain Python, generated code, errors


def test_markers_do_nothing_in_plain_python():
    assert list(tl.checkpointed(range(4), snapshots=2)) == [0, 1, 2, 3]
    assert list(tl.checkpointed([5, 6], every=1)) == [5, 6]
    with tl.checkpoint():
        pass

    def f(x):
        return x

    assert tl.checkpoint(f) is f
    with pytest.raises(TypeError, match="exactly one"):
        tl.checkpointed(range(3))
    with pytest.raises(TypeError, match="exactly one"):
        tl.checkpointed(range(3), snapshots=2, every=2)
    with pytest.raises(ValueError, match="positive"):
        tl.Binomial(0)
    with pytest.raises(ValueError, match="positive"):
        tl.FixedInterval(-1)
    with pytest.raises(TypeError, match="Binomial"):
        tl.grad(f, checkpoint=3)


def test_generated_module_with_a_checkpointed_loop_needs_only_numpy():
    text = tl.grad(c.rnn, wrt=0).source
    assert not any(
        line.startswith(("import tangentlike", "from tangentlike")) for line in text.splitlines()
    )
    assert "class BinomialPlan(Plan)" in text and text.index("class Plan") < text.index(
        "class BinomialPlan"
    )
    namespace: dict = {}
    exec(compile(text, "<generated>", "exec"), namespace)
    g = namespace["drnn"](W3, H3, XS, 2)
    np.testing.assert_allclose(g, tl.grad(_plain_rnn)(W3, H3, XS), rtol=1e-11)


def test_vjp_through_a_checkpointed_loop():
    def f(w, h, T, k):
        for _ in tl.checkpointed(range(T), snapshots=k):
            h = np.sin(h * w)
        return h

    seed = _r(7).randn(3)
    got = tl.vjp(f)(W, X, 6, 2, seed)
    eps = 1e-6
    want = np.array(
        [
            (seed @ f(W + eps * e, X, 6, 2) - seed @ f(W - eps * e, X, 6, 2)) / (2 * eps)
            for e in np.eye(3)
        ]
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-9)


BAD = [
    (
        "break",
        [
            "for t in tl.checkpointed(range(5), snapshots=2):",
            "    if t > 2:",
            "        break",
            "    x = x * 2.0",
            "return np.sum(x)",
        ],
        5,
        "`break` inside a checkpointed loop",
    ),
    (
        "return in loop",
        ["for t in tl.checkpointed(range(5), every=2):", "    return np.sum(x)", "return x"],
        4,
        "`return` inside a checkpointed loop",
    ),
    (
        "continue in block",
        ["for t in range(3):", "    with tl.checkpoint():", "        continue", "return np.sum(x)"],
        5,
        "`continue` inside a `with tl.checkpoint()` block",
    ),
    (
        "other context manager",
        ["with np.errstate():", "    y = x * 2.0", "return np.sum(y)"],
        3,
        "only `with tl.checkpoint():`",
    ),
    (
        "no schedule",
        ["for t in tl.checkpointed(range(5)):", "    x = x * 2.0", "return np.sum(x)"],
        3,
        "exactly one of snapshots= or every=",
    ),
    (
        "two schedules",
        [
            "for t in tl.checkpointed(range(5), snapshots=2, every=2):",
            "    x = x * 2.0",
            "return np.sum(x)",
        ],
        3,
        "exactly one of snapshots= or every=",
    ),
]


@pytest.mark.parametrize("name,body,line,words", BAD, ids=[b[0] for b in BAD])
def test_checkpoint_misuse_is_an_error_with_the_line(tmp_path, name, body, line, words):
    lines = "\n".join("    " + b for b in body)
    text = f"import numpy as np\nimport tangentlike as tl\n\ndef f(x):\n{lines}\n"
    module = load_module(tmp_path, text, name=f"ckpt_bad_{abs(hash(name)) % 10**8}")
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(module.f)(np.ones(3))
    message = str(err.value)
    assert f":{line + 2}:" in message, message  # two import lines above `def f`
    assert words in message, message
    assert "^" in message and "What to do" in message, message


def test_output_in_a_checkpointed_loop_happens_once_per_step(tmp_path, capsys):
    module = load_module(
        tmp_path,
        "import numpy as np\nimport tangentlike as tl\n\n"
        "def f(w, h, T):\n"
        "    for t in tl.checkpointed(range(T), snapshots=2):\n"
        "        print('step', t)\n"
        "        h = np.tanh(h * w)\n"
        "    with tl.checkpoint():\n"
        "        print('block')\n"
        "        h = h * 2.0\n"
        "    return np.sum(h)\n",
        name="ckpt_output",
    )
    tl.grad(module.f)(W, X, 6)
    printed = capsys.readouterr().out.split("\n")
    assert printed == [f"step {t}" for t in range(6)] + ["block", ""]


def test_a_call_made_for_its_effects_in_a_checkpointed_loop_is_refused(tmp_path):
    module = load_module(
        tmp_path,
        "import numpy as np\nimport tangentlike as tl\n\n"
        "def f(w, h, T):\n"
        "    idx = np.arange(3)\n"
        "    for t in tl.checkpointed(range(T), snapshots=2):\n"
        "        np.random.shuffle(idx)\n"
        "        h = np.tanh(h * w)\n"
        "    return np.sum(h)\n",
        name="ckpt_effects",
    )
    with pytest.raises(UnsupportedSyntaxError, match="would repeat it") as err:
        tl.grad(module.f)(W, X, 3)
    assert ":7:" in str(err.value) and "np.random.shuffle(idx)" in str(err.value)


def test_a_checkpointed_helper_prints_once(tmp_path, capsys):
    module = load_module(
        tmp_path,
        "import numpy as np\nimport tangentlike as tl\n\n"
        "@tl.checkpoint\n"
        "def cell(w, h):\n"
        "    print('cell')\n"
        "    return np.tanh(h * w)\n\n"
        "def f(w, h):\n"
        "    return np.sum(cell(w, cell(w, h)))\n",
        name="ckpt_helper_output",
    )
    g = tl.grad(module.f)(W, X)
    assert capsys.readouterr().out == "cell\ncell\n"
    np.testing.assert_allclose(g, fd_gradient(module.f, [W, X], 0), rtol=1e-6)


def test_a_budget_below_one_at_run_time_is_an_error_naming_it():
    with pytest.raises(ValueError, match="snapshots >= 1, not 0"):
        tl.grad(c.rnn)(W3, H3, XS, 0)
    with pytest.raises(ValueError, match="every >= 1, not 0"):
        tl.grad(c.rnn_interval)(W3, H3, XS, 0)
