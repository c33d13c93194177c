"""The Job (tangentlike/job.py): one reading of wrt for the API and the command line, the
keys and the header made from one set of options."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike import gradients
from tangentlike.api_forward import jvp_vector
from tangentlike.cli import main
from tangentlike.errors import WrtError
from tangentlike.job import Job, Mode, resolve_wrt

SOURCE = "import numpy as np\n\n\ndef f(x, W, *, k=2.0):\n    return np.sum(W @ x) * k\n"


@pytest.fixture
def model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(SOURCE)
    return load_module(tmp_path, SOURCE)


def _cli_error(capsys, wrt: str) -> str:
    assert main(["show", "m.py:f", f"--wrt={wrt}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tangentlike: error: ")
    return err.removeprefix("tangentlike: error: ")


# The same request is refused by tl.grad and by the command line with the same message
# (the API names the function by its qualified name, the command line by FILE:FUNC).
@pytest.mark.parametrize(
    ("api_wrt", "cli_wrt", "words"),
    [
        (("x", "x"), "x,x", "wrt names x more than once ('x', 'x'): a parameter of {} has one"),
        (("x", 0), "x,0", "wrt names x more than once ('x', 0)"),
        ((1, "W", 0), "1,W,0", "wrt names W more than once (1, 'W', 0)"),
        ((-2, 0), "-2,0", "wrt names x more than once (-2, 0)"),
        ("z", "z", "wrt: 'z' is not a parameter of {}; its parameters are x, W"),
        ("k", "k", "wrt: 'k' is not a parameter of {}; its parameters are x, W"),
        (2, "2", "wrt: position 2 is out of range: {} has 2 parameters (x, W)"),
        (-3, "-3", "wrt: position -3 is out of range: {} has 2 parameters (x, W)"),
    ],
)
def test_api_and_command_line_refuse_alike(model, capsys, api_wrt, cli_wrt, words):
    with pytest.raises(WrtError) as err:
        tl.grad(model.f, wrt=api_wrt)
    assert words.format("f") in str(err.value)
    assert words.format("m.py:f") in _cli_error(capsys, cli_wrt)


def test_a_repeated_parameter_says_what_to_do(model, capsys):
    with pytest.raises(WrtError) as err:
        tl.value_and_grad(model.f, wrt=["W", 1])
    assert str(err.value) == (
        "wrt names W more than once ('W', 1): a parameter of f has one gradient\n"
        "What to do: name each parameter once (by name or by position)."
    )
    assert _cli_error(capsys, "W,1").splitlines()[-1] == (
        "What to do: name each parameter once (by name or by position)."
    )


@pytest.mark.parametrize(
    ("wrt", "names", "single"),
    [
        (0, ("x",), True),
        ("W", ("W",), True),
        (-1, ("W",), True),
        ((0,), ("x",), False),
        (["W", "x"], ("W", "x"), False),
        ((1, 0), ("W", "x"), False),
    ],
)
def test_wrt_is_resolved_to_names_once(model, wrt, names, single):
    assert resolve_wrt(model.f, wrt) == (names, single)
    job = Job.of(model.f, wrt)
    assert (job.wrt, job.single) == (names, single)


@pytest.mark.parametrize("wrt", [1.5, True, None, {"x"}, (0, None)])
def test_wrt_of_another_type_is_refused(model, wrt):
    with pytest.raises(WrtError, match="positions or names"):
        resolve_wrt(model.f, wrt)


def test_a_function_without_positional_parameters(tmp_path):
    module = load_module(tmp_path, "def g(*, x):\n    return x * x\n")
    with pytest.raises(WrtError, match="g has no positional parameter"):
        tl.grad(module.g)


def test_names_and_positions_share_one_gradient(model):
    """The memory key holds the resolved names: wrt=1 and wrt="W" are one request."""
    assert tl.grad(model.f, wrt=1, cache=False) is tl.grad(model.f, wrt="W", cache=False)
    assert tl.grad(model.f, wrt=(0, 1), cache=False) is tl.grad(model.f, ("x", "W"), cache=False)
    assert tl.grad(model.f, wrt=1, cache=False) is not tl.grad(model.f, wrt=(1,), cache=False)


def test_every_option_is_in_both_keys(model):
    base = Job.of(model.f, 0)
    changes = {
        "mode": Mode.VJP,
        "optimize": False,
        "checkpoint": tl.Binomial(snapshots=3),
        "stats": True,
        "checks": True,
    }
    for field, value in changes.items():
        other = dataclasses.replace(base, **{field: value})
        assert other.memory_key() != base.memory_key(), field
        assert other.disk_options() != base.disk_options(), field
    typed = dataclasses.replace(base, param_types=(("W", float),))
    assert typed.memory_key() != base.memory_key()
    # where the disk cache lives is not what a gradient is
    elsewhere = dataclasses.replace(base, cache=False)
    assert elsewhere.memory_key() == base.memory_key()
    assert elsewhere.disk_options() == base.disk_options()


def test_a_new_option_is_in_the_keys_and_the_header(model):
    """Room for options to come (jit, a vector width): one more field is enough."""

    @dataclasses.dataclass(frozen=True)
    class Wider(Job):
        width: int = 1

    plain = Wider.of(model.f, 0)
    wide = dataclasses.replace(plain, width=4)
    assert wide.memory_key() != plain.memory_key()
    assert wide.disk_options() == (*plain.disk_options(), "width=4")
    assert plain.header("m.py:4", "df") == Job.of(model.f, 0).header("m.py:4", "df")
    assert wide.header("m.py:4", "df")[0].endswith("with respect to x, width=4.")


def test_header(model):
    job = Job.of(model.f, ("x", "W"), Mode.VALUE_AND_GRAD, stats=True, checks=True)
    version = tl.__version__
    assert job.header("m.py:4", "df") == [
        f"Generated by tangentlike {version}: value_and_grad of f with respect to x, W, "
        "stats=True, checks=True.",
        "Source: m.py:4",
        "Entry point: df",
    ]
    schedule = tl.FixedInterval(every=2)
    assert (
        dataclasses.replace(job, checkpoint=schedule, stats=False)
        .header("m.py:4", "df")[0]
        .endswith(f"with respect to x, W, {schedule}, checks=True.")
    )


def test_the_generated_module_opens_with_the_header(model):
    df = tl.grad(model.f, wrt="W", checkpoint=tl.Binomial(snapshots=2), cache=False, checks=False)
    first = df.source.splitlines()[0]
    assert first == (
        f"# Generated by tangentlike {tl.__version__}: grad of f with respect to W, "
        f"{tl.Binomial(snapshots=2)}."
    )
    x, W = np.ones(3), np.ones((2, 3))
    np.testing.assert_allclose(df(x, W), 2.0 * np.ones((2, 3)))


def test_mode_is_one_field():
    assert [m.value for m in Mode] == [
        "grad",
        "value_and_grad",
        "vjp",
        "jvp",
        "vector jvp (k directions)",
    ]
    assert [m.returns_value for m in Mode] == [False, True, False, True, True]
    assert [m.scalar_output for m in Mode] == [True, True, False, False, False]
    assert [m.takes_seed for m in Mode] == [False, False, True, False, False]
    assert [m.forward for m in Mode] == [False, False, False, True, True]


def test_forward_mode_is_a_job_with_its_mode_in_the_header():
    def f(x):
        return x * x

    assert ": jvp of test_forward_mode_is_a_job" in tl.jvp(f).source.splitlines()[0]
    first = jvp_vector(f).source.splitlines()[0]
    assert ": vector jvp (k directions) of test_forward_mode_is_a_job" in first


def test_a_bad_checkpoint_is_refused(model):
    with pytest.raises(TypeError, match=r"tl\.Binomial"):
        Job.of(model.f, 0, checkpoint=3)


def test_the_builder_gets_the_job(model):
    seen = []
    original = gradients.build_module.build

    def spy(job, *args, **kwargs):
        seen.append(job)
        return original(job, *args, **kwargs)

    gradients.build_module.build = spy
    try:
        tl.vjp(model.f, wrt=(1,), optimize=False, cache=False)
    finally:
        gradients.build_module.build = original
    (job,) = seen
    assert (job.func, job.wrt, job.single, job.mode) == (model.f, ("W",), False, Mode.VJP)
    assert (job.optimize, job.cache) == (False, False)


def test_a_repeated_request_does_not_read_the_signature_again(model, monkeypatch):
    """tl.grad(f) for an unchanged f stays a dictionary lookup: no Job is made."""
    df = tl.grad(model.f, wrt=("x", "W"), cache=False)

    def no_job(*args, **kwargs):
        raise AssertionError("a Job was made for a request already answered")

    monkeypatch.setattr(gradients.Job, "of", no_job)
    assert tl.grad(model.f, wrt=("x", "W"), cache=False) is df
    assert tl.grad(model.f, wrt=["x", "W"], cache=False) is df


def test_a_repeated_request_for_the_same_function_reads_no_wrapper(model, monkeypatch):
    """The warmest path: the function object asked for before, exactly so, is found
    without peeling bound methods or unwrapping (a few microseconds); the environment's
    TANGENTLIKE_CHECKS is part of its key."""
    monkeypatch.delenv("TANGENTLIKE_CHECKS", raising=False)
    df = tl.grad(model.f, wrt=1, cache=False)

    def no_peeling(*args, **kwargs):
        raise AssertionError("the warm path read the function's wrappers")

    monkeypatch.setattr(gradients, "peel_bound", no_peeling)
    monkeypatch.setattr(gradients, "unwrap", no_peeling)
    assert tl.grad(model.f, wrt=1, cache=False) is df
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "1")
    with pytest.raises(AssertionError, match="read the function's wrappers"):
        tl.grad(model.f, wrt=1, cache=False)  # another key: the slow path


@pytest.mark.parametrize("wrt", [True, 1.0, (1.0,), (True, 0)])
def test_keys_that_equal_an_answered_request_are_still_read(model, wrt):
    """True == 1 and 1.0 == 1 as dictionary keys; as wrt they are errors."""
    tl.grad(model.f, wrt=1, cache=False)
    tl.grad(model.f, wrt=(1,), cache=False)
    with pytest.raises(WrtError, match="positions or names"):
        tl.grad(model.f, wrt=wrt, cache=False)
