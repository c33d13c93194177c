"""analyze.tuple_items and the stop flag of analyze.liveness (issue 13).

A helper's Effects say which items of its returned tuple are its own new memory and
arrays; a caller's `s, v = h(x)` then gives s and v the memories of their own items
only. Liveness does not follow a loop's back edge from where its stop flag is set.
"""

from __future__ import annotations

import gast
from reference import load_module

from tangentlike.analyze import liveness
from tangentlike.analyze.tuple_items import Returned
from tangentlike.pipeline import ModuleBuilder
from tangentlike.rules.registry import default_registry

HELPERS = """
import numpy as np

G = np.ones(3)


def fresh_pair(a):
    return 0.0, np.sin(a)


def shared_pair(a):
    v = a * 2.0
    return v, v


def argument_pair(a):
    return a, np.cos(a)


def global_pair(a):
    return G, np.cos(a)


def early(a):
    if a > 1.0:
        return None
    return np.tanh(a), [a]


def appended(a, out):
    v = np.sin(a)
    out.append(v)
    return v, 1.0


def not_a_tuple(a):
    return [a, a]
"""


def test_effects_say_which_items_are_own_arrays(tmp_path):
    module = load_module(tmp_path, HELPERS)
    builder = ModuleBuilder(default_registry())

    def items(name):
        return builder.effects_of(getattr(module, name)).items

    own = Returned(own=True, array=True)
    assert items("fresh_pair") == (own, own)  # a number and a new array
    assert items("shared_pair") == (Returned(False, True), Returned(False, True))
    assert items("argument_pair") == (Returned(False, False), own)
    assert items("global_pair") == (Returned(False, False), own)
    assert items("early") == (own, Returned(own=False, array=False))  # None: no item read
    appended = builder.effects_of(module.appended)  # v is held by the caller's list too
    assert appended is None or appended.items[0].own is False
    assert items("not_a_tuple") == ()


def _loop_body(source: str):
    fn = gast.parse(source).body[0]
    return fn, next(s for s in fn.body if isinstance(s, gast.While))


STOPPED = """
def f(v, rows):
    _stop1 = False
    _k1 = 0
    _c3 = not _stop1
    if _c3:
        _c2 = len(rows)
        _c1 = _k1 < _c2
    else:
        _c1 = _c3
    while _c1:
        r = rows[_k1]
        _k1 = _k1 + 1
        if r:
            v = v + 1.0
            _stop1 = True
        w = v
        _c3 = not _stop1
        if _c3:
            _c2 = len(rows)
            _c1 = _k1 < _c2
        else:
            _c1 = _c3
    return v
"""


def test_liveness_ends_with_the_stop_flag():
    fn, loop = _loop_body(STOPPED)
    live = liveness.live_after(fn)
    assert liveness.stop_flag(loop) == "_stop1"
    stop = loop.body[2].body[1]  # `_stop1 = True`: the next round never runs
    assert "rows" not in live[id(stop)] and "_k1" not in live[id(stop)]
    update = loop.body[2].body[0]  # before it, the loop may go on (_stop1 not set yet)
    assert "v" in live[id(update)]
    first = loop.body[0]  # a round that did not stop reads rows again
    assert "rows" in live[id(first)]


def test_no_flag_without_the_lowered_test():
    source = STOPPED.replace("        else:\n            _c1 = _c3\n    return v", "    return v")
    fn, loop = _loop_body(source)
    assert liveness.stop_flag(loop) is None
    stop = loop.body[2].body[1]
    assert "rows" in liveness.live_after(fn)[id(stop)]  # followed as any loop
