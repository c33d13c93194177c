"""The traced twin: same values, and a trace that changes exactly when a decision does."""

from __future__ import annotations

import numpy as np
import pytest

from .generator import generate
from .program import ENTRY, copy_args, draw_inputs, namespace
from .tracer import Traced, instrument


def trace_of(body: str, *args):
    source = f"import numpy as np\n\n\ndef f(x, y):\n    {body}\n"
    return Traced(source).run(list(args))


@pytest.mark.parametrize(
    ("body", "a", "b", "across"),
    [
        ("return x if x > 0.0 else 2.0 * x", 0.5, 0.7, -0.5),
        ("return abs(x)", 0.5, 0.7, -0.5),
        ("return np.abs(x * y).sum()", 0.5, 0.7, -0.5),
        ("return np.maximum(x, 0.2)", 0.5, 0.7, 0.1),
        ("return max(x, 0.2, -x)", 0.5, 0.7, 0.1),
        ("return np.max(x * y)", 0.5, 0.7, -0.5),
        ("return (x * y).max(axis=0).sum()", 0.5, 0.7, -0.5),
        ("return x % 0.4", 0.5, 0.7, 0.9),
        ("return x // 0.4", 0.5, 0.7, 0.9),
        ("return np.fmod(x, 0.4)", 0.5, 0.7, 0.9),
        ("return np.clip(x, 0.0, 0.8)", 0.5, 0.7, 0.9),
        ("return np.floor(3 * x)", 0.4, 0.6, 0.7),
        ("return x < 0.6 < 2.0 * x", 0.5, 0.55, 0.2),
        ("return float(x and y[0] > 0.0 or x > 0.6)", 0.5, 0.55, 0.0),
        ("return sum([e for e in y * x if e > 0.3])", 0.5, 0.55, 0.2),
        ("return np.sum(np.where(y * x > 0.3, y, 0.0))", 0.5, 0.55, 0.2),
    ],
)
def test_trace_changes_exactly_across_a_decision(body, a, b, across):
    y = np.array([1.0, -0.5, 0.9])
    value_a, trace_a = trace_of(body, a, y)
    _, trace_b = trace_of(body, b, y)
    _, trace_c = trace_of(body, across, y)
    assert trace_a, "nothing recorded"
    assert trace_a == trace_b
    assert trace_a != trace_c
    plain = namespace(f"import numpy as np\n\n\ndef f(x, y):\n    {body}\n", np, "<t>")[ENTRY]
    assert np.all(plain(a, y) == value_a)


def test_short_circuit_and_evaluation_order_are_kept():
    source = "def f(x, calls):\n    return x > 0 and calls.append(1) is None or calls.append(2)\n"
    traced = Traced(source)
    calls: list[int] = []
    traced.run([-1.0, calls])
    assert calls == [2]
    calls.clear()
    traced.run([1.0, calls])
    assert calls == [1]


def test_in_place_updates_still_write_through():
    body = "    z = y\n    z %= 0.7\n    z += abs(x)\n    return y\n"
    source = f"import numpy as np\n\n\ndef f(x, y):\n{body}"
    y = np.array([1.0, 2.0])
    value, _ = Traced(source).run([0.5, y])
    assert value is y and np.allclose(y, np.array([1.0, 2.0]) % 0.7 + 0.5)


def test_instrumented_programs_compute_the_same_values():
    for i in range(60):
        program = generate(8, i)
        args = draw_inputs(program, 0)
        try:
            with np.errstate(all="ignore"):
                expected = namespace(program.source, np, "<t>")[ENTRY](*copy_args(args))
        except Exception:
            continue
        value, _ = Traced(program.source).run(copy_args(args))
        assert np.array_equal(value, expected, equal_nan=True), instrument(program.source)
