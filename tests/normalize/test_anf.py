"""A-normal form, asserted as source text, and checked to keep the program's values."""

from __future__ import annotations

import numpy as np
import pytest
from corpus.programs import CASES
from reference import load_module

from tangentlike.emit import codegen
from tangentlike.pipeline import ModuleBuilder
from tangentlike.rules.registry import default_registry


def anf_source(tmp_path, body: str, params: str = "x, y") -> str:
    module = load_module(tmp_path, f"import numpy as np\n\n\ndef f({params}):\n{body}")
    ctx, _ = ModuleBuilder(default_registry())._prepare(
        __import__("tangentlike.parse.source").parse.source.parse_function(module.f), ("x",)
    )
    text = codegen.function_source(ctx.fn, None)
    return "\n".join(line.strip() for line in text.splitlines()[1:])


def test_nested_calls_are_named_in_evaluation_order(tmp_path):
    assert anf_source(tmp_path, "    return np.sum((x @ y - 1.0) ** 2)\n") == (
        "_f1 = x @ y\n_f2 = _f1 - 1.0\n_f3 = _f2 ** 2\nf = np.sum(_f3)\nreturn f"
    )


def test_target_among_operands_is_split(tmp_path):
    assert anf_source(tmp_path, "    x = np.sin(x)\n    return x\n") == (
        "_x1 = np.sin(x)\nx = _x1\nreturn x"
    )


def test_augmented_assignment_and_swap(tmp_path):
    text = anf_source(tmp_path, "    z = x * 1.0\n    z *= 2.0\n    z, y = y, z\n    return z\n")
    # desugaring names the swap's temporaries before transform.in_place names the product
    assert text == (
        "z = x * 1.0\n_z2 = z * 2.0\nz = _z2\n_z1 = y\n_y1 = z\nz = _z1\ny = _y1\nreturn z"
    )


def test_augmented_assignment_of_an_argument_checks_the_other_arguments(tmp_path):
    # f(a, a) would change y too: a run-time check, which numbers and distinct arrays pass
    text = anf_source(tmp_path, "    x *= 2.0\n    return x + y\n")
    assert text.startswith("unshared(x, (y,),"), text
    assert text.endswith("_x1 = x * 2.0\nx = _x1\nf = x + y\nreturn f"), text


def test_methods_and_attributes_become_function_calls(tmp_path):
    text = anf_source(tmp_path, "    return x.T.sum(axis=0) * y.shape[0]\n")
    assert text == (
        "_f1 = np.transpose(x)\n_f2 = np.sum(_f1, axis=0)\n_f3 = y.shape\n_f4 = _f3[0]\n"
        "f = _f2 * _f4\nreturn f"
    )


def test_loops_iterate_over_named_ranges(tmp_path):
    text = anf_source(tmp_path, "    for r in x:\n        y = y + r\n    return y\n")
    # iterable(x) is x itself, or a dict's keys (normalize/comprehensions)
    assert text == (
        "_seq1 = iterable(x)\n_n1 = len(_seq1)\n_r1 = range(_n1)\nfor _i1 in _r1:\nr = _seq1[_i1]\n"
        "_y1 = y + r\ny = _y1\nreturn y"
    )


def test_while_recomputes_its_condition(tmp_path):
    text = anf_source(tmp_path, "    while np.sum(x) < y:\n        x = x * 2.0\n    return x\n")
    assert text == (
        "_c1 = np.sum(x)\n_c2 = _c1 < y\nwhile _c2:\n_x1 = x * 2.0\nx = _x1\n_c1 = np.sum(x)\n"
        "_c2 = _c1 < y\nreturn x"
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].__name__}-{CASES.index(c)}")
def test_normal_form_computes_the_same_values(case):
    """Round trip: the A-normal form of every corpus program gives the original's value."""
    import tangentlike as tl

    f, make, wrt = case
    args = make()
    value, _ = tl.value_and_grad(f, wrt=wrt)(*args)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)
