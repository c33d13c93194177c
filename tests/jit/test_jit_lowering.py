"""The lowered module: typed stacks in place of the one Python stack, kernels for the
runtime helpers, origin comments kept, and a real file numba's cache reuses across
processes (numba absent: skipped)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.jit import context
from tangentlike.jit.lower import lower

numba = pytest.importorskip("numba")

SOURCE = """
import numpy as np


def iterate(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x


def first_positive(x):
    m = 0.0
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
    return m * m
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jit_lowering"), SOURCE)


def test_kernels_define_every_name_the_lowering_binds():
    import importlib

    from tangentlike.jit.emit import kernel_module

    names = [*context.KERNELS, *context.NUMPY_KERNELS.values(), *context.JOIN_KERNELS]
    for name in [*names, *context.FORWARD_KERNELS, "add_item_inplace"]:
        where = importlib.import_module(f"tangentlike.jit.{kernel_module(name)}")
        assert callable(getattr(where, name)), name


def test_one_typed_stack_per_saved_variable(m):
    dj = tl.grad(m.iterate, wrt=(0, 1), jit=True)
    assert dj(0.5, 0.9, 10) == pytest.approx(tl.grad(m.iterate, wrt=(0, 1))(0.5, 0.9, 10))
    (text,) = dj.jit_sources.values()
    assert "@numba.njit(cache=True)" in text
    assert "_push" not in text and "_pop" not in text and "_stack" not in text
    assert "_s_x.append(x)" in text and "x = _s_x.pop()" in text
    assert "def _diterate_nopython(" in text
    assert "reversed(" not in text
    assert "gradient_like(" not in text.split("@numba.njit")[1]  # shaped in Python
    assert "# grad of " in text and ".py:" in text  # the generated comments kept


def test_a_variable_unbound_before_its_first_save_keeps_one_type(m):
    x = np.array([0.5, -1.0, 2.0, 1.5, 3.0])
    dj = tl.grad(m.first_positive, jit=True)
    np.testing.assert_allclose(dj(x), tl.grad(m.first_positive)(x))
    (text,) = dj.jit_sources.values()
    assert "if _c1 is not None:" in text or "is not None" in text


def test_the_compiled_module_is_a_file_in_the_cache(m):
    dj = tl.grad(m.iterate, wrt=(0, 1), jit=True)
    dj(0.5, 0.9, 10)
    directory = Path(os.environ["TANGENTLIKE_CACHE_DIR"]) / "jit"
    texts = {p.read_text() for p in directory.glob("*.py")}
    assert set(dj.jit_sources.values()) <= texts


CHILD = """
import sys
sys.path.insert(0, {folder!r})
import numpy as np
import tangentlike as tl
import {module} as m

tl.grad(m.iterate, wrt=(0, 1), jit=True)(0.5, 0.9, 10)
hits = sum(
    len(getattr(fn, "stats").cache_hits)
    for name, mod in list(sys.modules.items()) if name.startswith("tangentlike_jit_")
    for fn in vars(mod).values() if hasattr(fn, "stats")
)
print(hits)
"""


def test_a_second_process_loads_numbas_cache(m, tmp_path):
    folder = str(Path(m.__file__).parent)
    code = textwrap.dedent(CHILD.format(folder=folder, module=m.__name__))
    env = {**os.environ, "TANGENTLIKE_CACHE_DIR": str(tmp_path / "cache")}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(tl.__file__).parent.parent), folder])
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert int(runs[0].stdout.split()[-1]) == 0  # compiled
    assert int(runs[1].stdout.split()[-1]) >= 1  # loaded from numba's cache


INPLACE = """
import numpy as np


def gather(x):
    total = 0.0
    for i in range(len(x)):
        total = total + x[i] * x[i]
    return total


def shared(x, y):
    t = 0.0
    for i in range(len(x)):
        t = t + x[i] * y[i]
    return t + np.sum(x * y)
"""


def test_an_adjoint_no_other_name_sees_is_updated_in_place(tmp_path):
    m = load_module(tmp_path, INPLACE)
    x, y = np.linspace(0.1, 1.0, 6), np.linspace(-1.0, 2.0, 6)
    dj = tl.grad(m.gather, jit=True)
    np.testing.assert_allclose(dj(x), 2 * x, rtol=1e-12)
    (text,) = dj.jit_sources.values()
    assert "bx[i] += " in text  # the build specialised to an array (optimize/accumulate.py)
    # the generic build's add_item becomes the in-place kernel when lowered (jit/inplace.py)
    plain = tl.grad(m.gather, checks=False).source  # debug mode adds checks numba lacks
    generic = lower(plain, "dgather", lambda name, line: None)
    assert "bx = add_item_inplace(bx, x, i," in generic.source
    # bx is read by other code (the sum's adjoint starts it): it stays a new array per update
    dj2 = tl.grad(m.shared, wrt=(0, 1), jit=True)
    gx, gy = dj2(x, y)
    np.testing.assert_allclose(gx, 2 * y, rtol=1e-12)
    np.testing.assert_allclose(gy, 2 * x, rtol=1e-12)
