"""operands(): every local a value reads flows, is dropped for a reason, or is refused."""

from __future__ import annotations

import gast
import pytest
from reference import load_module

from tangentlike.analyze.operands import operands
from tangentlike.parse.resolve import Scope
from tangentlike.rules.registry import default_registry

SOURCE = """
import numpy as np

G = np.array([1.0, 2.0])


class Table:
    def __getitem__(self, k):
        return k


OBJ = Table()


def h(a, b):
    return a * b


def f(x, y, i):
    return x
"""

# (value, names that flow, names refused); every other local read is dropped for a reason
CASES = [
    ("x + y", "x y", ""),
    ("x % y", "x y", ""),
    ("x // y", "", ""),
    ("'%s' % x", "", "x"),
    ("x > y", "", ""),
    ("not x", "", ""),
    ("-x", "x", ""),
    ("(x, y)", "x y", ""),
    ("[x, 2.0]", "x", ""),
    ("{'a': x}", "x", ""),
    ("{x: y}", "y", "x"),
    ("x[i]", "x", ""),
    ("x[i:y]", "x", ""),
    ("G[i]", "", ""),
    ("OBJ[x]", "", "x"),
    ("np.mgrid[0:x]", "", "x"),
    ("np.r_[x, 0:i, y]", "x y", "i"),
    ("np.c_[x]", "x", ""),
    ("np.r_['r', x]", "", "x"),
    ("np.sum(x, axis=i)", "x", "i"),
    ("np.clip(x, y, 1.0)", "x", "y"),
    ("np.full_like(x, y)", "y", ""),
    ("np.full(i, y)", "y", ""),
    ("np.zeros_like(x)", "", ""),
    ("np.argmax(x)", "", ""),
    ("np.sum(x, 0, None, None, False, 1.0, True, i)", "i x", "i x"),
    ("str(x)", "x", "x"),  # refused, and still flowing: a later refusal cannot hide it
    ("repr(y)", "y", "y"),
    ("len(x)", "", ""),
    ("f'{x} and {y}'", "", "x y"),
    ("x.shape", "", ""),
    ("x.real", "x", ""),
    ("h(x, y)", "x y", ""),
    ("unknown(x, y)", "x y", ""),
    ("divmod(x, y)", "x y", ""),
    ("x if y else i", "i x y", ""),
]


@pytest.fixture(scope="module")
def scope(tmp_path_factory):
    module = load_module(tmp_path_factory.mktemp("operands"), SOURCE)
    return Scope(module.f, frozenset({"x", "y", "i"}), {})


@pytest.mark.parametrize(("value", "flows", "refused"), CASES, ids=[c[0] for c in CASES])
def test_classification(scope, value, flows, refused):
    node = gast.parse(value, mode="eval").body
    found = operands(node, scope, default_registry())
    assert sorted(found.flows) == flows.split(), found
    assert sorted({n for r in found.refused for n in r.names}) == refused.split(), found
    for r in found.refused:
        if r.names:
            assert r.what and r.hint
