"""syntax.blocks.block cuts exactly the lines inspect.getblock cuts."""

from __future__ import annotations

import inspect
import pathlib
import re

import pytest

from tangentlike.syntax import blocks

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = (
    sorted((ROOT / "tangentlike").rglob("*.py"))[::3] + sorted((ROOT / "tests").rglob("*.py"))[::9]
)
_HEAD = re.compile(r"^\s*(def\s|async\s+def\s|class\s|@|.*lambda)")


def _cut(cut, lines: list[str]) -> object:
    try:
        return cut(lines)
    except Exception as err:  # getblock's own errors (a string open at the end)
        return type(err)


def _same(lines: list[str]) -> bool:
    return _cut(blocks.block, lines) == _cut(inspect.getblock, lines)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_block_of_real_modules_is_getblocks(path: pathlib.Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if _HEAD.match(line):
            assert _same(lines[i:]), f"{path}:{i + 1}"


CASES = {
    "trailing comments at the body's depth are kept, shallower ones not": (
        "def f(x):\n    y = x\n    return y\n    # kept\n\n  # not kept\n# nor this\n"
        "def g(): pass\n"
    ),
    "a comment after a shallower one is kept": (
        "def f(x):\n    return x\n# no\n    # yes\nz = 1\n"
    ),
    "a multi-line header closed at the def's depth": (
        "def f(\n    x,\n    y=(1,\n2),\n):\n    return x\nq = 2\n"
    ),
    "decorators, with arguments over lines": (
        "@a\n@b(1,\n  2)\ndef f(x):\n    return x\n\n@c\ndef g(): pass\n"
    ),
    "a docstring holding lines at column 0": (
        '    def f(x):\n        """doc\nat column 0\n        """\n        return x\n    y = 1\n'
    ),
    "a one-line body": "def f(x): return x\n# c\nx = 1\n",
    "a one-line body then a deeper line": "def f(x): return x\n    # c\ny = 2\n",
    "a lambda": "f = lambda x: (x +\n  1)\ny = 2\n",
    "a class with methods": (
        "class A:\n    x = 1\n\n    def f(self):\n        return 1\n    # end\nB = 2\n"
    ),
    "an indented method": "    def f(self):\n        return 1\n\n    def g(self):\n        pass\n",
    "the end of the text without a newline": "def f(x):\n    return x",
    "a backslash continuation at column 0": "def f(x):\n    return x + \\\n1\ny = 2\n",
    "tabs": "def f(x):\n\treturn x\n\t# c\ny = 1\n",
    "a comment before the body": "def f(x):\n# c\n    return x\n\ny = 2\n",
    "async": "async def f(x):\n    await x\n    # c\ny = 1\n",
    "lines that do not parse": "def f(x:\n    return x\n",
    "a nested def ends the outer one's body": (
        "def f(x):\n    def g(y):\n        return y\n    # c\n        # d\nz = 1\n"
    ),
}


@pytest.mark.parametrize("text", CASES.values(), ids=list(CASES))
def test_edge_cases_are_getblocks(text: str) -> None:
    lines = text.splitlines(keepends=True)
    for i in range(len(lines)):
        assert _same(lines[i:]), i


def test_the_common_cases_take_the_fast_path() -> None:
    lines = CASES["a multi-line header closed at the def's depth"].splitlines(keepends=True)
    assert blocks._fast_end(lines) == 6
    assert blocks._fast_end(CASES["a lambda"].splitlines(keepends=True)) is None


def test_source_of_every_runtime_helper_is_inspects() -> None:
    import importlib
    import pkgutil

    from tangentlike import runtime

    count = 0
    for info in pkgutil.iter_modules(runtime.__path__):
        module = importlib.import_module(f"{runtime.__name__}.{info.name}")
        for obj in vars(module).values():
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and (
                obj.__module__ == module.__name__
            ):
                assert blocks.source(obj) == inspect.getsource(obj), obj
                count += 1
    assert count > 100
