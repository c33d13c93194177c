"""Every constant, in every operand position, prints as text that means the same value."""

from __future__ import annotations

import ast
import math
import pathlib

import gast
import numpy as np
import pytest

from tangentlike.emit import codegen, literals, roundtrip
from tangentlike.errors import InternalError
from tangentlike.syntax import nodes

VALUES = [
    0,
    3,
    -3,
    -1,
    10**30,
    -(10**30),
    0.0,
    -0.0,
    1.1,
    -1.1,
    -1.0,
    1e300,
    -1e300,
    1e-300,
    -1e-300,
    5e-324,
    -5e-324,
    1.7976931348623157e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    -float("nan"),
    2j,
    -2j,
    1.5 + 2j,
    1.5 - 2j,
    -1.5 - 2j,
    -1.5 + 2j,
    complex(0.0, float("inf")),
    complex(float("nan"), 1.0),
    complex(1.0, float("nan")),
    complex(float("-inf"), -1.0),
    complex(-0.0, 1.0),
    complex(1.0, -0.0),
    complex(-0.0, -0.0),
    complex(0.0, -0.0),
    complex(-0.0, -2.0),
    complex(float("nan"), -float("nan")),
    True,
    False,
    None,
    "s",
    "",
    "a'b\"c\n",
    "a long message on its first line\n    and an indented second line\n",
    b"x\x00",
    Ellipsis,
]

# Each template puts the constant C in one operand position; x is a float, xs a tuple.
POSITIONS = [
    "C",
    "C ** 2",
    "2.0 ** C",
    "C ** C",
    "x ** C",
    "-C",
    "+C",
    "not C",
    "C * x",
    "x * C",
    "x - C",
    "C - x",
    "x / C",
    "C @ x",
    "C.real",
    "(C, x)",
    "[C, C]",
    "{C: x}",
    "f(C)",
    "f(x, k=C)",
    "x if C else -x",
    "C if x else x",
    "x < C",
    "C < x < C",
    "C == C",
    "x and C",
    "C or x",
    "lambda: C",
    "xs[C]",
    "xs[C:]",
    "xs[::C]",
    "xs[C, x]",
]


def _with_constant(template: str, value: object) -> gast.expr:
    tree = gast.parse(template, mode="eval").body
    for node in gast.walk(tree):
        for field, child in gast.iter_fields(node):
            if isinstance(child, gast.Name) and child.id == "C":
                setattr(node, field, nodes.const(value))
            elif isinstance(child, list):
                for i, item in enumerate(child):
                    if isinstance(item, gast.Name) and item.id == "C":
                        child[i] = nodes.const(value)
    if isinstance(tree, gast.Name) and tree.id == "C":
        tree = nodes.const(value)
    return tree


def _outcome(thunk):
    """The value computed, or the class of the exception raised."""
    try:
        value = thunk()
    except Exception as err:
        return type(err)
    return value() if callable(value) and getattr(value, "__name__", "") == "<lambda>" else value


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return _same(list(a.items()), list(b.items()))
    if isinstance(a, float):  # zeros and nans keep their sign
        same = a == b or (math.isnan(a) and math.isnan(b))
        return same and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, complex):
        return _same(a.real, b.real) and _same(a.imag, b.imag)
    return a == b


ENV = {"x": 0.5, "xs": tuple(range(-6, 7)), "f": lambda *a, **k: (a, k)}


@pytest.mark.parametrize("template", POSITIONS)
def test_constant_prints_with_its_meaning(template):
    """Every value in this operand position: the text round trips and computes what the
    tree meant (the same value, or the same exception)."""
    for value in VALUES:
        if "**" in template and type(value) is int and abs(value) > 100:
            continue  # a huge integer power takes forever to compute (its printing is tested)
        tree = _with_constant(template, value)
        text = codegen.expr_source(tree)
        roundtrip.check(tree, text)
        meant = compile(
            ast.fix_missing_locations(ast.Expression(gast.gast_to_ast(tree))), "t", "eval"
        )
        expected = _outcome(lambda meant=meant: eval(meant, dict(ENV)))
        actual = _outcome(lambda text=text: eval(text, dict(ENV)))
        assert _same(actual, expected), (value, text, actual, expected)


