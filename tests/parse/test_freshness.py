"""A source file edited after import: the text on disk is not the code that runs. The
gradient is refused with an error saying so, never computed from the new text; the
comparison is exact (bytecode, constants, names) for every function of the corpus."""

from __future__ import annotations

import importlib
import inspect
import linecache
import sys
import textwrap
import types
from pathlib import Path

import pytest
from corpus import checkpointed, containers, functions, helpers, name_clashes, programs, writes
from reference import check_against_fd, load_module

import tangentlike as tl
from tangentlike.errors import SourceChangedError
from tangentlike.parse import freshness
from tangentlike.parse.source import _definition_line, file_lines


def compare(func: types.FunctionType) -> str:
    _, lines = file_lines(func)
    start = _definition_line(func.__code__, lines)
    return freshness.check(func, lines, start, inspect.getblock(lines[start:]))


def corpus_functions():
    seen: dict[int, types.FunctionType] = {}

    def add(obj: object) -> None:
        if isinstance(obj, types.FunctionType) and id(obj) not in seen:
            seen[id(obj)] = obj
        elif isinstance(obj, type):
            for value in vars(obj).values():
                add(getattr(value, "__func__", value))

    for module in (checkpointed, containers, functions, helpers, name_clashes, programs, writes):
        for value in vars(module).values():
            if getattr(value, "__module__", None) == module.__name__ or isinstance(value, type):
                add(value)
    return sorted(seen.values(), key=lambda f: (f.__module__, f.__qualname__))


@pytest.mark.parametrize(
    "func", corpus_functions(), ids=lambda f: f"{f.__module__}.{f.__qualname__}"
)
def test_no_corpus_function_trips_the_check_and_each_is_compared_exactly(func):
    assert compare(func) == "exact"


# Functions of every shape the comparison rebuilds a context for; each case: the module text
# (formatted with {k}), the expression naming the function, and a point to check.
SHAPES = {
    "module function": (
        """
        import numpy as np

        def f(x):
            return np.sin(x) * {k}
        """,
        "m.f",
    ),
    "future annotations": (
        """
        from __future__ import annotations

        import numpy as np

        def f(x: float) -> float:
            y: float = np.sin(x)
            return y * {k}
        """,
        "m.f",
    ),
    "method using super()": (
        """
        import numpy as np

        class Base:
            def scale(self, x):
                return x * 1.0

        class Model(Base):
            def scale(self, x):
                return super().scale(np.sin(x)) * {k}
        """,
        "m.Model.scale",
    ),
    "name-mangled attribute": (
        """
        import numpy as np

        class Model:
            __factor = 2.0

            def apply(self, x):
                return np.sin(x) * self.__factor * {k}
        """,
        "m.Model.apply",
    ),
    "closure": (
        """
        import numpy as np

        def make(a):
            b = 2.0

            def f(x):
                return np.sin(x) * a * b * {k}

            return f

        f = make(1.5)
        """,
        "m.f",
    ),
    "method of a class in a function": (
        """
        import numpy as np

        def make(a):
            class Local:
                def f(self, x):
                    return np.sin(x) * a * {k}

            return Local()

        obj = make(1.5)
        """,
        "m.obj.f",
    ),
    "lambda": (
        """
        import numpy as np

        f = lambda x: np.sin(x) * {k}
        """,
        "m.f",
    ),
    "decorated": (
        """
        import numpy as np
        import tangentlike as tl

        @tl.checkpoint
        def f(x):
            return np.sin(x) * {k}
        """,
        "m.f",
    ),
    "indented in an if": (
        """
        import numpy as np

        if True:
            def f(x):
                return np.sin(x) * {k}
        """,
        "m.f",
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_shape_is_compared_exactly(tmp_path, shape):
    text, where = SHAPES[shape]
    m = load_module(tmp_path, textwrap.dedent(text).format(k="2.0"))
    func = eval(where, {"m": m})
    assert compare(getattr(func, "__func__", func)) == "exact"


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize(
    "edit", [("2.0", "3.0"), ("* 2.0", "/ 2.0"), ("np.sin(x)", "np.cos(x)")], ids=str
)
def test_function_edited_after_import_is_refused(tmp_path, shape, edit):
    text, where = SHAPES[shape]
    m = load_module(tmp_path, textwrap.dedent(text).format(k="2.0"))
    func = eval(where, {"m": m})
    path = Path(m.__file__)
    new = path.read_text().replace(*edit)
    assert new != path.read_text()
    path.write_text(new)
    with pytest.raises(SourceChangedError) as info:
        tl.grad(func, cache=False)
    message = str(info.value)
    assert f"{path}:" in message
    assert "changed after it was imported" in message
    assert "importlib.reload" in message and "restart" in message


def test_edit_below_the_function_is_not_a_change_of_it(tmp_path):
    m = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x) * 2.0\n")
    path = Path(m.__file__)
    path.write_text(path.read_text() + "\n\ndef g(x):\n    return x\n")
    check_against_fd(m.f, tl.grad(m.f, cache=False)(0.3), [0.3], 0)


def test_lines_inserted_above_the_function_are_a_change(tmp_path):
    # its code still says it starts at line 3: tracebacks and the parse would miss it
    m = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x) * 2.0\n")
    path = Path(m.__file__)
    path.write_text("import math\n\n\n" + path.read_text())
    with pytest.raises(SourceChangedError) as info:
        tl.grad(m.f, cache=False)
    assert "does not define f" in str(info.value)


