"""A-normal form, asserted as source text, and checked to keep the program's values."""

from __future__ import annotations

import numpy as np
import pytest
from corpus.programs import CASES
from reference import load_module
from stages import prepare

from tangentlike.errors import InternalError
from tangentlike.normalize import anf_check
from tangentlike.syntax import nodes


def anf_source(tmp_path, body: str, params: str = "x, y") -> str:
    """Every normalize pass, then the lowering of updates in place, through the stages'
    own functions; the lines stripped of their indentation."""
    stage = prepare(tmp_path, f"def f({params}):\n{body}").normalize().in_place()
    return "\n".join(line.strip() for line in stage.body().splitlines())


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
    # the update goes into the function's own copy of x, written back before the return;
    # the result, computed anew, is checked there to share none of that copy
    assert "_x_caller1 = x\nx = entry_copy(_x_caller1," in text, text
    assert "_x1 = x * 2.0\nx = _x1\nf = x + y\nunshared(f, (x,)," in text, text
    assert text.endswith("write_back(_x_caller1, x)\nreturn f"), text


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


# -- short-circuit conditions: every If tests a name its branches leave alone ----------
def test_and_runs_its_second_operand_only_when_the_first_is_true(tmp_path):
    text = anf_source(tmp_path, "    if x > 0 and y > 5.0:\n        x = x * y\n    return x\n")
    assert text == (
        "_c2 = x > 0\nif _c2:\n_c1 = y > 5.0\nelse:\n_c1 = _c2\nif _c1:\n_x1 = x * y\nx = _x1\n"
        "return x"
    )


def test_or_keeps_the_operand_python_returns(tmp_path):
    text = anf_source(tmp_path, "    z = x or np.sin(y)\n    return z\n")
    assert text == "if x:\nz = x\nelse:\nz = np.sin(y)\nreturn z"


def test_an_operand_assigned_in_the_rest_gets_a_flag(tmp_path):
    text = anf_source(tmp_path, "    x = x and y\n    return x\n")
    assert text == "_c1 = x\nif _c1:\nx = y\nelse:\nx = _c1\nreturn x"


def test_a_ternary_on_its_own_target_gets_a_flag(tmp_path):
    text = anf_source(tmp_path, "    x = y if x else x * 2.0\n    return x\n")
    assert text == "_c1 = x\nif _c1:\nx = y\nelse:\n_x1 = x * 2.0\nx = _x1\nreturn x"


def test_an_if_on_a_name_its_branch_changes_gets_a_flag(tmp_path):
    text = anf_source(tmp_path, "    if y:\n        y = x * 2.0\n    return y\n")
    assert text == "_c1 = y\nif _c1:\ny = x * 2.0\nreturn y"


def test_a_while_on_a_name_changed_mid_body_tests_a_flag_set_at_the_end(tmp_path):
    body = (
        "    go = x < 3.0\n    while go:\n        go = x < 2.0\n        x = x * 2.0\n    return x\n"
    )
    text = anf_source(tmp_path, body)
    assert text == (
        "go = x < 3.0\n_c1 = go\nwhile _c1:\ngo = x < 2.0\n_x1 = x * 2.0\nx = _x1\n_c1 = go\n"
        "return x"
    )


# -- the contract checker ---------------------------------------------------------------
def _checked(source: str):
    import gast

    from tangentlike.normalize import anf

    fn = gast.parse(source).body[0]
    return lambda: anf.check(fn)


@pytest.mark.parametrize(
    ("source", "clause"),
    [
        ("def f(x):\n    y = x\n", anf_check.RETURN_LAST),
        ("def f(x):\n    return x + 1\n", anf_check.RETURN_LAST),
        ("def f(x):\n    if x:\n        return x\n    return x\n", anf_check.RETURN_LAST),
        ("def f(x):\n    a = b = x\n    return a\n", anf_check.ONE_TARGET),
        ("def f(x):\n    a, b = x\n    return a\n", anf_check.ONE_TARGET),
        ("def f(x):\n    y = x * 2 + 1\n    return y\n", anf_check.ONE_OPERATION),
        ("def f(x):\n    y = np.sin(x + 1)\n    return y\n", anf_check.ONE_OPERATION),
        ("def f(x):\n    y = x[x + 1]\n    return y\n", anf_check.INDEX),
        ("def f(x):\n    x[x:x + 1] = 0.0\n    return x\n", anf_check.INDEX),
        ("def f(x):\n    x = x * 2.0\n    return x\n", anf_check.NOT_OWN_OPERAND),
        ("def f(x):\n    x + 1\n    return x\n", anf_check.EXPR_CALL),
        ("def f(x):\n    assert x > 0\n    return x\n", anf_check.ASSERT_ATOM),
        ("def f(x):\n    if x > 0:\n        y = x\n    return x\n", anf_check.IF_NAME),
        ("def f(x, c):\n    if c:\n        c = x\n    return x\n", anf_check.IF_TEST_KEPT),
        ("def f(x, c):\n    if c:\n        c[0] = x\n    return x\n", anf_check.IF_TEST_KEPT),
        ("def f(x, c):\n    if c:\n        c.append(x)\n    return x\n", anf_check.IF_TEST_KEPT),
        (
            "def f(x, c):\n    if x:\n        y = x\n    else:\n        if c:\n            c = y\n"
            "    return x\n",
            anf_check.IF_TEST_KEPT,
        ),
        ("def f(x, r):\n    for i in range(3):\n        y = x\n    return x\n", anf_check.FOR_FORM),
        (
            "def f(x, r):\n    for i in r:\n        y = x\n    else:\n        y = x\n"
            "    return x\n",
            anf_check.FOR_FORM,
        ),
        ("def f(x):\n    while x < 1:\n        y = x\n    return x\n", anf_check.WHILE_FORM),
        (
            "def f(x, c):\n    while c:\n        c = x\n        y = x\n    return x\n",
            anf_check.WHILE_TEST_LAST,
        ),
        ("def f(x):\n    with x:\n        y = x\n    return x\n", anf_check.STATEMENT),
    ],
)
def test_each_broken_clause_is_an_internal_error_naming_it(source, clause):
    with pytest.raises(InternalError) as err:
        _checked(source)()
    message = str(err.value)
    assert message.startswith("internal error: A-normal form broken: " + clause)
    assert "bug in tangentlike" in message


def test_the_contract_holds_for_its_own_forms():
    source = (
        "def f(x, c, xs):\n    y = x[1:c, 0]\n    xs.append(y)\n    x[c] = 1.0\n"
        "    z = np.sum(x, axis=(0, 1))\n    w = g(*xs, k=[x, c])\n    a = x < c\n"
        "    b = a and c\n    assert a, 'message'\n    if a:\n        c2 = x\n    else:\n"
        "        pass\n    while a:\n        q = x\n        a = q\n    return y\n"
    )
    _checked(source)()


def test_an_internal_error_points_at_the_users_line(tmp_path):
    """Located in the user's file when the parsed function is given."""
    import gast

    from tangentlike.normalize import anf
    from tangentlike.parse.source import parse_function

    module = load_module(tmp_path, "def f(x):\n    y = x\n    return y\n")
    parsed = parse_function(module.f)
    fn = nodes.deepcopy(parsed.node)
    fn.body[0].value = gast.parse("x * 2 + 1", mode="eval").body  # two operations
    with pytest.raises(InternalError) as err:
        anf.check(fn, parsed)
    assert ":2:5: internal error" in str(err.value) and "y = x" in str(err.value)
