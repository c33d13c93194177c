"""The disk cache's key holds the builder's fingerprint (the package's modules, by path,
size and modification time): a module written by tangentlike as it was before a
change in place (another commit checked out, an edit, a reinstall under the same
version) is never loaded."""

from __future__ import annotations

import importlib.util

import numpy as np

import tangentlike as tl
from tangentlike import build

SOURCE = "import numpy as np\n\n\ndef f(x):\n    return np.sum(np.sin(x) * x)\n"


def _fresh(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def test_another_builder_fingerprint_transforms_again(tmp_path, monkeypatch):
    path = tmp_path / "fingerprinted.py"
    path.write_text(SOURCE)
    cache = tmp_path / "cache"
    x = np.linspace(-1.0, 1.0, 4)
    first = tl.grad(_fresh(path, "fingerprinted"), cache=str(cache))
    assert first.built_from == "transform"
    again = tl.grad(_fresh(path, "fingerprinted"), cache=str(cache))
    assert again.built_from == "disk cache"  # same builder: loaded
    monkeypatch.setattr(build, "builder_fingerprint", lambda: "another-builder")
    changed = tl.grad(_fresh(path, "fingerprinted"), cache=str(cache))
    assert changed.built_from == "transform"
    np.testing.assert_allclose(changed(x), first(x), rtol=0)


def test_the_fingerprint_is_stable_within_a_process_and_names_the_package():
    assert build.builder_fingerprint() == build.builder_fingerprint()
    assert len(build.builder_fingerprint()) == 16