def test_statements_keep_constants():
    """Assignments, defaults, subscript targets, returns: through function_source."""
    for value in VALUES:
        fn = gast.parse("def g(a=C):\n    xs[C] = C\n    return C").body[0]
        for node in gast.walk(fn):
            for field, child in gast.iter_fields(node):
                if isinstance(child, gast.Name) and child.id == "C":
                    setattr(node, field, nodes.const(value))
            if isinstance(node, gast.arguments):
                node.defaults = [nodes.const(value)]
        text = codegen.function_source(fn, None)
        roundtrip.check(fn, text)


@pytest.mark.parametrize(
    "value",
    [
        *VALUES,
        (),
        (1, -2.5, float("nan")),
        ((-1, (float("-inf"),)), "s"),
        frozenset(),
        frozenset({-1, 2.5}),
    ],
    ids=repr,
)
def test_module_constants_parse_back_to_their_value(value):
    text = codegen.value_source(value)
    back = eval(text, {})
    assert type(back) is type(value)
    if isinstance(value, frozenset):
        assert back == value
    else:
        assert _same(back, value), text


@pytest.mark.parametrize(
    "value", [np.float64(1.5), np.float32(2.0), np.int64(3), object(), [1.0]], ids=repr
)
def test_a_constant_without_a_literal_spelling_is_an_internal_error(value):
    tree = nodes.assign("y", nodes.const(value))
    with pytest.raises(InternalError, match="has no literal spelling"):
        codegen.function_source(nodes.function_def("g", nodes.arguments([]), [tree]), None)


def test_module_text_of_special_float_globals(tmp_path):
    """A global nan, inf or negative constant is written into the module as a literal
    that means it (not `nan`, an undefined name)."""
    from reference import load_module

    import tangentlike as tl

    module = load_module(
        tmp_path,
        """
        import numpy as np
        BIG = float("inf")
        GAP = float("nan")
        NEG = -2.5
        PAIR = (-1.0, float("-inf"))

        def f(x):
            y = np.minimum(x, BIG) * NEG + PAIR[0] * x
            return np.sum(np.where(np.isnan(GAP), y, -y))
        """,
    )
    df = tl.grad(module.f)
    assert "NEG = -2.5" in df.source
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(df(x), np.full(2, -3.5))
    out = tmp_path / "written.py"
    out.write_text(df.source)
    namespace: dict = {}
    exec(compile(df.source, str(out), "exec"), namespace)
    np.testing.assert_allclose(namespace["df"](x), np.full(2, -3.5))


class _ReferenceSpeller(ast.NodeTransformer):
    """spell as an ast.NodeTransformer (what literals.spell does without one)."""

    def visit_Constant(self, node: ast.Constant) -> ast.expr:
        if isinstance(node.value, str):
            return node
        return ast.copy_location(literals.expression(node.value), node)


@pytest.mark.parametrize("module", ["literals.py", "codegen.py", "roundtrip.py"])
def test_spell_rewrites_what_a_node_transformer_rewrites(module: str) -> None:
    path = pathlib.Path(literals.__file__).parent / module
    text = path.read_text() + "\nz = (-0.0, 1.5 - 2j, -3, [1e308 * 10, -(2**70)], {b'x': ...})\n"
    tree, reference = ast.parse(text), ast.parse(text)
    for n in ast.walk(tree):  # values no source spells
        if isinstance(n, ast.Constant) and n.value == 3 and type(n.value) is int:
            n.value = -7.25
    for n in ast.walk(reference):
        if isinstance(n, ast.Constant) and n.value == 3 and type(n.value) is int:
            n.value = -7.25
    spelled = literals.spell(tree)
    assert spelled is tree
    expected = _ReferenceSpeller().visit(reference)
    assert ast.dump(spelled, include_attributes=True) == ast.dump(expected, include_attributes=True)
    assert ast.dump(literals.spell(ast.Constant(-1.5))) == ast.dump(
        _ReferenceSpeller().visit(ast.Constant(-1.5))
    )
