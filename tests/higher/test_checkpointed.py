"""Second derivatives and forward mode of functions whose loops are checkpointed.

A checkpoint schedule (tl.checkpointed loops, checkpoint=) changes what a gradient stores
and recomputes, never the gradient. Differentiated again, a gradient with checkpointed
loops stands for the same gradient built with those loops plain (higher/form_schedules.py);
`with tl.checkpoint():` blocks and @tl.checkpoint helpers keep their recomputation. Each
result is checked against autograd on the same function (whose markers do nothing in
plain Python: it is the unmarked function) and against central differences of the
checkpointed gradient. Before form_schedules, every case with a tl.checkpointed loop or
checkpoint= was refused ("cannot be differentiated again yet").
"""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
import types
from pathlib import Path

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import BLOCK_TANGENTLIKE, autograd_version, line_of, load_module

import tangentlike as tl
from tangentlike.cli.main import main
from tangentlike.higher.form_schedules import JOB, PLAIN_NOTE
from tangentlike.job import Job

PROGRAMS = """
import numpy as np
import tangentlike as tl


def binomial(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        s = np.sin(s) * x + 0.1 * s * s
    return np.sum(s)


def interval(x, n):
    s = x
    for i in tl.checkpointed(range(n), every=3):
        s = np.tanh(s * x) + 0.5 * s
    return np.sum(s * s)


def branches(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=3):
        if np.sum(s) > 1.5:
            s = np.sin(s) * x
        else:
            s = s * s + x
    return np.sum(s)


def over_items(x, ws):
    s = x
    for w in tl.checkpointed(ws, every=2):
        s = np.cos(s * w) + x
    return np.sum(s)


def inner_loop(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        for j in range(2):
            s = s * 0.5 + np.sin(x * s)
    return np.sum(s)


def block(x):
    y = x * 2.0
    with tl.checkpoint():
        z = np.sin(y) * x
        w = z * z
    return np.sum(w + y)


def block_while(x):
    s = x
    with tl.checkpoint():
        k = 0
        while k < 3:
            s = np.sin(s) * x + s
            k = k + 1
    return np.sum(s)


def block_in_loop(x, n):
    s = x
    for i in range(n):
        with tl.checkpoint():
            if i % 2 == 0:
                s = np.sin(s) * x
            else:
                s = s * x + 1.0
    return np.sum(s)


def block_in_checkpointed(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        with tl.checkpoint():
            s = np.sin(s) * x + 0.5 * s
    return np.sum(s * x)


def loop_in_block(x, n):
    s = x
    with tl.checkpoint():
        for i in tl.checkpointed(range(n), every=2):
            s = np.cos(s) * x
    return np.sum(s)


def step(s, x):
    return np.sin(s) * x + 0.2 * s


def helper_loop(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        s = step(s, x)
    return s


def through_helper(x, n):
    return np.sum(helper_loop(x, n) * x)


@tl.checkpoint
def decorated(s, x):
    return np.sin(s) * x + 0.2 * s


def decorated_in_loop(x, n):
    s = x
    for i in tl.checkpointed(range(n), every=2):
        s = decorated(s, x)
    return np.sum(s)


def plain(x, n):
    s = x
    for i in range(n):
        s = np.sin(s) * x + 0.1 * s * s
    return np.sum(s)


def plain_while(x, n):
    s = x
    k = 0
    while k < n:
        s = np.sin(s) * x
        k = k + 1
    for i in range(n):
        s = s * 0.9 + np.cos(x)
    return np.sum(s)


def scalar_loop(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        s = np.sin(s) * x + 0.1 * s * s
    return s


def nested_def(x, n):
    def inner(y):
        s = y
        for i in tl.checkpointed(range(n), snapshots=2):
            s = np.sin(s) * x + s * y * 0.1
        return s

    return x * tl.grad(inner)(0.5)


dplain = tl.grad(plain, checkpoint=tl.Binomial(snapshots=2))


def through_gradient(x, n):
    return np.sum(dplain(x, n) * x)
"""

