"""Dead code: unused pure values are dropped, side effects and returned values stay."""

from __future__ import annotations

import gast
import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def f(x):
    unused = np.exp(x) * 2.0
    print("value", np.sum(x))
    return np.sum(np.sin(x))
"""


def test_unused_values_are_dropped_and_prints_kept(tmp_path, capsys):
    module = load_module(tmp_path, SOURCE)
    df = tl.grad(module.f)
    assert "unused" not in df.source and "print(" in df.source
    x = np.array([0.1, 0.2])
    assert np.allclose(df(x), np.cos(x))
    assert capsys.readouterr().out.count("value") == 1  # side effect once, not twice


def test_optimize_false_keeps_everything(tmp_path):
    module = load_module(tmp_path, SOURCE)
    assert "unused = " in tl.grad(module.f, optimize=False).source


def test_an_update_in_place_keeps_what_it_updates(tmp_path):
    """`b *= m` reads b: the assignment of b stays while the update is live, and both go
    when b is dead (a helper whose parameter is rebound before its use)."""
    from tangentlike.optimize.dce import drop_dead_assignments

    def dce(source: str, live: set[str]) -> list[str]:
        body = gast.parse(source).body
        kept = drop_dead_assignments(body, live, lambda value: True)
        return [type(s).__name__ for s in kept]

    code = "b = g * 2.0\nb *= 1.5\nout = b\n"
    assert dce(code, {"out"}) == ["Assign", "AugAssign", "Assign"]
    assert dce(code, set()) == []

    module = load_module(
        tmp_path,
        "import numpy as np\n\n\ndef h(p0, p1):\n    p0 = np.sin(p1) * 2.0\n"
        "    u = np.tanh(1.5 * p0)\n    return u\n\n\n"
        "def f(x):\n    s = x * 1.0\n    for _ in range(2):\n        s = s + h(s, 1.0)\n"
        "    return np.sum(s)\n",
    )
    df = tl.grad(module.f)
    assert "*=" not in df.source.split("def _bwd_h")[1].split("\ndef ")[0]
    assert np.allclose(df(np.array([0.3, -0.2])), 1.0)


LOOP_SOURCE = """
import numpy as np


def loss(W, h, ys):
    total = 0.0
    for t in range(len(ys)):
        h = np.tanh(h @ W)
        total = total + np.sum(h * ys[t])
    return total
"""


def test_a_running_loss_nothing_returns_leaves_the_loop(tmp_path):
    """The gradient returns no loss: the loop's running sum (and the product it sums,
    and that product's save and restore) go; value_and_grad keeps them."""
    module = load_module(tmp_path, LOOP_SOURCE)
    rng = np.random.default_rng(3)
    W, h, ys = (
        rng.standard_normal((3, 3)) * 0.5,
        rng.standard_normal(3),
        rng.standard_normal((4, 3)),
    )
    df = tl.grad(module.loss, wrt=(0, 1), checks=False)
    grads = df(W, h, ys)
    for text in (df.source, *df.specialised.values()):
        forward = text.split("# forward sweep")[1].split("# backward sweep")[0]
        code = "\n".join(line.split("#")[0] for line in forward.splitlines())
        assert "np.sum(" not in code and "total =" not in code
    for i in (0, 1):
        check_against_fd(module.loss, grads[i], (W, h, ys), i)
        np.testing.assert_allclose(grads[i], autograd_grad(module.loss, (W, h, ys), i))
    value, again = tl.value_and_grad(module.loss, wrt=(0, 1))(W, h, ys)
    assert value == pytest.approx(module.loss(W, h, ys))
    np.testing.assert_allclose(again[0], grads[0])
