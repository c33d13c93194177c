"""Updates of an array a list or dict holds at a key the function never reads (issue
13). The gradients of corpus/in_place_keyed.py run with corpus/in_place.py's cases
(central differences, autograd, value, forward mode); these tests look at the keys the
analysis finds, the generated check, the specialised builds and what stays refused.
"""

from __future__ import annotations

import collections

import gast
import numpy as np
import pytest
from corpus import in_place_keyed as keyed_cases
from reference import autograd_grad

import tangentlike as tl
from tangentlike.analyze.keyed import keyed_reads
from tangentlike.errors import CheckError
from tangentlike.runtime.indexing import items_at, unshared


def test_only_names_read_at_constant_keys_are_keyed():
    source = """
def f(x, y):
    D = {"a": x, "b": y}
    L = [x, y]
    E = {"a": x}
    M = [x]
    M.append(y)
    L[0] = y
    s = D["a"] + L[-1] + E["a"] + M[0] + len(E)
    for t in [L]:
        s = s + 1.0
    return s
"""

    fn = gast.parse(source).body[0]
    found = keyed_reads(fn)
    assert found == {"D": ("a",)}, found  # L iterated in a literal, E passed, M's method


def test_the_check_looks_at_the_keys_read():
    body = tl.grad(keyed_cases.dict_holding_the_array_at_a_key_not_read).source
    assert "(('a',),)" in body.split("# backward sweep")[0], body


def test_items_at_takes_the_keys_a_container_has():
    a, b = np.ones(2), np.zeros(2)
    assert items_at({"a": a, "b": b}, ("a", "c")) == (a,)
    assert items_at([a, b], (-1, 5))[0] is b
    assert items_at(a, (0,)) is a  # an array: whole
    made = collections.defaultdict(lambda: a, {"b": b})
    assert items_at(made, ("a",)) is made  # a read would make an item: whole
    unshared(a, ({"a": b, "b": a},), "ok", (("a",),))
    with pytest.raises(ValueError, match="shared"):
        unshared(a, ({"a": b, "b": a},), "shared", (("b",),))


@pytest.mark.parametrize("case", keyed_cases.CASES, ids=lambda c: c[0].__name__)
def test_generic_and_specialised_builds_match_autograd(case):
    f, make, wrt, equivalent = case
    args = make()
    df = tl.grad(f, wrt=wrt)
    for _ in range(3):  # the generic build, then the one specialised to the arguments
        changed = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        grads = df(*changed)
        for i, g in zip(wrt, grads, strict=True):
            np.testing.assert_allclose(g, autograd_grad(equivalent, list(args), i), rtol=1e-7)


@pytest.mark.parametrize(
    "f", [keyed_cases.dict_holding_the_array_at_a_key_read, keyed_cases.dict_read_whole]
)
def test_a_container_read_where_it_holds_the_array_is_refused(f):
    df = tl.grad(f, wrt=(0, 1))
    with pytest.raises(CheckError, match=r"`z /= -1.0 - x` .* and 'D' \(read afterwards\)"):
        df(np.arange(1.0, 5.0), 0.7)
