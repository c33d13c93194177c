"""The benchmark workloads stay right: each hand-written gradient against central
differences, tangentlike and autograd, at small sizes (no bench extra needed)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, fd_gradient

import tangentlike as tl
from benchmarks import workloads
from benchmarks.checks import Reference, disagreement, reference
from benchmarks.contenders.common import Task, numpy_tuple

ALL = workloads.load()
IDS = [w.name for w in ALL]


def test_every_listed_workload_loads_with_a_unique_name():
    assert [w.name for w in ALL] == list(workloads.NAMES)
    with pytest.raises(KeyError, match="unknown workload"):
        workloads.load(["no_such_workload"])


@pytest.mark.parametrize("w", ALL, ids=IDS)
def test_inputs_are_fixed_and_wrt_names_float_arguments(w):
    first, again = w.inputs("test"), w.inputs("test")
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    for i in w.wrt:
        assert isinstance(first[i], float) or first[i].dtype == np.float64


@pytest.mark.parametrize("w", ALL, ids=IDS)
def test_hand_written_gradient_matches_central_differences(w):
    args = w.inputs("test")
    hand = numpy_tuple(w.by_hand(*args))
    assert len(hand) == len(w.wrt)
    for g, i in zip(hand, w.wrt, strict=True):
        fd = fd_gradient(w.f, args, i)
        np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-7 * max(1.0, np.max(np.abs(fd))))


@pytest.mark.parametrize("w", ALL, ids=IDS)
def test_hand_written_gradient_matches_tangentlike_and_autograd(w):
    import autograd

    args = w.inputs("test")
    hand = numpy_tuple(w.by_hand(*args))
    ref = Reference(hand, 1e-10)
    generated = numpy_tuple(tl.grad(w.f, wrt=w.wrt)(*args))
    assert disagreement(generated, ref) <= ref.rtol
    oracle = numpy_tuple(autograd.grad(autograd_version(w.f), w.wrt)(*args))
    assert disagreement(oracle, ref) <= ref.rtol


@pytest.mark.parametrize("w", [w for w in ALL if w.hessian_by_hand], ids=lambda w: w.name)
def test_hand_written_hessian_matches_differences_of_the_gradient(w):
    args = w.inputs("test")
    i = w.wrt[0]
    H = w.hessian_by_hand(*args)
    probe = np.random.default_rng(0).standard_normal(np.shape(args[i]))
    fd = reference(Task(w, args, "hvp", probe))  # would use H: compute FD explicitly instead
    eps = 1e-5
    up = numpy_tuple(w.by_hand(*args[:i], args[i] + eps * probe, *args[i + 1 :]))[0]
    down = numpy_tuple(w.by_hand(*args[:i], args[i] - eps * probe, *args[i + 1 :]))[0]
    np.testing.assert_allclose(H @ probe, (up - down) / (2 * eps), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(fd.values[0], H @ probe, rtol=1e-12)


def test_disagreement_flags_wrong_values_and_shapes():
    ref = Reference((np.array([1.0, 2.0]), np.array(3.0)), 1e-7)
    assert disagreement((np.array([1.0, 2.0]), np.array(3.0)), ref) == 0.0
    assert disagreement((np.array([1.0, 2.1]), np.array(3.0)), ref) > 1e-3
    assert disagreement((np.array([1.0, 2.0]),), ref) == float("inf")
    assert disagreement((np.array([1.0, 2.0, 0.0]), np.array(3.0)), ref) == float("inf")
    assert disagreement((np.array([np.nan, 2.0]), np.array(3.0)), ref) == float("inf")