# name -> the arguments after x
MARKED = {
    "binomial": (5,),
    "interval": (7,),
    "branches": (6,),
    "over_items": ([0.5, 1.5, -0.7, 2.0, 0.3],),
    "inner_loop": (5,),
    "block": (),
    "block_while": (),
    "block_in_loop": (4,),
    "block_in_checkpointed": (5,),
    "loop_in_block": (5,),
    "through_helper": (5,),
    "decorated_in_loop": (5,),
}
SCHEDULES = [tl.Binomial(snapshots=1), tl.Binomial(snapshots=2), tl.FixedInterval(every=2)]
X = np.array([0.3, 0.7, 1.1])
V = np.array([1.0, -0.5, 0.2])


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("checkpointed"), PROGRAMS)


def _hessian(f, *rest):
    return autograd.hessian(autograd_version(f))(X, *rest)


def _fd_of_gradient(gradient, rest, eps=1e-6):
    """Central differences of the (checkpointed) gradient along V."""
    up, down = gradient(X + eps * V, *rest), gradient(X - eps * V, *rest)
    return (np.asarray(up) - np.asarray(down)) / (2 * eps)


@pytest.mark.parametrize("name", MARKED)
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_of_marked_loops_and_blocks(programs, name, method):
    f, rest = getattr(programs, name), MARKED[name]
    got = tl.hvp(f, method=method)(X, *rest, V)
    assert tl.hvp(f, method=method).method == method
    assert np.allclose(got, _hessian(f, *rest) @ V, rtol=1e-10, atol=1e-12)
    assert np.allclose(got, _fd_of_gradient(tl.grad(f), rest), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", MARKED)
def test_hessian_and_jvp_of_marked_loops_and_blocks(programs, name):
    f, rest = getattr(programs, name), MARKED[name]
    H = _hessian(f, *rest)
    assert np.allclose(tl.hessian(f)(X, *rest), H, rtol=1e-10, atol=1e-12)
    assert np.allclose(tl.hessian(f, method="reverse")(X, *rest), H, rtol=1e-10, atol=1e-12)
    # forward mode reads the markers as plain Python does: nothing to store
    value, slope = tl.jvp(f)(X, *rest, V)
    assert value == pytest.approx(f(X, *rest), rel=1e-14)
    expected = autograd.grad(autograd_version(f))(X, *rest) @ V
    assert slope == pytest.approx(expected, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("schedule", SCHEDULES, ids=repr)
def test_derivatives_of_a_gradient_built_with_a_schedule(programs, schedule):
    """tl.jvp, tl.vjp and tl.jacobian (both modes) of tl.grad(f, checkpoint=...)."""
    inner = tl.grad(programs.plain, checkpoint=schedule)
    H = _hessian(programs.plain, 5)
    assert np.allclose(tl.jacobian(inner)(X, 5), H, rtol=1e-10, atol=1e-12)
    assert np.allclose(tl.jacobian(inner, mode="reverse")(X, 5), H, rtol=1e-10, atol=1e-12)
    assert np.allclose(tl.jvp(inner)(X, 5, V)[1], H @ V, rtol=1e-10, atol=1e-12)
    assert np.allclose(tl.vjp(inner)(X, 5, V), H @ V, rtol=1e-10, atol=1e-12)
    assert np.allclose(tl.vjp(inner)(X, 5, V), _fd_of_gradient(inner, (5,)), rtol=1e-5)


def test_a_while_loop_beside_the_scheduled_for_loop(programs):
    """checkpoint= schedules the outermost for loops; the while loop before it stays."""
    inner = tl.grad(programs.plain_while, checkpoint=tl.Binomial(snapshots=1))
    H = _hessian(programs.plain_while, 4)
    assert np.allclose(tl.jacobian(inner)(X, 4), H, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("schedule", [None, tl.FixedInterval(every=2)], ids=repr)
def test_grad_of_grad_of_a_scalar_checkpointed_loop(programs, schedule):
    f = programs.scalar_loop
    second = tl.grad(tl.grad(f, checkpoint=schedule))
    third = tl.grad(tl.grad(tl.grad(f, checkpoint=schedule)))
    reference = autograd_version(f)
    for x in (0.7, 1.3):
        expected = autograd.grad(autograd.grad(reference))(x, 6)
        assert second(x, 6) == pytest.approx(expected, rel=1e-10, abs=1e-12)
        h = 1e-5
        first = tl.grad(f)
        assert second(x, 6) == pytest.approx((first(x + h, 6) - first(x - h, 6)) / (2 * h), 1e-6)
        third_expected = autograd.grad(autograd.grad(autograd.grad(reference)))(x, 6)
        assert third(x, 6) == pytest.approx(third_expected, rel=1e-9, abs=1e-11)


def test_grad_of_a_function_calling_a_checkpointed_gradient(programs):
    """through_gradient(x) = dplain(x) . x, dplain = tl.grad(plain, checkpoint=...): its
    gradient is H x + dplain(x)."""
    got = tl.grad(programs.through_gradient)(X, 5)
    H = _hessian(programs.plain, 5)
    slope = autograd.grad(autograd_version(programs.plain))(X, 5)
    assert np.allclose(got, H @ X + slope, rtol=1e-10, atol=1e-12)


def test_grad_through_a_nested_checkpointed_gradient(programs):
    """d/dx [x * d/dy inner(y)], inner closing over x and looping under a schedule."""

    def reference(x, n):
        def inner(y):
            s = y
            for _ in range(n):
                s = anp.sin(s) * x + s * y * 0.1
            return s

        return x * autograd.grad(inner)(0.5)

    for x in (0.7, 1.2):
        expected = autograd.grad(reference)(x, 4)
        assert tl.grad(programs.nested_def)(x, 4) == pytest.approx(expected, rel=1e-10)


def test_plain_loops_is_an_option_of_its_own(programs):
    """Job.plain_loops is in both cache keys and in the header, in words."""
    base = Job.of(programs.binomial, 0)
    plain = dataclasses.replace(base, plain_loops=True)
    assert plain.memory_key() != base.memory_key()
    assert plain.disk_options() == (*base.disk_options(), "plain_loops=True")
    header = plain.header("m.py:4", "dbinomial")[0]
    assert header.endswith("with respect to x, checkpointed loops run as plain loops.")


def test_debug_mode_second_derivatives(programs):
    H = _hessian(programs.binomial, 5)
    assert np.allclose(tl.hvp(programs.binomial, checks=True)(X, 5, V), H @ V, rtol=1e-10)
    inner = tl.grad(programs.plain, checkpoint=tl.Binomial(snapshots=2), checks=True)
    assert np.allclose(tl.jvp(inner)(X, 5, V)[1], _hessian(programs.plain, 5) @ V, rtol=1e-10)


def test_the_derivative_says_its_gradient_runs_plain_loops(programs):
    """The second-order module's header says the loops ran plain; the gradient itself keeps
    its schedule; a function without checkpointed loops gets no such line."""
    hv = tl.hvp(programs.binomial)
    assert f"# {PLAIN_NOTE}\n" in hv.source
    assert "BinomialPlan(" in hv.gradient.source
    assert "Plan(" not in hv.source
    assert PLAIN_NOTE not in tl.hvp(programs.plain).source
    # regions keep their recomputation: no rebuild, no note
    assert PLAIN_NOTE not in tl.hvp(programs.block).source


def test_a_gradient_that_cannot_be_rebuilt_is_refused_at_the_loop(programs):
    """A generated gradient with a schedule and no request to rebuild it from (here: the
    request taken off; in use, a function of a generated module other than its entry):
    refused, located at the user's checkpointed loop."""
    f = programs.interval
    fresh = types.FunctionType(f.__code__, f.__globals__, f.__name__)  # a gradient of its own
    inner = tl.grad(fresh)
    generated = inner.__tangentlike_primal__
    delattr(generated, JOB)
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.jvp(inner)(X, 7, V)
    message = str(err.value)
    assert "a gradient with checkpointed loops (IntervalPlan)" in message, message
    assert "cannot be differentiated again" in message, message
    assert "differentiate the original function in this process: tl.hvp(f)" in message
    location = err.value.location
    assert location.filename == programs.__file__, message
    assert location.line == line_of(programs, "every=3)"), message
    assert "^" in message and "What to do" in message, message


def test_stats_with_a_schedule_is_refused_for_its_stats(programs):
    inner = tl.grad(programs.plain, checkpoint=tl.Binomial(snapshots=1), stats=True)
    with pytest.raises(tl.UnsupportedSyntaxError, match="stats=True"):
        tl.jvp(inner)(X, 5, V)


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_hvp_and_forward_modules_of_marked_loops(programs, tmp_path, monkeypatch, capsys):
    source = tmp_path / "marked.py"
    source.write_text(Path(programs.__file__).read_text())
    monkeypatch.chdir(tmp_path)
    assert main(["grad", "marked.py:binomial", "--mode", "hvp", "-o", "h.py"]) == 0
    assert main(["grad", "marked.py:binomial", "--mode", "forward", "-o", "j.py"]) == 0
    capsys.readouterr()
    text = (tmp_path / "h.py").read_text()
    assert f"# {PLAIN_NOTE}\n" in text.split("\n\n")[0]  # in the header
    H = _hessian(programs.binomial, 5)
    script = (
        BLOCK_TANGENTLIKE
        + f"sys.path.insert(0, {str(tmp_path)!r})\n"
        + "import h, j\n"
        + f"x, v = np.array({X.tolist()}), np.array({V.tolist()})\n"
        + "print(json.dumps([h.hvp_binomial(x, 5, v).tolist(), j.jvp_binomial(x, 5, v)[1]]))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    import json

    hv, slope = json.loads(result.stdout)
    assert np.allclose(hv, H @ V, rtol=1e-10, atol=1e-12)
    expected = autograd.grad(autograd_version(programs.binomial))(X, 5) @ V
    assert slope == pytest.approx(expected, rel=1e-10)


def test_cli_hvp_refuses_the_checkpoint_option_saying_why(tmp_path, monkeypatch, capsys):
    (tmp_path / "m.py").write_text("def f(x):\n    return x * x\n")
    monkeypatch.chdir(tmp_path)
    status = main(["grad", "m.py:f", "--mode", "hvp", "--checkpoint", "every=2", "-o", "h.py"])
    err = capsys.readouterr().err
    assert status == 2 and "--checkpoint does not apply to --mode hvp" in err, err
    assert "plain loops" in err and not (tmp_path / "h.py").exists()


GLOBALS = """
import numpy as np
import tangentlike as tl

W = np.array([0.5, -0.3, 0.8])
c = 0.1


def marked(x, n):
    s = x
    for i in tl.checkpointed(range(n), snapshots=2):
        s = np.sin(s) * W + c * s * s * x
    return np.sum(s)


def unmarked(x, n):
    s = x
    for i in range(n):
        s = np.sin(s) * W + c * s * s * x
    return np.sum(s)
"""


def test_second_derivatives_follow_a_rebound_global(tmp_path):
    """A global array rebound is refreshed in the gradient's module in place (same
    generated function): the derivative built from a copy of its names was stale, with no
    error (H v off by 10 on 47fd633, both methods, with and without checkpoints); a
    rebound literal asks for a rebuild, which forward over reverse did not watch."""
    m = load_module(tmp_path, GLOBALS)
    products = [tl.hvp(f) for f in (m.marked, m.unmarked)]
    products += [tl.hvp(f, method="reverse") for f in (m.marked, m.unmarked)]
    held = tl.jvp(tl.grad(m.unmarked, checkpoint=SCHEDULES[0]))
    products.append(lambda x, n, v: held(x, n, v)[1])
    hessian = tl.hessian(m.marked)

    def check():
        H = autograd.hessian(autograd_version(m.unmarked))(X, 4)
        for product in products:
            assert np.allclose(product(X, 4, V), H @ V, rtol=1e-10, atol=1e-12)
        assert np.allclose(hessian(X, 4), H, rtol=1e-10, atol=1e-12)

    check()
    m.W = np.array([1.5, 0.2, -0.4])  # refreshed in place
    check()
    m.c = 0.3  # rebuilt
    check()
    m.W[0] = 7.0  # read when the code runs
    check()
