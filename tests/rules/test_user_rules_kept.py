"""A rule registered with `tl.adjoint` stays the rule: the SciPy rule files, loaded
later (deferred until the program uses SciPy), never replace it, nor attach a
built-in forward form, listing or complex form to it."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special

import tangentlike as tl
import tangentlike.api_forward
import tangentlike.gradients
from tangentlike.rules.registry import Registry, load_rule_files


def _registry_with_user_erf() -> Registry:
    registry = Registry()
    registry.builtins(load_rule_files)

    @tl.adjoint(scipy.special.erf, registry=registry)
    def derf(result, x):
        d[x] = d[result] * 100.0  # noqa: F821 - a template: `d` is the rule language's

    return registry


def test_a_deferred_rule_file_loaded_later_keeps_the_users_rule():
    registry = _registry_with_user_erf()
    assert registry.lookup(scipy.special.erf).origin == "user"
    # gammaln has no user rule: asking for it loads scipy.special's rule file
    assert registry.lookup(scipy.special.gammaln).origin == "builtin"
    assert registry.lookup(scipy.special.erf).origin == "user"
    assert all(r.origin == "user" for r in registry.rules() if r.primal is scipy.special.erf)
    assert registry.copy().lookup(scipy.special.erf).origin == "user"


def test_gradients_built_after_the_rule_file_loads_use_the_users_rule(monkeypatch, tmp_path):
    registry = _registry_with_user_erf()
    for module in (tangentlike.gradients, tangentlike.api_forward):
        monkeypatch.setattr(module, "default_registry", lambda: registry)
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path))
    tangentlike.gradients._cache.clear()

    def first(x):
        return scipy.special.erf(x) * 2.0

    def other(x):
        return scipy.special.gammaln(x)

    def later(x):
        return scipy.special.erf(x) * 3.0

    try:
        assert tl.grad(first)(0.5) == pytest.approx(200.0)
        assert tl.grad(other)(2.5) == pytest.approx(scipy.special.digamma(2.5))
        assert tl.grad(later)(0.5) == pytest.approx(300.0)  # not the built-in rule's 2.64
        # the user gave no forward form: refused, never the built-in one
        with pytest.raises(Exception, match="no forward form"):
            tl.jvp(later)(0.5, 1.0)
    finally:
        tangentlike.gradients._cache.clear()
        tangentlike.api_forward._cache.clear()
    assert np.isfinite(scipy.special.erf(0.5))


def test_the_user_may_still_replace_or_complete_their_rule():
    registry = _registry_with_user_erf()
    registry.lookup(scipy.special.gammaln)  # the rule file is in

    @registry.tangent(scipy.special.erf)
    def terf(result, x):
        d[result] = d[x] * 100.0  # noqa: F821

    assert registry.lookup_tangent(scipy.special.erf).origin == "user"
    before = registry.lookup(scipy.special.erf)

    @tl.adjoint(scipy.special.erf, registry=registry)
    def derf_again(result, x):
        d[x] = d[result] * 7.0  # noqa: F821

    assert registry.lookup(scipy.special.erf) is not before
    assert registry.lookup(scipy.special.erf).origin == "user"
    with pytest.raises(Exception, match="no forward"):  # the new rule needs its own form
        registry.lookup_tangent(scipy.special.erf)
