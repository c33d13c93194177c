"""Nothing stale across processes: a callee or constant in another file changes between two
processes, whatever path the differentiated function reaches it by; the second process must
compute the new gradient (and a third, with nothing changed, must load it from disk)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FILES = {
    "helpers.py": """
        import functools

        import numpy as np

        import deep


        def h1(x):
            return np.sin(x) * 1.5


        def h2(x):
            return np.cos(x) * 1.5


        def h3(x):
            return deep.h4(x) * 2.0


        def scaled(x, k=1.0):
            return np.sin(x) * k * 1.5


        def defaulted(x, a=1.5):
            return np.sin(x) * a


        class Model:
            def forward(self, x):
                return np.tanh(x) * 1.5

            def loss(self, x):
                return self.forward(x) * 2.0


        class K:
            SCALE = 1.5

            @staticmethod
            def s(x):
                return np.sin(x) * 1.5


        class Layer:
            def __call__(self, x):
                return np.exp(x) * 1.5


        def scaling(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return 1.5 * fn(*args, **kwargs)

            return wrapper
    """,
    "deep.py": """
        import numpy as np


        def h4(x):
            return np.sin(x) * 1.5
    """,
    "cfg.py": """
        C1 = 1.5
        C2 = 1.5
    """,
    "pkg/__init__.py": "",
    "pkg/sub.py": """
        import numpy as np

        from pkg import inner

        C3 = 1.5


        def g(x):
            return np.sin(x) * 1.5
    """,
    "pkg/inner.py": """
        import numpy as np


        def g(x):
            return np.cos(x) * 1.5
    """,
    "model.py": """
        import functools

        import numpy as np

        import cfg
        import helpers
        import pkg.sub
        from cfg import C1
        from helpers import K, Layer, Model, h1
        from pkg import sub as S

        M = Model()
        P = functools.partial(helpers.scaled, k=2.0)
        L = Layer()


        def from_import(x):
            return h1(x) * x


        def module_attribute(x):
            return helpers.h2(x) * x


        def package_attribute(x):
            return pkg.sub.g(x) * x


        def alias_chain(x):
            return S.inner.g(x) * x


        def global_object_method(x):
            return M.forward(x) * x


        def partial_object(x):
            return P(x) * x


        def static_method(x):
            return K.s(x) * x


        def call_object(x):
            return L(x) * x


        def argument_class(x, m):
            return m.forward(x) * x


        def imported_constant(x):
            return np.sin(x) * C1


        def module_constant(x):
            return np.sin(x) * cfg.C2


        def package_constant(x):
            return np.sin(x) * pkg.sub.C3


        def callee_of_callee(x):
            return helpers.h3(x) * x


        def class_constant(x):
            return np.sin(x) * K.SCALE


        def callee_default(x):
            return helpers.defaulted(x) * x


        @helpers.scaling
        def decorated(x):
            return np.sin(x) * x
    """,
}

# way -> (file to change, the function to differentiate (an expression), extra arguments)
WAYS = {
    "from_import": ("helpers.py", "model.from_import", ""),
    "module_attribute": ("helpers.py", "model.module_attribute", ""),
    "package_attribute": ("pkg/sub.py", "model.package_attribute", ""),
    "alias_chain": ("pkg/inner.py", "model.alias_chain", ""),
    "global_object_method": ("helpers.py", "model.global_object_method", ""),
    "partial_object": ("helpers.py", "model.partial_object", ""),
    "static_method": ("helpers.py", "model.static_method", ""),
    "call_object": ("helpers.py", "model.call_object", ""),
    "argument_class": ("helpers.py", "model.argument_class", ", helpers.Model()"),
    "bound_method": ("helpers.py", "helpers.Model().loss", ""),
    "imported_constant": ("cfg.py", "model.imported_constant", ""),
    "module_constant": ("cfg.py", "model.module_constant", ""),
    "package_constant": ("pkg/sub.py", "model.package_constant", ""),
    "callee_of_callee": ("deep.py", "model.callee_of_callee", ""),
    "class_constant": ("helpers.py", "model.class_constant", ""),
    "callee_default": ("helpers.py", "model.callee_default", ""),
    "decorator": ("helpers.py", "model.decorated", ""),
}

RUN = """
import json, sys
sys.path.insert(0, {dir!r})
import tangentlike as tl
import helpers, model
f = {func}
df = tl.grad(f)
x, h = 0.3, 1e-6
fd = (f(x + h{extra}) - f(x - h{extra})) / (2 * h)
grad = float(df(x{extra}))  # a gradient specialised to its arguments is built by the call
print(json.dumps({{"from": df.built_from, "grad": grad, "fd": float(fd)}}))
"""


def write_project(root: Path) -> None:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def run(root: Path, cache: Path, func: str, extra: str = "") -> dict:
    result = subprocess.run(
        [sys.executable, "-c", RUN.format(dir=str(root), func=func, extra=extra)],
        capture_output=True,
        text=True,
        env={
            "TANGENTLIKE_CACHE_DIR": str(cache),
            "PATH": "/usr/bin:/bin",
            "PYTHONDONTWRITEBYTECODE": "1",  # edits within one second must be seen
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        },
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_change_in_another_file_reaches_a_new_process(tmp_path, way):
    changed, func, extra = WAYS[way]
    root, cache = tmp_path / "project", tmp_path / "cache"
    write_project(root)
    first = run(root, cache, func, extra)
    assert first["from"] == "transform"
    assert first["grad"] == pytest.approx(first["fd"], rel=1e-6)
    again = run(root, cache, func, extra)
    assert again["from"] == "disk cache", "the disk cache is not used for this way"
    path = root / changed
    path.write_text(path.read_text().replace("1.5", "2.5"))
    second = run(root, cache, func, extra)
    assert second["grad"] == pytest.approx(second["fd"], rel=1e-6)
    assert second["grad"] != pytest.approx(first["grad"], rel=1e-6)
    assert second["from"] == "transform"
    third = run(root, cache, func, extra)
    assert third["from"] == "disk cache"
    assert third["grad"] == pytest.approx(second["grad"], rel=1e-12)


@pytest.mark.parametrize("edited", ["helpers.py", "model.py"])
def test_edit_build_restore_gives_the_restored_gradient(tmp_path, edited):
    """A file edited, a gradient built from the edited text and stored, the file restored:
    a new process computes the gradient of the restored text."""
    root, cache = tmp_path / "project", tmp_path / "cache"
    write_project(root)
    path = root / edited
    original = path.read_text()
    plain = run(root, cache, "model.module_attribute")
    path.write_text(original.replace("1.5", "2.5"))
    edited_run = run(root, cache, "model.module_attribute")
    assert edited_run["grad"] == pytest.approx(edited_run["fd"], rel=1e-6)
    path.write_text(original)
    restored = run(root, cache, "model.module_attribute")
    assert restored["grad"] == pytest.approx(restored["fd"], rel=1e-6)
    assert restored["grad"] == pytest.approx(plain["grad"], rel=1e-12)


EXEC_CALLEE = """
import numpy as np

import tangentlike as tl

namespace = {"np": np}
exec("def g(x):\\n    return np.sin(x) * 2.0\\n", namespace)
g = namespace["g"]
exec("def h(x):\\n    return np.cos(x) * 2.0\\n", namespace)
h = namespace["h"]


@tl.adjoint(h)
def dh(result, x):
    d[x] = -d[result] * np.sin(x) * 2.0  # noqa: F821


def with_rule(x):
    return h(x) * x


def without_source(x):
    return g(x) * x
"""

EXEC_RUN = """
import json, sys
sys.path.insert(0, {dir!r})
import tangentlike as tl
import execs
out = {{}}
df = tl.grad(execs.with_rule)
out["with_rule"] = [df.built_from, float(df(0.3))]
try:
    tl.grad(execs.without_source)
except tl.errors.TangentlikeError as err:
    out["without_source"] = type(err).__name__
print(json.dumps(out))
"""


def test_callee_defined_with_exec_never_crashes_the_disk_cache(tmp_path):
    (tmp_path / "execs.py").write_text(EXEC_CALLEE)
    cache = tmp_path / "cache"
    env = {
        "TANGENTLIKE_CACHE_DIR": str(cache),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    outs = []
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", EXEC_RUN.format(dir=str(tmp_path))],
            capture_output=True,
            text=True,
            env=env,
        )
        assert result.returncode == 0, result.stderr
        outs.append(json.loads(result.stdout))
    import numpy as np

    expected = np.cos(0.3) * 2.0 - 0.3 * np.sin(0.3) * 2.0
    for out in outs:
        assert out["with_rule"][1] == pytest.approx(expected)
        assert out["without_source"] == "SourceNotFoundError"
    assert [o["with_rule"][0] for o in outs] == ["transform", "disk cache"]
