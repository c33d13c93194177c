"""The stage checkers: the sweep form (transform/sweep_check.py) and the generated
module (emit/module_check.py) hold on real builds in debug mode, and each raises
InternalError (not an assert) on a broken input."""

from __future__ import annotations

import gast
import numpy as np
import pytest
from corpus import checkpointed as c
from corpus.programs import CASES

import tangentlike as tl
from tangentlike.emit import module_check
from tangentlike.emit.module import ModuleText
from tangentlike.errors import InternalError
from tangentlike.syntax import nodes
from tangentlike.transform import sweep, sweep_check

CHECKPOINTED = [c.rnn, c.blocks_in_loop, c.writes_in_place, c.appends, c.checkpointed_calls]


@pytest.mark.parametrize("func", [case[0] for case in CASES[:40]] + CHECKPOINTED)
def test_debug_builds_keep_the_sweep_form_and_bind_every_name(func):
    try:
        df = tl.grad(func, 0, checks=True, cache=False)
    except tl.TangentlikeError as err:
        assert not isinstance(err, InternalError), err
        return
    assert "sweep form broken" not in tl.source(df)


def _fn(body: list[gast.stmt]) -> gast.FunctionDef:
    return nodes.function_def("f", nodes.arguments(["x"]), body)


def test_a_restore_of_a_foreign_statement_is_refused():
    fn = _fn([nodes.return_(nodes.name("x"))])
    elsewhere = nodes.assign("y", nodes.name("x"))
    code = [sweep.restore(elsewhere, nodes.assign("x", nodes.const(0)))]
    with pytest.raises(InternalError, match="a Restore names a statement"):
        sweep_check.backward(code, fn, ())


def test_a_copy_of_a_plain_loop_is_refused():
    loop = nodes.for_("i", nodes.name("x"), [nodes.assign("y", nodes.name("i"))])
    fn = _fn([loop, nodes.return_(nodes.name("x"))])
    code = [sweep.step_copy(loop, True, nodes.tuple_([nodes.name("x")]))]
    with pytest.raises(InternalError, match="not checkpointed"):
        sweep_check.backward(code, fn, ())
    sweep_check.backward(code, fn, (id(loop),))  # checkpointed: fine


def test_a_left_over_restore_is_refused():
    site = nodes.assign("x", nodes.const(1))
    fn = _fn([site, sweep.restore(site, nodes.assign("x", nodes.const(0)))])
    with pytest.raises(InternalError, match="resolves every Restore"):
        sweep_check.resolved([fn])


def test_a_name_the_module_never_binds_is_refused():
    module = ModuleText("import numpy as np\n\ndef df(x):\n    return np.sin(h(x))\n", {})
    with pytest.raises(InternalError, match="reads `h` in df"):
        module_check.check(module)
    module_check.check(ModuleText(module.source, {"h": np.sin}))  # the loader binds it
