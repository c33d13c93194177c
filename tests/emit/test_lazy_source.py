"""The A-normal form the pipeline logs at debug level is printed only when logged."""

from __future__ import annotations

import logging

import gast
import numpy as np

import tangentlike as tl
from tangentlike.emit import codegen


def _f(x):
    return np.sum(np.sin(x) * x)


def test_lazy_source_prints_what_function_source_prints() -> None:
    fn = gast.parse("def g(x):\n    y = x * 2.0\n    return y\n").body[0]
    assert str(codegen.LazySource(fn)) == codegen.function_source(fn, None)


def test_the_a_normal_form_is_logged_at_debug_level(caplog, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TANGENTLIKE_CACHE_DIR", str(tmp_path))
    with caplog.at_level(logging.DEBUG, logger="tangentlike"):
        tl.grad(_f)(np.arange(3.0))
    logged = [r.getMessage() for r in caplog.records if "A-normal form of _f" in r.getMessage()]
    assert logged and "def _f(x):" in logged[0]
