"""A module written by the CLI keeps the gradient contract by itself: each gradient in its
argument's structure, shape and float dtype, its seed checked, with tangentlike not importable.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from reference import BLOCK_TANGENTLIKE

import tangentlike as tl
from tangentlike.cli import main

MODEL = """\
import numpy as np


def loss(W, b, x):
    return np.sum(np.tanh(W @ x + b) ** 2)


def scalar(a, c):
    return a * a * c + np.sin(c)


def params_loss(p, xs):
    total = 0.0
    for x in xs:
        total = total + np.sum((p["W"] @ x + p["b"]) ** 2)
    return total + p["scale"] * np.sum(p["W"] ** 2)


def listed(ws, x):
    return np.sum((ws[0] * x + ws[1]) ** 2)


def field(x):
    return x * x, np.sum(x)
"""

BLOCK = (
    BLOCK_TANGENTLIKE
    + """


def load(path):
    spec = importlib.util.spec_from_file_location(path[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fd(f, args, i, eps=1e-6):
    '''Central differences of f in float64 with respect to args[i] (an array or a float).'''
    args = list(args)
    x = np.array(args[i], dtype=np.float64)
    g = np.zeros(x.shape)
    for k in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[k] += eps
        down[k] -= eps
        args[i] = up if x.shape else float(up)
        hi = f(*args)
        args[i] = down if x.shape else float(down)
        g[k] = (hi - f(*args)) / (2 * eps)
    return g


def same_kind(g, x):
    '''g has x's type, shape and float dtype.'''
    assert type(g) is type(x), (type(g), type(x))
    assert np.shape(g) == np.shape(x), (np.shape(g), np.shape(x))
    if isinstance(x, (np.ndarray, np.generic)):
        assert g.dtype == x.dtype, (g.dtype, x.dtype)
"""
)

CHECKS = """
m = load("m.py")
rng = np.random.default_rng(0)
W, b, x = rng.standard_normal((3, 2)), rng.standard_normal(3), rng.standard_normal(2)

# float64 arrays: values against central differences
dloss = load("dloss.py").dloss
gW, gb = dloss(W, b, x)
for g, i, arg in ((gW, 0, W), (gb, 1, b)):
    same_kind(g, arg)
    assert np.allclose(g, fd(m.loss, (W, b, x), i), rtol=1e-5, atol=1e-8)

# float32 in, float32 out; mixed precision keeps each argument's own dtype
W32, b32 = W.astype(np.float32), b.astype(np.float32)
for args in ((W32, b32, x), (W32, b, x), (W, b32, x.astype(np.float32))):
    grads = dloss(*args)
    for g, arg, g64 in zip(grads, args, (gW, gb)):
        same_kind(g, arg)
        assert np.allclose(g, g64, rtol=1e-3, atol=1e-4)

# Python floats, NumPy scalars, 0-d arrays of each float dtype
dscalar = load("dscalar.py").dscalar
exact = (2 * 1.5 * -0.7, 1.5 * 1.5 + np.cos(-0.7))
for make in (float, np.float64, np.float32, np.array, lambda v: np.array(v, np.float32)):
    a, c = make(1.5), make(-0.7)
    ga, gc = dscalar(a, c)
    same_kind(ga, a)
    same_kind(gc, c)
    assert np.allclose((ga, gc), exact, rtol=1e-6 if np.result_type(a) == np.float64 else 1e-5)
ga, gc = dscalar(2, 3.0)  # an integer alongside: a float gradient
assert type(ga) is float

# a dict of arrays and a float: the same dict, each leaf its own type and dtype
dparams = load("dparams.py").dparams_loss
xs = [rng.standard_normal(2) for _ in range(3)]
p = {"W": W, "b": b, "scale": 0.5}
g = dparams(p, xs)
assert list(g) == ["W", "b", "scale"]
for key in p:
    same_kind(g[key], p[key])
flat = lambda W, b, scale: m.params_loss({"W": W, "b": b, "scale": scale}, xs)
for i, key in enumerate(p):
    assert np.allclose(g[key], fd(flat, (W, b, 0.5), i), rtol=1e-5, atol=1e-7), key
g32 = dparams({"W": W32, "b": b32, "scale": np.float32(0.5)}, xs)
assert g32["W"].dtype == np.float32 and g32["b"].dtype == np.float32
assert type(g32["scale"]) is np.float32

# a list or tuple of arrays: the same list or tuple
dlisted = load("dlisted.py").dlisted
ws, v = [rng.standard_normal(2), rng.standard_normal(2)], rng.standard_normal(2)
gws, gv = dlisted(ws, v)
assert type(gws) is list and len(gws) == 2 and gws[0] is not gws[1]
for g, w in zip(gws, ws):
    same_kind(g, w)
gws, _ = dlisted(tuple(w.astype(np.float32) for w in ws), v)
assert type(gws) is tuple and all(g.dtype == np.float32 for g in gws)

# vjp: the seed is checked against the output, in the module itself
dfield = load("dfield.py").dfield
assert np.allclose(dfield(v, (np.ones(2), 1.0)), 2 * v + 1.0)
try:
    dfield(v, (np.ones(3), 1.0))
except ValueError as err:
    assert "the seed[0] has shape (3,), but the output[0] has shape (2,)" in str(err), err
else:
    raise AssertionError("a seed of the wrong shape was accepted")

blocked = [name for name in sys.modules if name.startswith("tangentlike") and sys.modules[name]]
assert not blocked, blocked
print("ok")
"""


@pytest.fixture
def written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(MODEL)
    for argv in (
        ["grad", "m.py:loss", "--wrt", "W,b", "-o", "dloss.py"],
        ["grad", "m.py:scalar", "--wrt", "a,c", "-o", "dscalar.py"],
        ["grad", "m.py:params_loss", "-o", "dparams.py"],
        ["grad", "m.py:listed", "--wrt", "ws,x", "-o", "dlisted.py"],
        ["grad", "m.py:field", "--mode", "vjp", "-o", "dfield.py"],
    ):
        assert main(argv) == 0, capsys.readouterr().err
    return tmp_path


def test_written_modules_keep_structure_shape_and_dtype_without_tangentlike(written):
    code = BLOCK + textwrap.dedent(CHECKS)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=written, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_written_text_is_the_in_process_source(written):
    """One emitter makes one text: the module the CLI writes is df.source, header aside."""
    sys.path.insert(0, str(written))
    try:
        import m

        text = (written / "dloss.py").read_text()
        source = tl.grad(m.loss, wrt=("W", "b"), checks=False).source
        body = source.split("\n\n\n", 1)[1]
        assert text.endswith(body)
        assert "gradient_like(bW, W, 'W')" in body
    finally:
        sys.path.remove(str(written))
        sys.modules.pop("m", None)


def test_a_debug_mode_module_is_written_with_checks_and_says_so(written, capsys):
    argv = ["grad", "m.py:params_loss", "--checks", "-o", "dchecked.py"]
    assert main(argv) == 0
    text = (written / "dchecked.py").read_text()
    assert "# options:     wrt=p mode=grad checks=on" in text
    assert "--checks -o dchecked.py" in text
    assert "def popped(" in text and "stack_drained(_stack, 'params_loss')" in text
    code = BLOCK + textwrap.dedent(
        """
        rng = np.random.default_rng(0)
        xs = [rng.standard_normal(2) for _ in range(3)]
        p = {"W": rng.standard_normal((3, 2)).astype(np.float32), "b": np.ones(3), "scale": 0.5}
        checked = load("dchecked.py").dparams_loss(p, xs)
        plain = load("dparams.py").dparams_loss(p, xs)
        for key in p:
            assert type(checked[key]) is type(p[key])
            assert np.array_equal(checked[key], plain[key]), key
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=written, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    # without --checks the command ignores TANGENTLIKE_CHECKS: a written module says how it
    # was made, and its header's command makes it again
    plain = (written / "dparams.py").read_text()
    assert "popped(" not in plain and "checks=on" not in plain


CONTAINERS = """
import numpy as np


def as_dict(x):
    return {"a": np.sum(x**2), "b": np.sum(x)}


def ragged(x):
    return np.sum(x**2), x * 2.0
"""


@pytest.mark.parametrize("name", ["as_dict", "ragged"])
@pytest.mark.parametrize("mode", ["grad", "hvp"])
def test_a_written_module_of_a_container_output_says_grad_needs_a_scalar(
    tmp_path, monkeypatch, capsys, name, mode
):
    """The generated check of the output: np.ndim is 0 for a dict and NumPy's error for a
    tuple of arrays of different shapes, so it tests for a container first (hold-out 12:
    the written module failed with "'float' object is not subscriptable" or NumPy's
    "inhomogeneous shape", far from the cause)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.py").write_text(CONTAINERS)
    assert main(["grad", f"c.py:{name}", "--mode", mode, "-o", f"d_{mode}.py"]) == 0
    capsys.readouterr()
    call = f"d{name}(x)" if mode == "grad" else f"hvp_{name}(x, x)"
    code = (
        BLOCK_TANGENTLIKE
        + f"\nimport numpy as np\nfrom d_{mode} import *\nx = np.array([0.5, 1.5])\n"
        + f"try:\n    {call}\nexcept ValueError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "grad needs a scalar output; use vjp" in done.stdout
