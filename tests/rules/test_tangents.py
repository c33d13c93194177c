"""Every rule's forward form against its reverse form and against central differences.

Each case of cases.py is evaluated with tangents (forward_eval.py: the case's
expression run one rule application at a time, as the A-normal form a forward
sweep runs, every rule through its tangent template, apart from any transform).
Every application is checked against the rule's reverse template, the dot
product <u, J t> == <J^T u, t>, and the whole expression's tangent against
(f(a + eps t) - f(a - eps t)) / (2 eps). Coverage guards: every differentiable
rule outside the pending SciPy families has a forward form, and every forward
form is exercised by some case.
"""

from __future__ import annotations

import functools

import gast
import numpy as np
import pytest
from cases import CASES, Case
from forward_eval import Evaluator, Unsupported
from templates import cotangents_of
from test_table import _inputs, _namespace

from tangentlike.rules.registry import default_registry
from tangentlike.rules.tangent import NoForwardFormError
from tangentlike.rules.template import d

# Rules without a forward form yet, by module, with the reason; every other rule must
# have one (test_every_rule_has_a_forward_form).
PENDING: dict[str, str] = {}  # the SciPy families have their forward forms (issue 13)


def _pending(rule) -> str | None:
    module = getattr(rule.primal, "__module__", "") or ""
    return next((why for prefix, why in PENDING.items() if module.startswith(prefix)), None)


def _evaluate(case: Case, seed: int = 11):
    names = [a for a in ("x", "y", "z") if a in case.shapes]
    values = dict(zip(names, _inputs(case, np.float64), strict=True))
    rng = np.random.RandomState(seed)
    direction = {n: _like(rng, values[n]) for n in names}
    evaluator = Evaluator(_namespace(), dict(values), dict(direction))
    value, jt = evaluator.run(gast.parse(case.expr, mode="eval").body)
    return values, direction, value, jt, evaluator.applications


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_forms_agree_with_reverse_forms_and_differences(case: Case):
    try:
        values, direction, value, jt, applications = _evaluate(case)
    except Unsupported as err:
        pytest.skip(f"the forward evaluator does not run this form: {err}")
    except NoForwardFormError as err:
        if _pending(err.rule) is None:
            raise
        pytest.skip(f"{err.rule.name}: {_pending(err.rule)}")
    rng = np.random.RandomState(5)
    for app in applications:
        u = _like(rng, app.args["result"])
        cotangents = cotangents_of(app.rule, app.args, u, set(app.tangents))
        forward = _inner(u, app.jt)
        reverse = sum(_inner(cotangents[p], t) for p, t in app.tangents.items())
        assert np.isclose(forward, reverse, rtol=1e-8, atol=1e-9), (app.rule.name, forward, reverse)

    eps = 1e-6
    up = {n: v + eps * direction[n] for n, v in values.items()}
    down = {n: v - eps * direction[n] for n, v in values.items()}
    hi, lo = (_flat(eval(case.expr, _namespace(), env)) for env in (up, down))
    if hi.shape != lo.shape:
        pytest.skip("the result's size jumps within the difference step (np.arange)")
    got = _flat(jt, like=value)
    assert got.shape == _flat(value).shape, case.id
    np.testing.assert_allclose(got, (hi - lo) / (2 * eps), rtol=1e-5, atol=1e-6)


def _like(rng, value):
    """A random value of `value`'s structure (array, number, list, tuple, dict)."""
    if isinstance(value, dict):
        return {k: _like(rng, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_like(rng, v) for v in value]
    if isinstance(value, tuple):  # a named tuple (SVDResult) too
        return tuple(_like(rng, v) for v in value)
    if np.iscomplexobj(value):  # a complex cotangent: both directions of the plane
        return rng.standard_normal(np.shape(value)) + 1j * rng.standard_normal(np.shape(value))
    return rng.standard_normal(np.shape(value)) if np.ndim(value) else float(rng.standard_normal())


def _inner(a, b) -> float:
    if a is None or b is None:
        return 0.0
    if isinstance(a, dict):
        return sum(_inner(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return sum(_inner(x, y) for x, y in zip(a, b, strict=True))
    # Re(sum(u * t)): the pairing of autograd's convention (u = dL/dRe - i dL/dIm)
    return float(np.real(np.sum(np.asarray(a) * np.asarray(b))))


def _flat(x, like=None) -> np.ndarray:
    if x is None:
        return np.zeros(_flat(like).shape)
    if isinstance(x, dict):
        return np.concatenate([_flat(x[k]) for k in sorted(x)])
    if isinstance(x, (list, tuple)):
        parts = [_flat(v, None if like is None else like[i]) for i, v in enumerate(x)]
        return np.concatenate(parts) if parts else np.zeros(0)
    return np.ravel(np.asarray(x, dtype=float))


@functools.lru_cache(maxsize=1)
def _exercised() -> frozenset:
    """The primals whose forward form some case applies to an input with a tangent."""
    found = set()
    for case in CASES:
        try:
            found.update(app.rule.primal for app in _evaluate(case)[4])
        except (Unsupported, NoForwardFormError):
            continue
    return frozenset(found)


def test_every_rule_has_a_forward_form():
    registry = default_registry()
    missing = []
    for rule in registry.rules():
        if rule.origin != "builtin" or _pending(rule):
            continue
        try:
            registry.lookup_tangent(rule.primal)
        except NoForwardFormError as err:
            missing.append(f"{rule.name}: {err.why or 'no reason given'}")
    assert not missing, f"rules without a forward form: {missing}"


def test_every_forward_form_has_a_case():
    registry = default_registry()
    with_forward = [
        r for r in registry.rules() if r.origin == "builtin" and registry.has_tangent(r.primal)
    ]
    missing = sorted(r.name for r in with_forward if r.primal not in _exercised())
    assert not missing, f"forward forms no case applies to a tangent: {missing}"


def test_a_rule_without_a_forward_form_is_refused_at_lookup():
    registry = default_registry().copy()

    def no_tangent_op(x):
        return x

    @registry.adjoint(no_tangent_op, origin="user")
    def rule(result, x):
        d[x] = d[result]

    registry.no_tangent({no_tangent_op: "its forward form is not written yet"})
    with pytest.raises(NoForwardFormError) as err:
        registry.lookup_tangent(no_tangent_op)
    message = str(err.value)
    assert "no_tangent_op has a reverse-mode rule but no forward-mode (tangent) rule" in message
    assert "its forward form is not written yet" in message
    assert "registry.tangent beside registry.adjoint" in message
    assert registry.lookup_tangent(lambda x: x) is None  # no rule at all: ask lookup first
