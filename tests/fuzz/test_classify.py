"""The oracle and the classifier judge fake differentiators correctly: exact is ok,
a wrong gradient / value / shape is wrong, errors are refused or crash by location,
and points on a branch boundary are never used."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from tangentlike.errors import SourceLocation, TangentlikeError

from .classify import evaluate
from .oracle import Reference, Skip, differences, reference
from .program import Param, Program, draw_inputs
from .tracer import Traced

PARAMS = (Param("x", ()), Param("y", (3,)))
SMOOTH = """import numpy as np


def f(x, y):
    z = np.sin(x * y)
    return np.sum(z) + x ** 2
"""


def make(source: str, params: tuple[Param, ...] = PARAMS) -> Program:
    return Program(seed=0, index=0, source=source, params=params)


def analytic(value_shift=0.0, scale_y=1.0, cut_y=False):
    """A differentiator for SMOOTH computing its gradient by hand, optionally broken."""

    def differentiate(f, wrt):
        assert wrt == ("x", "y")

        def df(x, y):
            gx = float(np.sum(y * np.cos(x * y)) + 2 * x)
            gy = x * np.cos(x * y) * scale_y
            return f(x, y) + value_shift, (gx, gy[:2] if cut_y else gy)

        return df

    return differentiate


def raising(error: BaseException | None = None, make_error=None):
    def differentiate(f, wrt):
        def df(*args):
            raise make_error(f) if make_error else error

        return df

    return differentiate


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path


def test_an_exact_gradient_is_ok_and_checked_against_autograd(workdir):
    ref = reference(make(SMOOTH))
    assert isinstance(ref, Reference) and ref.autograd is not None
    assert evaluate(make(SMOOTH), workdir, analytic()).kind == "ok"


@pytest.mark.parametrize(
    ("broken", "signature"),
    [
        (analytic(scale_y=1.001), "wrong: gradient"),
        (analytic(scale_y=0.0), "wrong: gradient"),
        (analytic(value_shift=1e-3), "wrong: value of f"),
        (analytic(cut_y=True), "wrong: shape"),
    ],
)
def test_a_deliberately_wrong_result_is_wrong(workdir, broken, signature):
    outcome = evaluate(make(SMOOTH), workdir, broken)
    assert (outcome.kind, outcome.signature) == ("wrong", signature)
    assert outcome.args is not None


def test_a_located_refusal_is_refused(workdir):
    def located(f):
        return TangentlikeError("not supported", SourceLocation(f.__code__.co_filename, 5, 4))

    outcome = evaluate(make(SMOOTH), workdir, raising(make_error=located))
    assert outcome.kind == "refused"
    assert outcome.signature == "refused: not supported"


@pytest.mark.parametrize(
    "error",
    [
        TangentlikeError("no location"),
        TangentlikeError("elsewhere", SourceLocation("/somewhere/else.py", 3, 0)),
    ],
)
def test_a_refusal_without_a_location_in_the_program_is_a_crash(workdir, error):
    outcome = evaluate(make(SMOOTH), workdir, raising(error))
    assert outcome.kind == "crash"
    assert "TangentlikeError" in outcome.signature


def test_a_refusal_on_a_line_past_the_program_is_a_crash(workdir):
    def past(f):
        return TangentlikeError("past", SourceLocation(f.__code__.co_filename, 99, 0))

    assert evaluate(make(SMOOTH), workdir, raising(make_error=past)).kind == "crash"


def test_any_other_exception_is_a_crash_with_its_kind(workdir):
    outcome = evaluate(make(SMOOTH), workdir, raising(IndexError("pop from empty list")))
    assert outcome.kind == "crash"
    assert outcome.signature.startswith("crash: IndexError")
    assert "pop from empty list" in outcome.reason


def test_a_slow_gradient_is_a_crash(workdir):
    def slow(f, wrt):
        def df(*args):
            time.sleep(5)

        return df

    outcome = evaluate(make(SMOOTH), workdir, slow, timeout=0.5)
    assert outcome.kind == "crash" and "Timeout" in outcome.signature


def test_a_program_whose_primal_raises_is_skipped_untried(workdir):
    source = "import numpy as np\n\n\ndef f(x, y):\n    return y[7] * x\n"
    outcome = evaluate(make(source), workdir, raising(IndexError("never called")))
    assert outcome.kind == "skipped" and "IndexError" in outcome.reason


KINK = "import numpy as np\n\n\ndef f(x, y):\n    return abs(x) + np.sum(y)\n"


def test_a_point_on_a_kink_is_rejected_and_a_smooth_one_used():
    program = make(KINK)
    traced = Traced(program.source)
    y = np.array([0.5, 0.4, -0.7])
    on_kink = [0.0, y]
    assert "boundary" in differences(program, traced, on_kink, traced.run(on_kink)[1], 0)
    smooth = [0.5, y]
    slope, _, (ux, uy) = differences(program, traced, smooth, traced.run(smooth)[1], 0)
    assert slope == pytest.approx(ux + np.sum(uy), rel=1e-7)


def test_a_program_near_a_jump_at_every_point_has_no_reference_but_can_still_crash(workdir):
    source = (
        "import numpy as np\n\n\ndef f(x, y):\n    return np.floor(1e7 * x) * 1e-7 + np.sum(y)\n"
    )
    ref = reference(make(source))
    assert isinstance(ref, Skip) and "boundary" in ref.reason and ref.args is not None
    assert evaluate(make(source), workdir, analytic()).kind == "skipped"
    assert evaluate(make(source), workdir, raising(KeyError("x"))).kind == "crash"
    shifted = evaluate(make(source), workdir, analytic(value_shift=1.0))
    assert shifted.signature == "wrong: value of f"


def test_a_program_without_a_finite_scalar_value_is_skipped_untried(workdir):
    source = "import numpy as np\n\n\ndef f(x, y):\n    return y * x\n"
    outcome = evaluate(make(source), workdir, raising(KeyError("never called")))
    assert outcome.kind == "skipped" and "not a scalar" in outcome.reason


def test_autograd_is_not_trusted_where_numpy_writes_through_an_alias():
    source = (
        "import numpy as np\n\n\ndef f(x, y):\n    z = y\n    z += x\n    return np.sum(y * y)\n"
    )
    ref = reference(make(source))
    assert isinstance(ref, Reference) and ref.autograd is None
    assert any("autograd" in note for note in ref.notes)
    args = draw_inputs(make(source), 0)
    assert ref.value == pytest.approx(float(np.sum((args[1] + args[0]) ** 2)))


def test_autograd_is_not_trusted_when_its_gradient_is_not_finite():
    # autograd's sqrt rule gives nan at 0 * inf; the differences are fine
    source = "import numpy as np\n\n\ndef f(x, y):\n    return x + np.sum(np.sqrt(y - y))\n"
    ref = reference(make(source))
    assert isinstance(ref, Reference) and ref.autograd is None, ref
