"""`tangentlike grad FILE:FUNC --mode hvp` writes a standalone HVP module: it imports
where tangentlike is not installed, and its hvp_FUNC(*args, v) is H v."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tangentlike as tl

ROOT = Path(__file__).resolve().parents[2]

MODEL = """
import numpy as np


def loss(w, X, y):
    z = X @ w
    total = 0.0
    for k in range(2):
        total = total + np.sum(np.logaddexp(0.0, z * (k + 1)) - y * z)
    return total + 0.5 * np.dot(w, w)


def pair(a, b):
    return np.sum(np.sin(a) * b) + np.sum(b ** 3)


def star(x, *rest):
    s = np.sum(x ** 3)
    for r in rest:
        s = s + np.sum(r * x ** 2)
    return s


def keyword_only(x, *, a=2.0):
    return np.sum(x ** 3) * a


def keywords(x, **opts):
    return np.sum(x ** 3) * opts["a"]


def named_v(v, w):
    return np.sum(v ** 3 * w)
"""

RUN = """
import json, sys
sys.modules["tangentlike"] = None  # not installed
sys.path.insert(0, sys.argv[1])
import numpy as np
import {module} as m
args = [np.array(a) for a in json.loads(sys.argv[2])]
v = {v}
print(json.dumps(np.asarray({call}).tolist()))
"""


def _write(tmp_path: Path, spec: str, out: str, *extra: str) -> Path:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "tangentlike", "grad", spec, "--mode", "hvp", "-o", out, *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / out


def _run(tmp_path: Path, module: str, args: list, v: str, call: str):
    code = RUN.format(module=module, v=v, call=call)
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), json.dumps(args)],
        capture_output=True,
        text=True,
        env={k: val for k, val in os.environ.items() if k != "PYTHONPATH"},
    )
    assert result.returncode == 0, result.stderr
    return np.array(json.loads(result.stdout))


@pytest.fixture
def model(tmp_path):
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL))
    sys.path.insert(0, str(tmp_path))
    try:
        import model as module

        yield module
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("model", None)


def test_written_hvp_module_runs_without_tangentlike(tmp_path, model):
    path = _write(tmp_path, "model.py:loss", "hloss.py")
    text = path.read_text()
    assert "def hvp_loss(w, X, y, v):" in text and "mode=hvp" in text
    rng = np.random.RandomState(0)
    w, X, y = rng.randn(3), rng.randn(5, 3), (rng.rand(5) > 0.5) * 1.0
    v = rng.randn(3)
    got = _run(
        tmp_path,
        "hloss",
        [w.tolist(), X.tolist(), y.tolist()],
        repr(v.tolist()),
        "m.hvp_loss(*args, np.array(v))",
    )
    assert np.allclose(got, tl.hvp(model.loss)(w, X, y, v))


def test_written_hvp_module_for_two_parameters(tmp_path, model):
    _write(tmp_path, "model.py:pair", "hpair.py", "--wrt", "a,b")
    rng = np.random.RandomState(1)
    a, b, va, vb = rng.randn(3), rng.randn(3), rng.randn(3), rng.randn(3)
    got = _run(
        tmp_path,
        "hpair",
        [a.tolist(), b.tolist()],
        f"({va.tolist()!r}, {vb.tolist()!r})",
        "m.hvp_pair(*args, (np.array(v[0]), np.array(v[1])))",
    )
    expected = tl.hvp(model.pair, wrt=(0, 1))(a, b, (va, vb))
    assert np.allclose(got[0], expected[0]) and np.allclose(got[1], expected[1])


# f's parameters as f takes them: *rest spread (v last, as tl.hvp takes it; the written
# module once passed the tuple as one item and v as the gradient's seed: H v times v),
# keyword-only parameters and **kwargs by name, a parameter named v kept apart from v
SIGNATURES = [
    ("star", "m.hvp_star(x, r, v)", lambda x, r: 6 * x + 2 * r),
    ("star", "m.hvp_star(x, r, r, v)", lambda x, r: 6 * x + 4 * r),
    ("keyword_only", "m.hvp_keyword_only(x, v, a=3.0)", lambda x, r: 18 * x),
    ("keyword_only", "m.hvp_keyword_only(x, v)", lambda x, r: 12 * x),
    ("keywords", "m.hvp_keywords(x, v, a=3.0)", lambda x, r: 18 * x),
    ("named_v", "m.hvp_named_v(x, r, v)", lambda x, r: 6 * x * r),
]


@pytest.mark.parametrize("name, call, diagonal", SIGNATURES)
def test_written_hvp_module_takes_the_arguments_f_takes(tmp_path, model, name, call, diagonal):
    _write(tmp_path, f"model.py:{name}", f"h{name}.py")
    x, r, v = np.array([0.3, -0.5]), np.array([0.7, 1.1]), np.array([1.0, 2.0])
    call = f"(lambda x, r, v: {call})(*args, np.array(v))"
    got = _run(tmp_path, f"h{name}", [x.tolist(), r.tolist()], repr(v.tolist()), call)
    assert np.allclose(got, diagonal(x, r) * v)


@pytest.mark.parametrize("name", ["star", "keyword_only", "keywords"])
def test_hvp_entry_over_a_reverse_over_reverse_module(model, name):
    from tangentlike.cli.output import hvp_entry

    f = getattr(model, name)
    product = tl.hvp(f, method="reverse")
    namespace: dict = {}
    exec(product.source + hvp_entry(product.source, f, ("x",), True, "reverse"), namespace)
    x, r, v = np.array([0.3, -0.5]), np.array([0.7, 1.1]), np.array([1.0, 2.0])
    hv = namespace[f"hvp_{name}"]
    if name == "star":
        assert np.allclose(hv(x, r, v), (6 * x + 2 * r) * v)
    else:
        assert np.allclose(hv(x, v, a=3.0), 18 * x * v)


def test_checkpoint_with_hvp_is_refused(tmp_path, model):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tangentlike",
            "grad",
            "model.py:loss",
            "--mode",
            "hvp",
            "--checkpoint",
            "every=2",
            "-o",
            "h.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode != 0 and "--checkpoint" in result.stderr
