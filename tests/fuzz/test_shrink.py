"""The shrinker keeps the failure and removes the rest; reproductions run standalone."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import numpy as np

from .classify import Outcome, evaluate
from .generator import generate
from .program import Program
from .report import Failure, reproduction, write_failure
from .shrink import shrink


def first_program(predicate, seed: int = 4) -> Program:
    return next(p for p in (generate(seed, i) for i in range(500)) if predicate(p))


def fake_check(program: Program) -> Outcome:
    if "np.cos(" in program.source:
        return Outcome("crash", "has cos", "crash: cos")
    return Outcome("ok", "ok", "ok")


def test_shrinking_keeps_the_failure_and_drops_the_rest():
    program = first_program(lambda p: "np.cos(" in p.source and p.source.count("\n") > 15)
    small, outcome = shrink(program, fake_check(program), fake_check, seconds=30)
    assert outcome.signature == "crash: cos"
    assert "np.cos(" in small.source
    assert small.source.count("\n") <= 6, small.source
    compile(small.source, "<shrunk>", "exec")


def crash_on_modulo(f, wrt):
    if "%" in inspect.getsource(inspect.getmodule(f)):
        raise IndexError("pop from empty list")
    raise AssertionError("only programs with % are shrunk here")


def test_shrinking_with_the_real_checker_gives_a_small_reproduction(tmp_path: Path):
    program = first_program(lambda p: " % " in p.source and p.source.count("\n") > 12)
    outcome = evaluate(program, tmp_path, crash_on_modulo)
    assert outcome.kind == "crash", outcome

    def check(p: Program) -> Outcome:
        return evaluate(p, tmp_path, crash_on_modulo, use_autograd=False)

    small, small_outcome = shrink(program, outcome, check, seconds=40)
    assert small_outcome.signature == outcome.signature
    assert " % " in small.source and len(small.source) < len(program.source) / 2

    path = write_failure(tmp_path, Failure(program, outcome, small, small_outcome))
    spec = importlib.util.spec_from_file_location("fz_repro", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert np.ndim(module.f(*module.inputs())) == 0
    assert "shrunk from" in module.__doc__ and "pop from empty list" in module.__doc__


def test_a_reproduction_states_what_was_expected():
    program = generate(0, 0)
    outcome = Outcome("wrong", "gradient differs", "wrong: gradient", "d/dx: expected 1", [1.5])
    text = reproduction(program, outcome)
    assert "expected 1" in text and "def inputs():\n    return [1.5]" in text
    compile(text, "<repro>", "exec")
