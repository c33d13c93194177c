"""Independent references for gradients: central differences and autograd as an oracle."""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np

_counter = itertools.count()

# The start of a child script in which tangentlike cannot be imported (a written module
# must run without it): imports importlib.util, json, sys and numpy as np.
BLOCK_TANGENTLIKE = """\
import importlib.abc, importlib.util, json, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "tangentlike" or name.startswith("tangentlike."):
            raise ImportError("tangentlike is blocked in this test")

sys.meta_path.insert(0, Block())
sys.modules["tangentlike"] = None
import numpy as np
"""


def load_module(tmp_path: Path, source: str, name: str | None = None) -> types.ModuleType:
    """Write `source` to a file and import it (source must be readable by inspect)."""
    name = name or f"tl_case_{next(_counter)}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def line_of(module: types.ModuleType, text: str) -> int:
    """The number of the first line of `module`'s file that contains `text`."""
    lines = Path(module.__file__).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def directional_fd(f, args, i, direction, eps=1e-6):
    """(f(a + eps u) - f(a - eps u)) / 2 eps, in float64, for argument i."""
    args = [np.array(a, dtype=np.float64) if _is_float(a) else a for a in args]
    up, down = list(args), list(args)
    up[i] = args[i] + eps * direction
    down[i] = args[i] - eps * direction
    return (float(np.sum(f(*up))) - float(np.sum(f(*down)))) / (2 * eps)


def fd_gradient(f, args, i, eps=1e-6):
    """The full central-difference gradient of scalar f with respect to argument i."""
    args = [np.array(a, dtype=np.float64) if _is_float(a) else a for a in args]
    g = np.zeros(np.shape(args[i]))
    for k in np.ndindex(*np.shape(args[i])):
        e = np.zeros(np.shape(args[i]))
        e[k] = 1.0
        g[k] = directional_fd(f, args, i, e, eps)
    return g


def fd_hvp(f, x, v, eps=1e-6):
    """Central differences of tangentlike's gradient along v: a Hessian-vector product's
    reference (the gradient itself checked against autograd elsewhere)."""
    import tangentlike as tl

    g = tl.grad(f)
    return (np.asarray(g(x + eps * v)) - np.asarray(g(x - eps * v))) / (2 * eps)


def fresh_copies(args):
    """The arguments with every array copied (for functions changing them in place)."""
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def fd_on_copies(f, args, i, eps=1e-6):
    """Central differences of f in argument i (a float or an array), each call on fresh
    copies of the arrays: f may change its arguments in place."""
    if isinstance(args[i], float):
        up, down = list(args), list(args)
        up[i], down[i] = args[i] + eps, args[i] - eps
        return (f(*fresh_copies(up)) - f(*fresh_copies(down))) / (2 * eps)
    return fd_gradient(lambda *a: f(*fresh_copies(a)), fresh_copies(args), i, eps)


def check_against_fd(f, df_value, args, i, rtol=1e-5, atol=1e-7, seed=0):
    """Compare <grad, u> with the directional derivative along a random u."""
    rng = np.random.RandomState(seed)
    u = rng.standard_normal(np.shape(args[i]))
    expected = directional_fd(f, args, i, u)
    actual = float(np.sum(np.asarray(df_value, dtype=np.float64) * u))
    assert np.isclose(actual, expected, rtol=rtol, atol=atol), (actual, expected)


def check_reverse_form(f, args, i, rtol=1e-5):
    """A rule's reverse form (tl.grad of f in argument i) against central differences."""
    import tangentlike as tl

    check_against_fd(f, tl.grad(f, wrt=i)(*args), list(args), i, rtol=rtol)


def check_forward_form(f, args, i, rng, rtol=1e-5):
    """A rule's forward form (tl.jvp of f in argument i, along a direction drawn from
    `rng`, 0.6 for a number) against central differences."""
    import tangentlike as tl

    t = rng.standard_normal(np.shape(args[i])) if np.ndim(args[i]) else 0.6
    _, tangent = tl.jvp(f, wrt=i)(*args, t)
    expected = directional_fd(f, list(args), i, t)
    assert np.isclose(float(tangent), expected, rtol=rtol, atol=1e-7)


def autograd_version(f):
    """The same function with `np` rebound to autograd.numpy (f's globals untouched)."""
    import autograd.numpy as anp

    globals_ = {**f.__globals__, "np": anp}
    g = types.FunctionType(f.__code__, globals_, f.__name__, f.__defaults__, f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    return g


def autograd_grad(f, args, i):
    import autograd

    return autograd.grad(autograd_version(f), i)(*args)


def _is_float(a):
    return isinstance(a, float) or (
        isinstance(a, np.ndarray) and np.issubdtype(a.dtype, np.floating)
    )


def lint_problems(path: Path, select: str = "F") -> str:
    """What `ruff check --select <select>` reports for a file ('' when clean)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            select,
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    return "" if result.returncode == 0 else result.stdout + result.stderr
