"""A generated program and its inputs: the unit every other module of the tester passes around.

A Program is plain data (source text and parameter kinds), so it can be written
to a reproduction file and rebuilt exactly; the inputs of attempt k of a program
are a pure function of (seed, index, k).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
import types
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

ENTRY = "f"

_module_ids = itertools.count()


@dataclass(frozen=True)
class Param:
    """A parameter of the entry function: a float array of `shape` (() is a Python
    float), or an int (shape None) that is never differentiated."""

    name: str
    shape: tuple[int, ...] | None

    @property
    def differentiable(self) -> bool:
        return self.shape is not None


@dataclass(frozen=True)
class Program:
    seed: int
    index: int
    source: str
    params: tuple[Param, ...]
    tags: frozenset[str] = field(default=frozenset())

    @property
    def wrt(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.differentiable)

    @property
    def name(self) -> str:
        return f"seed {self.seed} program {self.index}"

    def with_source(self, source: str, params: tuple[Param, ...] | None = None) -> Program:
        return replace(self, source=source, params=self.params if params is None else params)


def draw_inputs(program: Program, attempt: int) -> list:
    """The arguments of attempt `attempt`: floats of magnitude in [0.3, 1.6] with random
    signs (away from 0, so x ** -2 and 1 / x stay tame), ints in 0..4."""
    rng = np.random.default_rng([program.seed, program.index, attempt])
    args: list = []
    for p in program.params:
        if p.shape is None:
            args.append(int(rng.integers(0, 5)))
            continue
        magnitude = rng.uniform(0.3, 1.6, size=p.shape)
        value = magnitude * rng.choice([-1.0, 1.0], size=p.shape)
        args.append(float(value) if p.shape == () else value)
    return args


def copy_args(args: list) -> list:
    """Fresh copies, so no call can see another call's in-place updates."""
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def load(source: str, directory: Path, stem: str = "fz") -> tuple[types.ModuleType, Path]:
    """Write `source` to a new file in `directory` and import it under a new name
    (tangentlike reads the source with inspect, so it must be a real file); `unload`
    it when done."""
    name = f"{stem}_{next(_module_ids)}"
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module, path


def unload(module: types.ModuleType) -> None:
    """Forget a module made by `load` (its file stays, for error messages and repros)."""
    sys.modules.pop(module.__name__, None)


def namespace(source: str, numpy_module: types.ModuleType, filename: str) -> dict:
    """Execute `source` in a fresh namespace whose `np` is `numpy_module` (numpy or
    autograd.numpy): an independent copy of the program, never the file's module."""
    ns: dict = {"__name__": "fz_copy"}
    exec(compile(source, filename, "exec"), ns)
    ns["np"] = numpy_module
    return ns
