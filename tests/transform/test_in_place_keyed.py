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
from tangentlike.runtime.indexing import _items_at, unshared


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
    assert _items_at({"a": a, "b": b}, ("a", "c")) == (a,)
    assert _items_at([a, b], (-1, 5))[0] is b
    assert _items_at(a, (0,)) is a  # an array: whole
    made = collections.defaultdict(lambda: a, {"b": b})
    assert _items_at(made, ("a",)) is made  # a read would make an item: whole
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


WRITTEN = """
import numpy as np


def f(y):
    D = {"a": y / 2.0, "b": y}
    z = y[0:2]
    z *= 2.0
    E = {"c": y * 3.0}
    v = E["c"]  # what a dict holds may be no array: its slice is asked at run time
    w = v[1:3]
    w += 1.0
    return np.sum(y * y) + np.sum(D["a"]) + np.sum(v * v)
"""


def test_a_written_module_carries_its_checks_and_needs_no_tangentlike(tmp_path, monkeypatch):
    """The keyed check (unshared/untouched with keys) and runtime.part_of run in a module
    written by the command line, without tangentlike."""
    import subprocess
    import sys
    import textwrap

    from reference import load_module

    from tangentlike.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(WRITTEN)
    assert main(["grad", "m.py:f", "-o", "df.py"]) == 0
    source = (tmp_path / "df.py").read_text()
    assert "part_of(" in source and "('a',)" in source, source
    code = textwrap.dedent(
        """
        import sys
        sys.modules["tangentlike"] = None
        import importlib.util
        import numpy as np
        spec = importlib.util.spec_from_file_location("written_df", "df.py")
        written = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(written)
        print(list(written.df(np.arange(4.0))))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    f = load_module(tmp_path, WRITTEN, "written_keyed").f
    expected = tl.grad(f)(np.arange(4.0))
    np.testing.assert_allclose(eval(done.stdout.replace("np.float64", "")), expected)
