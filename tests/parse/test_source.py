"""parse/source.py: a function's tree, where it came from, and located errors."""

from __future__ import annotations

import functools

import pytest
from reference import load_module
from stages import HEADER, body, prepare

from tangentlike.errors import SourceNotFoundError
from tangentlike.parse.source import parse_function, peel_bound, unwrap

SOURCE = """
class Model:
    def loss(self, x):
        return x * 2.0


def f(x, y=2.0, *, k=3):
    return x * y * k


g = lambda x: x + 1.0
"""


def test_a_function_and_where_it_came_from(tmp_path):
    module = load_module(tmp_path, HEADER + SOURCE)
    parsed = parse_function(module.f)
    assert parsed.node.name == "f" and parsed.basename == module.__name__ + ".py"
    assert parsed.first_line == 12 and parsed.line_text(13) == "    return x * y * k"
    assert parsed.defaults == (2.0,) and parsed.kwdefaults == {"k": 3}
    assert body(parsed.node) == "return x * y * k"


def test_a_method_is_dedented_and_located_in_its_file(tmp_path):
    module = load_module(tmp_path, HEADER + SOURCE)
    parsed = parse_function(module.Model.loss)
    assert parsed.col_shift == 4 and parsed.first_line == 8
    where = parsed.location(parsed.node.body[0])
    assert (where.line, where.col) == (9, 8) and where.text == "        return x * 2.0"


def test_a_named_lambda_is_a_function_of_that_name(tmp_path):
    module = load_module(tmp_path, HEADER + SOURCE)
    parsed = parse_function(module.g)
    assert parsed.node.name == "g" and body(parsed.node) == "return x + 1.0"


def test_errors_name_the_function_and_point_at_the_node(tmp_path):
    stage = prepare(tmp_path, "def f(x):\n    y = x * 2.0\n    return y\n")
    err = stage.parsed.error(stage.parsed.node.body[0].value, "a product", "add instead")
    assert err.message == "a product (in f)" and err.hint == "What to do: add instead."
    assert (err.location.line, err.location.col) == (7, 8)
    assert str(err).splitlines()[1:3] == ["    y = x * 2.0", "        ^"]


def test_functions_without_source_are_refused():
    with pytest.raises(SourceNotFoundError):
        parse_function(eval("lambda x: x"))


def test_wrappers_and_bound_objects_are_peeled(tmp_path):
    module = load_module(tmp_path, HEADER + SOURCE)

    @functools.wraps(module.f)
    def wrapper(*args, **kwargs):
        return module.f(*args, **kwargs)

    # a decorator's wrapper is what runs (parse/wrappers.py differentiates it); an
    # lru_cache calls the function and returns what it returns
    assert unwrap(wrapper) is wrapper
    assert unwrap(functools.lru_cache(module.f)) is module.f
    bound = peel_bound(module.Model().loss)
    assert bound is not None and bound[0] is module.Model.loss and len(bound[1]) == 1
    partial = peel_bound(functools.partial(module.f, 1.0, k=2))
    assert partial == (module.f, (1.0,), {"k": 2})
    assert peel_bound(module.f) is None
