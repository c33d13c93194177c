"""The error for a differentiated value reaching a function with no derivative rule.

It names the function by its public path and the user's line, and gives the exact
registration snippet (`@tl.adjoint(<path>)` over a template with the function's
parameters); registering that snippet makes the same gradient build.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """\
import numpy as np
import scipy.special


def helper(a, b=2.0):
    return a * b


def uses_struve(x):
    y = x * 2.0
    return np.sum(scipy.special.struve(1.0, y))


def uses_builtin(x):
    return np.sum(np.frexp(x)[0])
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("unknown"), SOURCE)


def _error(f, *args):
    with pytest.raises(tl.UnknownFunctionError) as info:
        tl.grad(f)(*args)
    return info.value


def test_a_scipy_ufunc_is_named_by_its_public_path_with_a_snippet(module):
    err = _error(module.uses_struve, np.ones(3))
    text = str(err)
    assert "no derivative rule for scipy.special.struve" in text
    assert err.location.line == 11 and err.location.filename.endswith(".py")
    assert "scipy.special.struve(1.0, y)" in text  # the line, with a caret under it
    # the caret is on the call, not on `return`
    line = "    return np.sum(scipy.special.struve(1.0, y))"
    assert err.location.col == line.index("scipy.special.struve")
    assert "\n" + " " * (4 + line.index("scipy") - 4) + "^" in text
    assert "    @tl.adjoint(scipy.special.struve)" in text
    assert "    def struve_adjoint(result, x, y):" in text
    assert "        d[x] = d[result] * ..." in text
    assert "import scipy.special" in text and "from tangentlike import d" in text
    assert "_ufuncs" not in text


@pytest.mark.parametrize(
    ("func", "expected"),
    [
        ("scipy.special.struve", "scipy.special.struve"),
        ("scipy.linalg.lu_factor", "scipy.linalg.lu_factor"),
        ("scipy.stats.norm.ppf", "scipy.stats.norm.ppf"),
        ("np.frexp", "numpy.frexp"),
    ],
)
def test_public_paths(func, expected):
    import scipy.linalg
    import scipy.special
    import scipy.stats

    from tangentlike.rules.unknown import public_path

    obj = eval(func, {"np": np, "scipy": scipy})
    assert public_path(obj) == expected


def test_a_function_with_a_supported_replacement_names_it():
    import scipy.linalg

    from tangentlike.rules.registry import default_registry
    from tangentlike.rules.unknown import message

    what, hint = message(scipy.linalg.lu_solve, default_registry(), "f")
    assert "scipy.linalg.lu_solve" in what
    assert "call scipy.linalg.solve(a, b), which has a rule" in hint
    assert "def lu_solve_adjoint(result, lu_and_piv, b, trans=0, " in hint


def test_the_snippet_registers_a_rule_that_builds(module):
    import scipy.special

    from tangentlike.rules.registry import default_registry

    registry = default_registry().copy()
    d = tl.d

    @tl.adjoint(scipy.special.struve, registry=registry)
    def struve_adjoint(result, x, y):
        lower, upper = scipy.special.struve(x - 1.0, y), scipy.special.struve(x + 1.0, y)
        extra = (y / 2.0) ** x / (np.sqrt(np.pi) * scipy.special.gamma(x + 1.5))
        d[y] = d[result] * 0.5 * (lower - upper + extra)

    assert registry.lookup(scipy.special.struve) is not None


def test_a_refused_function_says_so():
    from tangentlike.rules.registry import default_registry
    from tangentlike.rules.unknown import message

    registry = default_registry()
    refused = next(iter(registry.refused_primals()))
    what, _ = message(refused, registry, "f")
    assert "a differentiated value reaches it" in what