def test_reload_after_the_edit_differentiates_the_new_text(tmp_path):
    m = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x) * 2.0\n")
    sys.path.insert(0, str(tmp_path))
    try:
        path = Path(m.__file__)
        path.write_text(path.read_text().replace("2.0", "3.0"))
        with pytest.raises(SourceChangedError):
            tl.grad(m.f, cache=False)
        importlib.reload(m)
        check_against_fd(m.f, tl.grad(m.f, cache=False)(0.3), [0.3], 0)
    finally:
        sys.path.remove(str(tmp_path))


def test_stale_linecache_then_edit_then_grad_is_refused(tmp_path):
    """The text Python shows may be cached from before the edit; what is parsed is read
    again, compared with the code, and refused."""
    m = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sin(x) * 2.0\n")
    path = Path(m.__file__)
    linecache.getlines(str(path))  # a traceback printed earlier would have cached it
    path.write_text(path.read_text().replace("np.sin(x) * 2.0", "np.sin(x) * 2.0 + x"))
    with pytest.raises(SourceChangedError):
        tl.grad(m.f, cache=False)


def test_a_callee_edited_after_import_is_refused_at_its_own_line(tmp_path):
    h = load_module(tmp_path, "import numpy as np\n\ndef g(x):\n    return np.sin(x) * 2.0\n")
    m = load_module(tmp_path, f"import {h.__name__} as h\n\ndef f(x):\n    return h.g(x) * x\n")
    path = Path(h.__file__)
    path.write_text(path.read_text().replace("2.0", "4.0"))
    with pytest.raises(SourceChangedError) as info:
        tl.grad(m.f, cache=False)
    assert f"{path}:3:1" in str(info.value) and "of g changed" in str(info.value)


def test_tab_indentation_falls_back_to_the_weaker_comparison(tmp_path):
    # the wrappers indent with spaces; a tab-indented text is compared without them
    text = "import numpy as np\n\nif True:\n\tdef f(x):\n\t\treturn np.sin(x) * 2.0\n"
    m = load_module(tmp_path, text)
    assert compare(m.f) == "weaker"
    path = Path(m.__file__)
    path.write_text(path.read_text().replace("2.0", "3.0"))
    with pytest.raises(SourceChangedError):
        compare(m.f)


USER_TEST = """
import numpy as np
import tangentlike as tl


def loss(x):
    assert x.shape == (3,)
    return np.sum(x ** 2)


def test_grad():
    assert np.allclose(tl.grad(loss, cache=False)(np.ones(3)), 2.0)
"""


def test_function_in_a_pytest_module_with_rewritten_asserts_is_not_refused(tmp_path):
    import subprocess

    (tmp_path / "test_user.py").write_text(USER_TEST)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
            "TANGENTLIKE_DISK_CACHE": "0",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
