"""The generator: deterministic by seed, valid programs, every construct class often."""

from __future__ import annotations

import ast
import hashlib
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from .generator import generate
from .program import ENTRY, copy_args, draw_inputs, namespace

ROOT = Path(__file__).resolve().parents[2]


def digest(seed: int, count: int) -> str:
    text = "".join(generate(seed, i).source for i in range(count))
    return hashlib.sha256(text.encode()).hexdigest()


def test_same_seed_and_index_give_the_same_program():
    for i in range(20):
        assert generate(3, i) == generate(3, i)
    assert generate(3, 0).source != generate(4, 0).source
    assert len({generate(3, i).source for i in range(20)}) == 20


def test_programs_do_not_depend_on_the_process():
    code = "from tests.fuzz.test_generator import digest; print(digest(11, 30))"
    outputs = set()
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        outputs.add(run.stdout.strip())
    assert outputs == {digest(11, 30)}


def test_inputs_are_deterministic_and_in_a_safe_domain():
    program = generate(0, 5)
    first, again = draw_inputs(program, 0), draw_inputs(program, 0)
    for a, b, p in zip(first, again, program.params, strict=True):
        assert np.array_equal(a, b)
        if p.shape is None:
            assert isinstance(a, int) and 0 <= a <= 4
        else:
            assert np.shape(a) == p.shape
            assert np.all((np.abs(a) >= 0.3) & (np.abs(a) <= 1.6))
    assert not all(
        np.array_equal(a, b) for a, b in zip(first, draw_inputs(program, 1), strict=True)
    )


def test_programs_parse_define_f_and_mostly_run():
    ran = 0
    count = 150
    for i in range(count):
        program = generate(1, i)
        tree = ast.parse(program.source)
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert functions[-1].name == ENTRY
        assert [a.arg for a in functions[-1].args.args] == [p.name for p in program.params]
        assert program.wrt and program.source.startswith("import numpy as np\n")
        lines = program.source.count("\n")
        assert 5 <= lines <= 80, program.source
        try:
            with np.errstate(all="ignore"):
                value = namespace(program.source, np, "<test>")[ENTRY](
                    *copy_args(draw_inputs(program, 0))
                )
        except Exception:
            continue
        ran += np.ndim(value) == 0 and bool(np.isfinite(value))
    assert ran >= 0.9 * count


# The classes issue 10 names; each must come up in a good share of programs.
REQUIRED = {
    "literal:negative": 100, "literal:int": 100, "literal:left-operand": 100,
    "literal:large": 20, "literal:small": 20, "literal:zero": 20,
    "pow:negative-base": 60, "pow:negative-exponent": 30, "pow:literal-base": 20,
    "binop:+": 100, "binop:-": 100, "binop:*": 100, "binop:/": 60, "binop://": 15,
    "binop:%": 40, "binop:**": 100, "binop:@": 30, "unary:-": 100, "unary:+": 15, "not": 30,
    "boolop:and": 60, "boolop:or": 60, "boolop:nested": 30, "compare:chained": 60,
    "ternary": 60, "ternary:nested": 5, "if": 100, "elif": 20, "else": 30,
    "for:range-const": 30, "for:range-arg": 10, "for:array": 20, "for:enumerate": 10,
    "for:zip": 8, "for:rows": 8, "for:list": 3, "while": 25, "break": 25, "continue": 15,
    "return-in-loop": 15, "loop-else": 15, "nested-loop": 10, "return-in-if": 30,
    "helper": 80, "helper:unused-param": 20, "helper:param-rebound": 20,
    "helper:tuple-return": 25, "helper:called-in-loop": 10, "helper:nested-call": 5,
    "helper:keyword-arg": 20, "helper:default": 20,
    "subscript:int": 100, "subscript:negative": 60, "subscript:slice": 100,
    "subscript:step": 60, "setitem:index": 40, "setitem:slice": 30, "setitem:augmented": 30,
    "inplace:float": 60, "inplace:value": 15, "inplace:alias": 15, "inplace:view": 15,
    "inplace:reshape": 15, "inplace:loop-row": 3, "out=": 20, "inplace:through-container": 8,
    "list": 60, "list:comprehension": 40, "comprehension:filter": 40, "dict": 30,
    "method:append": 5, "np.where": 40, "np.maximum": 20, "np.r_": 10, "np.c_": 2,
    "np.mod": 8, "np.fmod": 8, "np.concatenate": 10, "np.dot": 20,
}  # fmt: skip


def test_every_construct_class_comes_up_often():
    counts: Counter = Counter()
    for i in range(500):
        counts.update(generate(2, i).tags)
    missing = {tag: counts[tag] for tag, least in REQUIRED.items() if counts[tag] < least}
    assert not missing, missing
