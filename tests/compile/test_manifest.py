"""compile/manifest.py: descriptions equal across processes, paths followed again, any
difference (a value, a text, a code object, a missing path) rejects the entry."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from reference import load_module

from tangentlike.compile import manifest
from tangentlike.parse.record import Recorder
from tangentlike.parse.source import parse_function

SOURCE = """
import functools

import numpy as np

COEF = 2.0


def helper(x, a=1.5):
    return np.sin(x) * a


def f(x):
    return helper(x) * COEF


P = functools.partial(helper, a=3.0)
"""


def recorded(m) -> Recorder:
    record = Recorder({"entry": m.f})
    parse_function(m.f, record)
    record.resolved(m.f, ("global", "COEF"), m.COEF)
    helper = record.resolved(m.f, ("global", "helper"), m.helper)
    parse_function(helper, record)
    record.resolved(helper, ("global", "np"), np)
    record.resolved(np, ("attr", "sin"), np.sin)
    return record


def test_written_manifest_validates_and_gives_the_live_objects(tmp_path):
    m = load_module(tmp_path, SOURCE)
    text = manifest.write(recorded(m))
    found, rest = manifest.split(text + "# generated text\n")
    assert rest == "# generated text\n"
    live = manifest.validate(found, {"entry": m.f})
    assert live is not None
    values = [r.value for r in live.resolutions]
    assert m.helper in values and np.sin in values and 2.0 in values


@pytest.mark.parametrize(
    "change",
    [
        lambda m: setattr(m, "COEF", 3.0),
        lambda m: setattr(m, "helper", lambda x: x),
        lambda m: setattr(m.helper, "__defaults__", (2.5,)),
        lambda m: setattr(m.helper, "__code__", (lambda x, a=1.0: x).__code__),
        lambda m: delattr(m, "helper"),
        lambda m: Path(m.__file__).write_text(Path(m.__file__).read_text() + "\n# edited\n"),
    ],
    ids=["literal", "function", "defaults", "code", "missing", "file text"],
)
def test_any_difference_rejects_the_entry(tmp_path, change):
    m = load_module(tmp_path, SOURCE)
    found, _ = manifest.split(manifest.write(recorded(m)))
    change(m)
    assert manifest.validate(found, {"entry": m.f}) is None


def test_an_object_no_path_reaches_is_not_written(tmp_path):
    m = load_module(tmp_path, SOURCE)
    record = recorded(m)
    local = functools.partial(m.helper)  # reached from nowhere recorded
    record.resolved(local, ("attr", "func"), m.helper)
    assert manifest.write(record) is None


def test_modules_and_importable_functions_are_found_by_name(tmp_path):
    m = load_module(tmp_path, SOURCE)
    record = Recorder({"entry": m.f})
    record.resolved(np.linalg, ("attr", "inv"), np.linalg.inv)
    found, _ = manifest.split(manifest.write(record))
    assert found["steps"][0][0] == ["module:numpy.linalg", []]
    assert manifest.validate(found, {"entry": m.f}) is not None


CHILD = """
import json, sys
sys.path.insert(0, {dir!r})
import numpy as np
from tangentlike.compile.manifest import describe, code_digest
import target
print(json.dumps([describe(v) for v in (target.COEF, target.helper, target.helper.__code__,
    np.sin, np, target.P, (1.0, np.ones(2)), {{"b": 1, "a": target.helper}}, frozenset("abc"))]))
"""


def test_descriptions_are_the_same_in_another_process(tmp_path):
    (tmp_path / "target.py").write_text(SOURCE)
    outs = []
    for seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", CHILD.format(dir=str(tmp_path))],
            capture_output=True,
            text=True,
            check=True,
            env={
                "PATH": "/usr/bin:/bin",
                "PYTHONHASHSEED": seed,
                "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
            },
        )
        outs.append(json.loads(result.stdout))
    assert outs[0] == outs[1]
    assert outs[0][0] == "literal float 2.0"
    assert outs[0][1] == "function target.helper"
