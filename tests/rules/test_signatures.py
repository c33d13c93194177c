"""rules.signatures.parameters gives inspect.signature's names, kinds and defaults."""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil

import numpy as np

import tangentlike
from tangentlike.rules import signatures


def _inspects(func: object) -> object:
    try:
        return [(n, p.kind, p.default) for n, p in inspect.signature(func).parameters.items()]
    except (TypeError, ValueError) as err:
        return type(err)


def _ours(func: object) -> object:
    try:
        return [(n, kind, default) for n, (kind, default) in signatures.parameters(func).items()]
    except (TypeError, ValueError) as err:
        return type(err)


def _every_kind(a, /, b, c=1, *args, d, e=2, **kw): ...
def _keyword_only(a, *, d): ...
def _star(*args): ...
def _defaults(a, b=None, c=(1,)): ...


@functools.wraps(_star)
def _wrapped(x): ...


def test_every_kind_of_parameter() -> None:
    for func in (_every_kind, _keyword_only, _star, _defaults, _wrapped, lambda x, y=3: 0):
        assert _ours(func) == _inspects(func), func
    odd = lambda x: x  # noqa: E731
    odd.__signature__ = inspect.Signature()
    assert _ours(odd) == _inspects(odd) == []


def test_every_function_of_the_package_and_numpy() -> None:
    funcs = []
    for info in pkgutil.walk_packages(tangentlike.__path__, "tangentlike."):
        if ".jit" in info.name or "__main__" in info.name:
            continue
        module = importlib.import_module(info.name)
        funcs += [v for v in vars(module).values() if callable(v)]
    funcs += [v for v in vars(np).values() if callable(v)]
    assert len(funcs) > 1000
    for func in funcs:
        assert _ours(func) == _inspects(func), func
