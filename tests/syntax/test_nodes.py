"""syntax/nodes.py and syntax/quote.py: building, reading and substituting trees."""

from __future__ import annotations

import gast

from tangentlike.emit import codegen
from tangentlike.syntax import nodes, quote


def test_built_nodes_print_as_python():
    stmt = nodes.assign(
        "y",
        nodes.binop(
            nodes.call(nodes.attribute(nodes.name("np"), "sum"), [nodes.name("x")], {}),
            gast.Mult(),
            nodes.const(2.0),
        ),
    )
    fn = nodes.function_def("f", nodes.arguments(["x"]), [stmt, nodes.return_(nodes.name("y"))])
    assert codegen.function_source(fn, None) == "def f(x):\n    y = np.sum(x) * 2.0\n    return y\n"
    assert nodes.param_names(fn) == ["x"]


def test_names_read_and_stored():
    fn = gast.parse("def f(x, *, k=1):\n    y[i] = x + k\n    z = y\n    return z\n").body[0]
    item, plain = fn.body[0], fn.body[1]
    # a write into y[i] loads y (the rest of it stays) and stores no name
    assert nodes.names_read(item) == {"x", "k", "i", "y"} and nodes.names_stored(item) == set()
    assert nodes.is_item_write(item) and nodes.assigned_name(item) == "y"
    assert not nodes.is_item_write(plain) and nodes.names_stored(plain) == {"z"}
    assert nodes.all_param_names(fn) == ["x", "k"]


def test_deepcopy_is_a_new_tree_with_the_same_text():
    expr = quote.parse_expr("a * (b + 1.0)")
    copied = nodes.deepcopy(expr)
    assert copied is not expr and codegen.expr_source(copied) == codegen.expr_source(expr)


def test_substitute_replaces_loads_and_renames_the_rest():
    template = gast.parse("d_x = d_result * cos(x)").body[0]
    out = quote.substitute(
        template, {"x": quote.parse_expr("v[0]")}, {"d_x": "bv", "d_result": "bf"}
    )
    assert (
        codegen.function_source(nodes.function_def("t", nodes.arguments([]), [out]), None)
        .splitlines()[1]
        .strip()
        == "bv = bf * cos(v[0])"
    )
    assert codegen.expr_source(template.value) == "d_result * cos(x)"  # untouched
