"""What the function support still refuses: each message names file:line, shows the line
with a caret and says what to do; none of these may produce a gradient."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

PRELUDE = "import numpy as np\nimport tangentlike as tl\n\n"

# (name, module source after the prelude, function, wrt, arguments, line in file, words)
CASES = [
    (
        "a call that may write a differentiated value into an array",
        # recursive, so not inlined (normalize.helper_calls): a call whose result is unused
        "def writer(out, v, n=0):\n    if n > 0:\n        return writer(out, v, n - 1)\n"
        "    out[0] = np.sum(v)\n    return 0\n\n"
        "def f(x):\n    out = np.zeros(3)\n    writer(out, x)\n    return np.sum(out)\n",
        "f",
        0,
        lambda: (np.ones(3),),
        12,
        "not used",
    ),
    (
        "np.copyto into an array the output reads",
        "def f(x):\n    out = np.zeros(3)\n    np.copyto(out, x)\n    return np.sum(out)\n",
        "f",
        0,
        lambda: (np.ones(3),),
        6,
        "in place",
    ),
    (
        "a differentiated value caught by a callee's **kwargs",
        "def g(**vs):\n    return vs['a'] * 2.0\n\ndef f(x):\n    return np.sum(g(a=x))\n",
        "f",
        0,
        lambda: (np.ones(3),),
        8,
        "**vs",
    ),
    (
        "a differentiated value after *seq",
        "def g(a, b, c):\n    return a * b * c\n\n"
        "def f(x, *rest):\n    return np.sum(g(*rest, x))\n",
        "f",
        0,
        lambda: (np.ones(3), 2.0, 3.0),
        8,
        "position is unknown",
    ),
    (  # a tuple bound once is spelled out; a list that grows is not
        "a differentiated value inside *seq",
        "def g(a, b):\n    return a * b\n\n"
        "def f(x):\n    pair = [x]\n    pair.append(x)\n    return np.sum(g(*pair))\n",
        "f",
        0,
        lambda: (np.ones(3),),
        10,
        "star-unpacking",
    ),
    (  # a function stored on the instance is called (the gradient is built for it)
        "objects of different classes in a list",
        "class Up:\n    def __call__(self, x):\n        return x * 2.0\n\n"
        "class Down:\n    def __call__(self, x):\n        return x * 3.0\n\n"
        "class M:\n    def __init__(self):\n        self.layers = [Up(), Down()]\n\n"
        "    def loss(self, x):\n        h = x\n        for layer in self.layers:\n"
        "            h = layer(h)\n        return np.sum(h)\n\n"
        "def f(m, x):\n    return m.loss(x)\n",
        "f",
        1,
        lambda: (None, np.ones(3)),
        19,
        "cannot tell what calling",
    ),
    (
        "a method of a builtin object",
        "def f(cfg, x):\n    return np.sum(x * cfg.setdefault('a', 2.0))\n",
        "f",
        1,
        lambda: ({"a": 2.0}, np.ones(3)),
        5,
        "method call",
    ),
    (
        "calling an object without __call__",
        "class Box:\n    def __init__(self):\n        self.k = 2.0\n\n"
        "def f(box, x):\n    return np.sum(box(x))\n",
        "f",
        1,
        lambda: (None, np.ones(3)),
        9,
        "__call__",
    ),
    (
        "super() outside a method",
        "def f(x):\n    return np.sum(super().forward(x))\n",
        "f",
        0,
        lambda: (np.ones(3),),
        5,
        "super()",
    ),
    (
        "one function given two classes in one gradient",
        "class A:\n    def h(self, x):\n        return x * 2.0\n\n"
        "class B(A):\n    def h(self, x):\n        return x * 3.0\n\n"
        "def g(m, x):\n    return m.h(x)\n\n"
        "def f(a, b, x):\n    return np.sum(g(a, x) + g(b, x))\n",
        "f",
        2,
        lambda: (None, None, np.ones(3)),
        16,
        "different classes",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refused_with_location_line_and_advice(tmp_path, case):
    _, source, name, wrt, make, line, words = case
    module = load_module(tmp_path, PRELUDE + source)
    args = make()
    if name == "f" and "class M" in source:
        args = (module.M(), *args[1:])
    if "class Box" in source:
        args = (module.Box(), *args[1:])
    if "class A" in source:
        args = (module.A(), module.B(), *args[2:])
    with pytest.raises(UnsupportedSyntaxError) as err:
        tl.grad(getattr(module, name), wrt=wrt)(*args)
    message = str(err.value)
    filename = module.__file__.rsplit("/", 1)[-1]
    assert f"{filename}:{line}:" in message, message
    assert words.lower() in message.lower(), message
    assert "^" in message and "What to do" in message, message
    shown = message.splitlines()[1].strip()
    assert shown and shown in (PRELUDE + source).splitlines()[line - 1], message


def test_tl_stop_gradient_is_the_escape_hatch_for_a_logging_helper(tmp_path):
    module = load_module(
        tmp_path,
        PRELUDE + "LOG = []\n\ndef log(v):\n    LOG.append(float(np.sum(v)))\n    return 0\n\n"
        "def f(x):\n    log(tl.stop_gradient(x))\n    return np.sum(x * 2.0)\n",
    )
    assert tl.grad(module.f)(np.ones(3)).tolist() == [2.0, 2.0, 2.0]
    assert module.LOG == [3.0]  # ran once, in the forward sweep


def test_the_command_line_tool_refuses_a_gradient_built_per_call(tmp_path, capsys, monkeypatch):
    from tangentlike.cli import main

    (tmp_path / "objs.py").write_text(
        PRELUDE + "class M:\n    def loss(self, x):\n        return np.sum(x * x)\n\n"
        "def f(m, x):\n    return m.loss(x)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["grad", "objs.py:f", "--wrt", "x", "-o", "out.py"]) == 2
    assert "classes of its arguments m" in capsys.readouterr().err
    assert not (tmp_path / "out.py").exists()
