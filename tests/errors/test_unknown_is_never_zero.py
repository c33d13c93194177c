"""A differentiated value read where no gradient can follow is refused, never dropped.

Each case's primal runs and its output depends on x through the refused operation, so a
zero gradient would be silently wrong; each message names file:line, shows the line with
a caret and says what to do. With the operand held constant (or the result unused) the
same operations are fine.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

PRELUDE = (
    "import numpy as np\n\n\n"
    "class Table:\n"
    "    def __getitem__(self, k):\n"
    "        return k * 3.0\n\n\n"
    "class Opaque:\n"
    "    __getitem__ = staticmethod(lambda k: k * 3.0)\n\n\n"
    "TABLE = Table()\n"
    "OPAQUE = Opaque()\n"
    "WEIGHTS = np.array([1.0, 2.0, 3.0])\n\n\n"
    "def f(x):\n"
)
LINE = PRELUDE.count("\n") + 1  # the first body line

# (name, body lines, index of the offending line, words of the message)
CASES = [
    ("f-string", ["s = f'{x}'", "return float(s)"], 0, "f-string"),
    ("str", ["return float(str(x))"], 0, "str makes text"),
    ("repr", ["return float(repr(x))"], 0, "repr makes text"),
    ("format", ["return float(format(x, '.17g'))"], 0, "format makes text"),
    ("ascii", ["return float(ascii(x))"], 0, "ascii makes text"),
    ("%-formatting", ["return float('%r' % x)"], 0, "%-formatting"),
    ("%-formatting bytes", ["return float(b'%r' % x)"], 0, "%-formatting"),
    ("text concatenated", ["s = 'v' + str(x)", "return float(s[1:])"], 0, "str makes text"),
    ("dict key", ["d = {x: 1.0}", "return list(d)[0]"], 0, "dictionary key"),
    ("a global object's opaque __getitem__", ["return OPAQUE[x]"], 0, "global object OPAQUE"),
    (
        "a local object's opaque __getitem__",
        ["t = Opaque()", "return t[x]"],
        1,
        "an object with its own [...]",
    ),
    ("np.mgrid", ["return float(np.sum(np.mgrid[0.0:x]))"], 0, "np.mgrid"),
    ("np.ogrid", ["return float(np.sum(np.ogrid[0.0:x]))"], 0, "np.ogrid"),
    ("np.r_ range bound", ["return np.sum(np.r_[0.0:x])"], 0, "range bound"),
    ("np.r_ directive", ["return np.sum(np.r_['0,2', [x], [x]])"], 0, "string directive"),
    ("np.c_ directive", ["return np.sum(np.c_['r', [x], [x]])"], 0, "string directive"),
    ("rule parameter", ["return np.sum(np.clip(1.0, x, 2.0))"], 0, "'a_min' of clip"),
]


@pytest.mark.parametrize(("name", "body", "line", "words"), CASES, ids=[c[0] for c in CASES])
def test_refused_with_a_located_message(tmp_path, name, body, line, words):
    source = PRELUDE + "".join(f"    {b}\n" for b in body)
    module = load_module(tmp_path, source)
    x = 1.25
    module.f(x)  # the primal runs
    with pytest.raises(TangentlikeError) as err:
        tl.grad(module.f)(x)
    message = str(err.value)
    filename = module.__file__.rsplit("/", 1)[-1]
    assert f"{filename}:{LINE + line}:" in message, message
    assert words in message, message
    assert "^" in message and "What to do" in message, message
    assert body[line].split("=")[0].strip()[:6] in message.splitlines()[1], message


# The same operations on values that do not depend on x: no error, the right gradient.
FINE = [
    ("print an f-string", ["print(f'x = {x}')", "return x * 2.0"], 2.0),
    ("label from str", ["label = 'v' + str(x)", "return x * 2.0"], 2.0),
    ("constant key", ["d = {'a': x}", "return d['a'] * 2.0"], 2.0),
    ("index a global array", ["i = int(x)", "return WEIGHTS[i] * x"], 2.0),
    ("a global object's __getitem__", ["return TABLE[x]"], 3.0),
    ("a local object's __getitem__", ["t = Table()", "return t[x] * 2.0"], 6.0),
    ("constant-bounded np.r_", ["return np.sum(np.r_[0:3, x] * x)"], 3.0 + 2 * 1.25),
    ("np.mgrid with constant bounds", ["return np.sum(np.mgrid[0:3]) * x"], 3.0),
    ("clip with constant bounds", ["return np.clip(x, 0.0, 2.0) * 1.0"], 1.0),
    ("%-formatting printed", ["print('%r' % x)", "return x * 2.0"], 2.0),
]


@pytest.mark.parametrize(("name", "body", "expected"), FINE, ids=[c[0] for c in FINE])
def test_the_same_operations_off_the_gradient_path_are_fine(tmp_path, name, body, expected):
    module = load_module(tmp_path, PRELUDE + "".join(f"    {b}\n" for b in body))
    assert np.isclose(tl.grad(module.f)(1.25), expected)
