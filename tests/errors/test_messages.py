"""Each error path: the message names file, line and column, shows the line, says what to do."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import (
    CheckError,
    NonScalarOutputError,
    RuleError,
    SourceNotFoundError,
    UnknownFunctionError,
    UnsupportedSyntaxError,
    WrtError,
)

# (name, body lines of `def f(x):`, the offending line's number within the file, words expected)
UNSUPPORTED = [
    ("yield", ["y = x", "for _ in range(3):", "    y = yield y", "return y"], 5, "yield"),
    ("try", ["try:", "    y = x * 2", "except ValueError:", "    y = x", "return y"], 3, "try"),
    ("with", ["with open('f') as fh:", "    y = x", "return y"], 3, "with"),
    ("global", ["global G", "G = x", "return x"], 3, "global"),
    ("nested def returned", ["def g(z):", "    return z * 2", "return g"], 5, "used as a value"),
    ("lambda stored", ["g = lambda z: z * 2", "fs = [g]", "return fs[0](x)"], 4, "as a value"),
    (
        "recursion through a nested def",
        [
            "def g(z, k):",
            "    if k == 0:",
            "        return z",
            "    return g(z * 2, k - 1)",
            "return g(x, 2)",
        ],
        6,
        "recursion",
    ),
    (
        "nested def called from outside its branch",
        ["if x[0] > 0:", "    def g(z):", "        return z", "return g(x)"],
        6,
        "outside the block",
    ),
    (
        "nested def reading its **kwargs",
        ["def g(z, **kw):", "    return z * kw['a']", "return g(x, a=2.0)"],
        5,
        "passed on",
    ),
    (
        "decorated nested def",
        ["@staticmethod", "def g(z):", "    return z", "return g(x)"],
        3,
        "decorated",
    ),
    ("nested def rebound", ["def g(z):", "    return z", "g = 2.0", "return x"], 5, "assigned"),
    (
        "nested def defined twice",
        ["def g(z):", "    return z", "def g(z):", "    return z * 2", "return g(x)"],
        3,
        "more than once",
    ),
    (
        "nested def passed to a helper",
        ["def g(z):", "    return z", "return np.sum(np.apply_along_axis(g, 0, x))"],
        5,
        "as a value",
    ),
    ("closure call with wrong arguments", ["g = lambda z: z", "return g(x, x)"], 4, "match"),
    ("set literal", ["s = {x}", "return x"], 3, "set"),
    ("append to an argument list", ["x.append(1.0)", "return x[0]"], 3, "caller's list"),
    (
        "write into a list held in another list",
        ["rows = [[x, x], [x, x]]", "r = rows[0]", "r[1] = x * 2", "return rows[0][1]"],
        5,
        "made it itself",
    ),
    (
        "write into a list after handing it on",
        ["ys = [x, x]", "zs = ys", "ys[0] = x * 2", "return zs[0]"],
        4,
        "gets hold of it",
    ),
    (
        "append to a list inside a dict",
        ["d = {'t': []}", "d['t'].append(x)", "return d['t'][0]"],
        4,
        "inside another list or dict",
    ),
    (
        "write into a slice of a list",
        ["ys = [x, x, x]", "ys[0:2] = [x, x * 2]", "return ys[1]"],
        4,
        "slice",
    ),
    ("append to an element list", ["rows = [[]]", "rows[0].append(x)", "return x"], 4, "inside"),
    (
        "alias of a grown list",
        ["ys = []", "zs = ys", "ys.append(x)", "return zs[0]"],
        4,
        "appended",
    ),
    ("dict ** unpacking", ["d = {**{'a': x}}", "return d['a']"], 3, "**"),
    ("return nothing", ["y = x", "return"], 4, "return"),
    ("no return", ["y = x * 2"], 2, "return"),
    ("del", ["y = x", "del y", "return x"], 4, "del"),
    ("class", ["class A:", "    pass", "return x"], 3, "class"),
    (
        "assignment into an attribute's element",
        ["y = x * 1.0", "y.T[0] = 2.0", "return y"],
        4,
        "element",
    ),
    ("write into an argument", ["x[0] = 2.0", "return x"], 3, "argument"),
    ("write into a view", ["y = x[1:]", "y[0] = 2.0", "return y"], 4, "view"),
    ("attribute assignment", ["y = x", "y.flag = 1", "return y"], 4, "attribute"),
    (
        "out= with where=",
        ["y = x * 1.0", "np.multiply(x, x, out=y, where=x > 0)", "return np.sum(y)"],
        4,
        "where=",
    ),
    (
        "out= into an element",
        ["y = np.zeros((2, 3))", "np.exp(x, out=y[0])", "return y[0, 0]"],
        4,
        "variable",
    ),
    # the result may share the argument's memory: no copy of it to write into
    ("out= into an argument returned", ["np.exp(x, out=x)", "return x"], 3, "argument"),
    (  # a tuple bound once is spelled out (np.sum(args[0])); a list that grows is not
        "starred call",
        ["args = [x]", "args.append(x)", "return np.sum(*args)"],
        5,
        "star",
    ),
    ("double-star call", ["kw = {'axis': 0}", "return np.sum(x, **kw)"], 4, "**"),
    ("walrus", ["if (y := x * 2) > 0:", "    x = y", "return x"], 3, "walrus"),
    ("import", ["import math", "return math.sin(x)"], 3, "import"),
    ("from-import", ["from math import sin", "return sin(x)"], 3, "import"),
    ("try-finally", ["try:", "    y = x * 2", "finally:", "    y = x", "return y"], 3, "try"),
    (
        "with two items",
        ["with open('a') as f, open('b') as g:", "    y = x", "return y"],
        3,
        "with",
    ),
    ("lambda argument", ["return np.sum(np.vectorize(lambda v: v * 2)(x))"], 3, "lambda"),
    (
        "nested def called before its definition",
        ["y = g(x)", "def g(z):", "    return z", "return y"],
        3,
        "before",
    ),
    ("class in a branch", ["if x:", "    class A:", "        pass", "return x"], 4, "class"),
    ("global read and write", ["global G", "G = x * 2", "return G"], 3, "global"),
    (
        "dict comprehension in a call",
        ["return np.sum(list({i: x for i in range(2)}.values()))"],
        3,
        "values",
    ),
    ("assert with walrus", ["assert (y := x) > 0", "return y"], 3, "walrus"),
    ("set comprehension", ["s = {x * i for i in range(2)}", "return x"], 3, "comprehension"),
    ("match", ["match x:", "    case 1:", "        y = x", "return x"], 3, "match"),
    ("star into a slice", ["a, *x[1:] = x, x, x", "return a"], 3, "star"),
    ("yield from", ["yield from range(3)", "return x"], 3, "yield"),
    ("await", ["y = await x", "return y"], None, None),
    ("local function call", ["g = np.sin", "return g(x)"], 4, "local variable"),
    ("unknown method", ["return x.frobnicate()"], 3, "method"),
    ("async with", ["return x"], None, None),
]


def _source(body: list[str]) -> str:
    lines = "\n".join("    " + b for b in body)
    return f"import numpy as np\n\ndef f(x):\n{lines}\n"


@pytest.mark.parametrize(
    "name,body,line,words",
    [c for c in UNSUPPORTED if c[2]],
    ids=[c[0] for c in UNSUPPORTED if c[2]],
)
def test_unsupported_syntax_names_file_line_and_shows_it(tmp_path, name, body, line, words):
    module = load_module(tmp_path, _source(body), name=f"bad_{abs(hash(name)) % 10**8}")
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(module.f)(np.ones(3))
    message = str(err.value)
    filename = module.__file__.rsplit("/", 1)[-1]
    assert f"{filename}:{line + 1}:" in message, message
    assert words.lower() in message.lower(), message
    assert "^" in message and "What to do" in message, message
    shown = message.splitlines()[1].strip()
    assert shown and shown in _source(body).splitlines()[line], message


# Refused when the gradient runs (runtime.untouched: a name read afterwards shares the
# memory an update changes), located at the update like a refusal at build time.
REFUSED_AT_THE_CALL = [
    (
        "view made by a call, of a written array",  # (a plain alias is followed)
        ["y = x * 1.0", "z = np.flip(y)", "y[0] = 2.0", "return np.sum(z)"],
        5,
        "and 'z' (read afterwards) shares its memory",
    ),
    (
        "update through a view a list holding its base sees",
        ["y = x * 1.0", "L = [y]", "v = y[1:3]", "v *= 2.0", "return np.sum(L[0])"],
        6,
        "and 'L' (read afterwards) shares its memory",
    ),
]


@pytest.mark.parametrize(
    ("name", "body", "line", "words"), REFUSED_AT_THE_CALL, ids=[c[0] for c in REFUSED_AT_THE_CALL]
)
def test_refused_at_the_call_names_file_line_and_shows_it(tmp_path, name, body, line, words):
    module = load_module(tmp_path, _source(body), name=f"late_{abs(hash(name)) % 10**8}")
    with pytest.raises(CheckError) as err:
        tl.grad(module.f)(np.ones(3))
    message = str(err.value)
    filename = module.__file__.rsplit("/", 1)[-1]
    assert f"{filename}:{line + 1}:" in message, message
    assert words in message, message
    shown = message.splitlines()[1].strip()
    assert shown and shown in _source(body).splitlines()[line], message


def test_async_function_is_refused(tmp_path):
    module = load_module(tmp_path, "async def f(x):\n    return x\n")
    with pytest.raises(SourceNotFoundError, match=r"plain `def`"):
        tl.grad(module.f)


def test_an_ambiguous_lambda_is_refused(tmp_path):
    module = load_module(tmp_path, "fs = (lambda x: x * 2, lambda x: x * 3)\n")
    with pytest.raises(SourceNotFoundError, match="which lambda of line 1"):
        tl.grad(module.fs[0])


def test_builtin_without_source_says_how_to_register_a_rule():
    with pytest.raises(SourceNotFoundError, match=r"tangentlike\.adjoint"):
        tl.grad(math.nextafter)


def test_unknown_function_says_how_to_register_a_rule(tmp_path):
    module = load_module(
        tmp_path, "import math\n\ndef f(x):\n    y = math.nextafter(x, 2.0)\n    return y * 2.0\n"
    )
    with pytest.raises(UnknownFunctionError) as err:
        tl.grad(module.f)(1.5)
    message = str(err.value)
    assert ":4:" in message and "nextafter" in message
    # the exact snippet, in DESIGN.md's spelling of the API
    assert "@tl.adjoint(math.nextafter)" in message and "d[x]" in message
    assert "import tangentlike as tl" in message


def test_non_scalar_output_points_to_vjp(tmp_path):
    module = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x)\n")
    with pytest.raises(NonScalarOutputError) as err:
        tl.grad(module.f)(np.ones(3))
    message = str(err.value)
    assert "vjp" in message and "(3,)" in message and ":4" in message


def test_gradient_through_a_rule_argument_without_derivative_is_refused(tmp_path):
    module = load_module(
        tmp_path,
        "import numpy as np\n\ndef f(x, lo):\n    y = np.clip(x, lo, 1.0)\n    return np.sum(y)\n",
    )
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(module.f, wrt=1)(np.ones(3), 0.5)
    assert "a_min" in str(err.value) and ":4:" in str(err.value)
    # with lo constant it is fine
    assert tl.grad(module.f)(np.ones(3) * 0.7, 0.5).tolist() == [1.0, 1.0, 1.0]


def test_wrong_arguments_for_a_rule(tmp_path):
    module = load_module(
        tmp_path,
        "import numpy as np\n\ndef f(x):\n    return np.sum(x, 0, None, None, False, 1, True, 2)\n",
    )
    with pytest.raises(UnsupportedSyntaxError, match="rule of sum"):
        tl.grad(module.f)(np.ones(3))


@pytest.mark.parametrize(
    "wrt,words",
    [
        (5, "out of range"),
        ("z", "not a parameter"),
        ((), "empty"),
        (1.5, "positions or names"),
    ],
)
def test_bad_wrt(tmp_path, wrt, words):
    module = load_module(tmp_path, "def f(x, y):\n    return x * y\n")
    with pytest.raises(WrtError, match=words) as err:
        tl.grad(module.f, wrt=wrt)
    if words != "empty" and not isinstance(wrt, float):
        assert "x, y" in str(err.value)


@pytest.mark.parametrize("value", [3, np.arange(3), True, np.array([True, False])])
def test_integer_and_boolean_arguments_are_not_differentiable(tmp_path, value):
    module = load_module(tmp_path, "import numpy as np\n\ndef f(x, y):\n    return np.sum(x * y)\n")
    with pytest.raises(WrtError, match="only floating-point"):
        tl.grad(module.f)(value, 2.0)
    # passed alongside, they are fine
    assert tl.grad(module.f, wrt=1)(value, 2.0) == float(np.sum(value))


def test_rule_must_start_with_result():
    def cube(x):
        return x * x * x

    with pytest.raises(RuleError, match="`result`"):

        @tl.adjoint(cube)
        def bad(x):
            d[x] = 3.0  # noqa: F821

    with pytest.raises(RuleError, match="parameters"):

        @tl.adjoint(cube)
        def bad2(result, y):
            d[y] = 3.0  # noqa: F821

    with pytest.raises(RuleError, match="not a parameter"):

        @tl.adjoint(cube)
        def bad3(result, x):
            d[z] = 3.0  # noqa: F821


def test_indexing_a_ragged_tuple_of_active_values_is_no_longer_an_error(tmp_path):
    # values of different shapes in one tuple: the tuple's adjoint is a list of per-element
    # adjoints (tests/transform/test_containers.py checks these against references)
    module = load_module(
        tmp_path,
        "import numpy as np\n\ndef f(x):\n    p = (x, x[:2])\n    u = p[1]\n    return np.sum(u)\n",
    )
    np.testing.assert_allclose(tl.grad(module.f)(np.ones(3)), [1.0, 1.0, 0.0])


def test_zip_as_a_value_of_differentiated_values_is_refused(tmp_path):
    # zip(...) outside a for header: its pairs would carry gradients, and zip has no rule
    module = load_module(
        tmp_path, "def f(x):\n    ps = list(zip(x, x * 2.0))\n    return ps[0][1]\n"
    )
    with pytest.raises(UnknownFunctionError, match="zip") as err:
        tl.grad(module.f)(np.ones(3))
    assert ":2:" in str(err.value) and "list(zip(x, x * 2.0))" in str(err.value)


def test_source_edited_after_import_names_the_file_and_says_what_to_do(tmp_path):
    from pathlib import Path

    from tangentlike.errors import SourceChangedError

    module = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x) * 2.0\n")
    path = Path(module.__file__)
    path.write_text(path.read_text().replace("2.0", "3.0"))
    with pytest.raises(SourceChangedError) as err:
        tl.grad(module.f, cache=False)
    message = str(err.value)
    assert message.startswith(f"{path}:3:1: the source of f changed after it was imported")
    assert "def f(x):\n    ^" in message
    assert "What to do: reload the module (importlib.reload) or restart" in message
