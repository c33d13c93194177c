"""compile/guards.py: the one generated check run before each call, step by step, and what
it refreshes in place instead of asking for a rebuild."""

from __future__ import annotations

import builtins
import types

import numpy as np
import pytest

from tangentlike.compile.guards import Guards
from tangentlike.parse.record import Recorder


class Registry:
    version = 0


def namespace_function(**globals_):
    """A function whose globals are `globals_` (what the steps are read from)."""
    code = compile("def f():\n    return 0\n", "<guards test>", "exec")
    scope = dict(globals_)
    exec(code, scope)
    return scope["f"], scope


def guards_of(record: Recorder, namespace: dict | None = None) -> Guards:
    return Guards(record.resolutions, record.watches, record.bindings, namespace or {}, Registry())


def test_global_step_holds_until_rebound_and_a_literal_is_refreshed():
    f, g = namespace_function(COEF=2.0, helper=len)
    record = Recorder()
    record.resolved(f, ("global", "COEF"), g["COEF"])
    record.resolved(f, ("global", "helper"), g["helper"])
    guards = guards_of(record)
    assert guards.check()
    g["COEF"] = float("2.0")  # equal: refreshed, not rebuilt
    assert not guards.check() and guards.refresh() and guards.check()
    g["COEF"] = 3.0
    assert not guards.check() and not guards.refresh()
    g["COEF"] = 2.0
    assert guards.refresh()
    g["helper"] = abs
    assert not guards.check() and not guards.refresh()
    del g["helper"]
    assert not guards.check()


def test_builtin_step_fails_once_a_global_shadows_it():
    f, g = namespace_function()
    record = Recorder()
    record.resolved(f, ("builtin", "abs"), builtins.abs)
    guards = guards_of(record)
    assert guards.check()
    g["abs"] = lambda x: x
    assert not guards.check()


def test_attribute_chain_method_and_class_steps():
    module = types.ModuleType("m")

    class Model:
        def forward(self, x):
            return x

    module.g = len
    obj = Model()
    record = Recorder()
    record.resolved(module, ("attr", "g"), module.g)
    record.resolved(obj, ("attr", "forward"), obj.forward)  # a new bound method each read
    record.resolved(obj, ("type", ""), Model)
    record.resolved(Model, ("mro", "0"), Model)
    guards = guards_of(record)
    assert guards.check()
    Model.forward = lambda self, x: 2 * x
    assert not guards.check()
    del Model.forward
    Model.forward = record.resolutions[1].value.__func__
    assert guards.check()
    module.g = abs
    assert not guards.check()


def test_function_code_and_defaults_steps():
    def h(x, a=1.0):
        return x * a

    record = Recorder()
    record.resolved(h, ("code", ""), h.__code__)
    record.resolved(h, ("defaults", ""), h.__defaults__)
    guards = guards_of(record)
    assert guards.check()
    h.__defaults__ = (float("1.0"),)  # an equal tuple of literals: refreshed
    assert not guards.check() and guards.refresh()
    h.__defaults__ = (2.0,)
    assert not guards.check() and not guards.refresh()


def test_a_global_array_the_module_imported_is_rebound_there():
    f, g = namespace_function(W=np.ones(2))
    generated = {"W_2": g["W"]}  # the generated module's name for it
    record = Recorder()
    record.resolved(f, ("global", "W"), g["W"])
    record.bound(f, ("global", "W"), "W_2")
    guards = guards_of(record, generated)
    assert guards.check()
    g["W"] = np.zeros(3)
    assert not guards.check() and guards.refresh() and guards.check()
    assert generated["W_2"] is g["W"]
    g["W"] = 1.0  # no longer an array: rebuilt
    assert not guards.check() and not guards.refresh()


def test_watched_fingerprint_and_registry_version():
    mapping = {"a": 1.0}
    record = Recorder()
    record.watch(mapping, "keys")
    registry = Registry()
    guards = Guards(record.resolutions, record.watches, {}, {}, registry)
    mapping["a"] = 2.0  # values are read when the gradient runs
    assert guards.check()
    mapping["b"] = 1.0
    assert not guards.check() and not guards.refresh()
    del mapping["b"]
    assert guards.check()
    registry.version = 1
    assert not guards.check() and not guards.refresh()


def test_a_value_made_anew_at_each_read_is_compared_by_kind():
    class Config:
        @property
        def weights(self):
            return [1.0, 2.0]

    obj = Config()
    record = Recorder()
    record.resolved(obj, ("attr", "weights"), obj.weights)
    guards = guards_of(record)
    assert guards.check()
    assert guards.check()


def test_the_check_is_one_readable_generated_function():
    f, g = namespace_function(COEF=2.0)
    record = Recorder()
    record.resolved(f, ("global", "COEF"), g["COEF"])
    text = guards_of(record).check.source
    assert "_b0['COEF'] is _v0" in text
    assert "_registry.version == _version" in text


@pytest.mark.parametrize("bad", [ValueError, KeyError, AttributeError])
def test_a_step_that_raises_fails_the_check(bad):
    class Odd:
        @property
        def value(self):
            raise bad("gone")

    obj = Odd()
    record = Recorder()
    record.resolved(obj, ("attr", "value"), 1.0)
    assert not guards_of(record).check()
