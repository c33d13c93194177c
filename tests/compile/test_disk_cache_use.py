"""The disk cache as users meet it: a new process loads instead of transforming."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import numpy as np

MODEL = """
import numpy as np

from helper_mod import squash

SCALE = {scale}


def loss(w, x):
    h = squash(x @ w)
    for _ in range(2):
        h = np.tanh(h) * SCALE
    return np.sum(h * h)
"""

HELPER = """
import numpy as np


def squash(z):
    return np.sin(z){extra}
"""

RUN = """
import sys, json
import numpy as np
sys.path.insert(0, {dir!r})
import tangentlike as tl
import model
df = tl.grad(model.loss)
w, x = np.linspace(-1, 1, 3), np.linspace(0, 1, 6).reshape(2, 3)
print(json.dumps({{"from": df.built_from, "grad": df(w, x).tolist()}}))
"""


def project(tmp_path, scale="0.9", extra=""):
    (tmp_path / "model.py").write_text(MODEL.format(scale=scale))
    (tmp_path / "helper_mod.py").write_text(HELPER.format(extra=extra))


def run(tmp_path, cache_dir, **env):
    import json

    result = subprocess.run(
        [sys.executable, "-c", RUN.format(dir=str(tmp_path))],
        capture_output=True,
        text=True,
        check=True,
        env={
            "TANGENTLIKE_CACHE_DIR": str(cache_dir),
            "PATH": "/usr/bin:/bin",
            "PYTHONDONTWRITEBYTECODE": "1",  # edits within one second must be seen
            **env,
        },
    )
    return json.loads(result.stdout)


def entries(cache_dir):
    return sorted(cache_dir.glob("*.py"))


def test_second_process_loads_from_disk(tmp_path):
    project(tmp_path)
    cache = tmp_path / "cache"
    first = run(tmp_path, cache)
    second = run(tmp_path, cache)
    assert first["from"] == "transform" and second["from"] == "disk cache"
    assert np.allclose(first["grad"], second["grad"])
    assert len(entries(cache)) == 1


def test_corrupt_entry_is_regenerated_not_executed(tmp_path):
    project(tmp_path)
    cache = tmp_path / "cache"
    good = run(tmp_path, cache)
    (entry,) = entries(cache)
    text = entry.read_text()
    entry.write_text(text.replace("np.tanh", "np.sinh", 1))  # a hand edit
    again = run(tmp_path, cache)
    assert again["from"] == "transform" and np.allclose(again["grad"], good["grad"])
    entry.write_text(text[: len(text) // 2])  # truncated
    assert run(tmp_path, cache)["from"] == "transform"
    assert run(tmp_path, cache)["from"] == "disk cache"


def test_changed_callee_or_constant_invalidates(tmp_path):
    project(tmp_path)
    cache = tmp_path / "cache"
    base = run(tmp_path, cache)
    project(tmp_path, extra=" * 2.0")
    changed = run(tmp_path, cache)
    assert changed["from"] == "transform" and not np.allclose(changed["grad"], base["grad"])
    project(tmp_path, scale="0.5", extra=" * 2.0")
    assert run(tmp_path, cache)["from"] == "transform"
    # one entry per text of the differentiated function: a changed callee replaced it
    assert len(entries(cache)) == 2


def test_cache_can_be_disabled(tmp_path):
    project(tmp_path)
    cache = tmp_path / "cache"
    assert run(tmp_path, cache, TANGENTLIKE_DISK_CACHE="0")["from"] == "transform"
    assert run(tmp_path, cache, TANGENTLIKE_DISK_CACHE="0")["from"] == "transform"
    assert not cache.exists() or not entries(cache)


def test_cache_option_takes_a_directory_or_false(tmp_path):
    from reference import load_module

    import tangentlike as tl

    module = load_module(tmp_path, "import numpy as np\n\ndef f(x):\n    return np.sum(x ** 3)\n")
    where = tmp_path / "mine"
    df = tl.grad(module.f, cache=where)
    assert df.built_from == "transform" and len(entries(where)) == 1
    module2 = load_module(tmp_path, "import numpy as np\n\ndef g(x):\n    return np.sum(x ** 4)\n")
    tl.grad(module2.g, cache=False)
    assert len(entries(where)) == 1


def test_processes_and_threads_building_at_once(tmp_path):
    project(tmp_path)
    cache = tmp_path / "cache"
    code = textwrap.dedent(RUN.format(dir=str(tmp_path)))

    def one(_):
        return subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={"TANGENTLIKE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"},
        )

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(one, range(4)))
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    assert len(entries(cache)) == 1
    assert run(tmp_path, cache)["from"] == "disk cache"


RUN_FORWARD = """
import sys, json
import numpy as np
sys.path.insert(0, {dir!r})
import tangentlike as tl
from tangentlike.api_forward import jvp_vector
import model
jf, kf = tl.jvp(model.loss), jvp_vector(model.loss)
w, x = np.linspace(-1, 1, 3), np.linspace(0, 1, 6).reshape(2, 3)
value, tangent = jf(w, x, np.array([0.3, -0.2, 1.0]))
_, tangents = kf(w, x, np.eye(3))
print(json.dumps({{"from": [jf.built_from, kf.built_from], "tangent": float(tangent),
                  "tangents": tangents.tolist()}}))
"""


def test_forward_mode_is_cached_on_disk_too(tmp_path):
    """jvp and its k-wide form: a second process loads both from disk, under keys of
    their own (neither is taken for the other, nor for the gradient)."""
    import json

    project(tmp_path)
    cache = tmp_path / "cache"
    env = {"TANGENTLIKE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    script = RUN_FORWARD.format(dir=str(tmp_path))

    def once():
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
        )
        return json.loads(done.stdout)

    first, second = once(), once()
    assert first["from"] == ["transform", "transform"]
    assert second["from"] == ["disk cache", "disk cache"]
    assert np.isclose(first["tangent"], second["tangent"])
    assert np.allclose(first["tangents"], second["tangents"])
    assert len(entries(cache)) == 2
    grad = run(tmp_path, cache)  # the gradient is a third entry, not a forward one
    assert grad["from"] == "transform" and len(entries(cache)) == 3
