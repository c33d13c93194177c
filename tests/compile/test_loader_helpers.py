"""compile/loader.compiled: a module's runtime helpers compiled once per process and moved
to their lines; the module defines the functions one compile of its text defines."""

from __future__ import annotations

import marshal
import traceback
import types

import numpy as np
import pytest

import tangentlike as tl
import tangentlike.gradients
import tangentlike.pipeline
from tangentlike.compile import loader

_PLAIN = [a for a in dir(types.CodeType) if a.startswith("co_")]
_PLAIN = [a for a in _PLAIN if a not in ("co_consts", "co_lnotab", "co_lines", "co_positions")]


def same_code(a: types.CodeType, b: types.CodeType) -> bool:
    """Equal code objects: every attribute, line and position, constants (nested code too)."""
    if any(getattr(a, attr) != getattr(b, attr) for attr in _PLAIN):
        return False
    if list(a.co_lines()) != list(b.co_lines()):
        return False
    if list(a.co_positions()) != list(b.co_positions()) or len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts, strict=True):
        if isinstance(x, types.CodeType):
            if not same_code(x, y):
                return False
        elif type(x) is not type(y) or (x != y and x == x):
            return False
    return True


def _texts(monkeypatch, f, **options):
    """The ModuleText of a cold build of `f`'s gradient."""
    made = []
    real = tangentlike.pipeline.render

    def spy(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(tangentlike.pipeline, "render", spy)
    tangentlike.gradients._cache.clear()
    tl.grad(f, **options)
    return made[-1]


def _sums(w, x):
    h = np.tanh(x @ w)
    return np.sum(h[1:] * np.diff(h)) + np.dot(w[0], w[1])


def _rows(w, xs, k):
    h = np.zeros(w.shape[1])
    for t in tl.checkpointed(range(len(xs)), snapshots=k):
        h = np.sin(xs[t] @ w + h)
    return np.sum(h * h)


@pytest.mark.parametrize("f", [_sums, _rows])
def test_the_functions_and_classes_of_one_compile(f, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path))
    text = _texts(monkeypatch, f, wrt=(0,))
    assert len(text.helpers) >= 2
    code = loader.compiled(text.source, "t", text.helpers)
    assert isinstance(code, tuple) and loader.is_code_for(code, text.source, "t")
    whole = vars(loader.load(text.source, "t", text.external, loader.compiled(text.source, "t")))
    split = vars(loader.load(text.source, "t", text.external, code))
    assert set(whole) == set(split)
    compared = 0
    for name, value in whole.items():
        found = [(value, split[name])]
        if isinstance(value, type):
            found += [(v, vars(split[name])[k]) for k, v in vars(value).items()]
        for a, b in found:
            if isinstance(a, types.FunctionType):
                assert same_code(a.__code__, b.__code__), name
                compared += 1
    assert compared > len(text.helpers)


def test_a_helpers_traceback_shows_its_line_in_the_module(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path))
    text = _texts(monkeypatch, _sums, wrt=(0,))
    code = loader.compiled(text.source, "t", text.helpers)
    module = loader.load(text.source, "t", text.external, code)
    helper = next(v for v in vars(module).values() if isinstance(v, types.FunctionType))
    try:
        helper(*[object()] * helper.__code__.co_argcount)
    except Exception as err:  # any error: its frames are what is checked
        frames = traceback.extract_tb(err.__traceback__)
    else:
        pytest.skip("the helper took objects")
    mine = [fr for fr in frames if fr.filename == module.__file__]
    lines = text.source.splitlines()
    assert mine and all(fr.line == lines[fr.lineno - 1].strip() for fr in mine)
    assert any(f"def {helper.__name__}(" in lines[n] for n in range(mine[0].lineno))


def test_helpers_not_where_said_compile_the_module_as_one() -> None:
    source = "import numpy as np\n\n\ndef f(x):\n    return np.sin(x)\n"
    assert isinstance(loader.compiled(source, "t", ("def g(x):\n    return x",)), types.CodeType)
    assert isinstance(loader.compiled(source, "t"), types.CodeType)


def test_the_code_tuple_survives_marshal_and_is_checked_as_a_whole() -> None:
    helper = "def g(x):\n    return np.cos(x)"
    source = f"import numpy as np\n\n\n{helper}\n\n\ndef f(x):\n    return g(x) + 1.0\n"
    code = loader.compiled(source, "t", (helper,))
    assert isinstance(code, tuple) and len(code) == 3  # before, the helper, after
    again = marshal.loads(marshal.dumps(code))
    assert loader.is_code_for(again, source, "t")
    assert not loader.is_code_for(again, source + "\n", "t")
    assert not loader.is_code_for((*again, "x"), source, "t")
    assert loader.load(source, "t", {}, again).f(0.0) == 2.0


def test_statements_run_in_the_order_of_the_text() -> None:
    """A helper's default reads a constant bound before it; the function after it reads
    the helper; the imports bind what they bound."""
    helper = "def g(x, e=EPS):\n    return np.cos(x) * e"
    source = (
        "# header\nimport numpy as np\n\nEPS = 2.0\n\n# --- helpers ---\n\n\n"
        f"{helper}\n\n\ndef f(x):\n    return g(x) + np.sin(x)\n"
    )
    code = loader.compiled(source, "t", (helper,))
    assert isinstance(code, tuple)
    module = loader.load(source, "t", {}, code)
    assert module.f(0.0) == 2.0 and module.np is np
    whole = loader.load(source, "t", {}, loader.compiled(source, "t"))
    assert same_code(whole.f.__code__, module.f.__code__)
    assert same_code(whole.g.__code__, module.g.__code__)
