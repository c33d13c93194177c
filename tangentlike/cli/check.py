"""`tangentlike check`: the gradient at random inputs against central finite differences,
element by element (a sample of at most --max-elements per array)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..api import grad
from ..api_forward import jacobian
from .options import CliError, parameters, parse_checkpoint, parse_inputs, parse_wrt
from .targets import Target, load_target


def _inputs(
    func: Callable,
    names: tuple[str, ...],
    shapes: dict[str, tuple[int, ...]],
    rng: np.random.Generator,
    low: float,
    high: float,
) -> tuple[list[Any], dict[str, Any]]:
    """Random float inputs of the given shapes; parameters with defaults keep them."""
    params = parameters(func)
    known = {p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    unknown = sorted(set(shapes) - known)
    if unknown:
        raise CliError(
            f"--inputs names {', '.join(unknown)}, which "
            f"{'is not a parameter' if len(unknown) == 1 else 'are not parameters'}; "
            f"the parameters are {', '.join(p for p in (q.name for q in params) if p in known)}"
        )
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in shapes or p.name in names or p.default is p.empty:
            shape = shapes.get(p.name, ())
            value: Any = (
                float(rng.uniform(low, high)) if not shape else rng.uniform(low, high, shape)
            )
        else:
            value = p.default
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = value
        else:
            args.append(value)
    return args, kwargs


@dataclass(frozen=True)
class Comparison:
    name: str
    shape: tuple[int, ...]
    checked: int
    abs_err: float
    rel_err: float
    ok: bool


def _try_call(target: Target, args: list[Any], kwargs: dict[str, Any]) -> None:
    """Call the function once, so that a user error at these inputs is reported as one."""
    shapes = ", ".join(_format_shape(np.shape(a)) for a in (*args, *kwargs.values()))
    try:
        out = target.func(*args, **kwargs)
    except Exception as err:
        raise CliError(
            f"{target.spec} raised {type(err).__name__} at random inputs of shapes "
            f"({shapes}): {err}; give the parameters' shapes with --inputs"
        ) from err
    if np.ndim(out) != 0:
        raise CliError(
            f"{target.spec} returns an array of shape {np.shape(out)} at random inputs of "
            f"shapes ({shapes}); check needs a scalar output (give the shapes with --inputs)"
        )


def _compare(
    func: Callable,
    df: Callable,
    names: tuple[str, ...],
    args: list[Any],
    kwargs: dict[str, Any],
    options: argparse.Namespace,
    rng: np.random.Generator,
) -> list[Comparison]:
    """Each gradient against central differences (step options.eps), element by element."""
    eps, rtol, atol = options.eps, options.rtol, options.atol
    max_elements = options.max_elements
    positions = {p.name: i for i, p in enumerate(parameters(func))}
    grads = df(*args, **kwargs)  # a tuple: df was built with a tuple wrt

    def value(slot: tuple[str, Any], x: Any) -> float:
        kind, key = slot
        call_args, call_kwargs = list(args), dict(kwargs)
        if kind == "arg":
            call_args[key] = x
        else:
            call_kwargs[key] = x
        return float(np.asarray(func(*call_args, **call_kwargs)))

    results = []
    for name, g in zip(names, grads, strict=True):
        slot: tuple[str, Any] = ("kwarg", name) if name in kwargs else ("arg", positions[name])
        x0 = kwargs[name] if name in kwargs else args[positions[name]]
        g = np.asarray(g, dtype=float)
        if np.ndim(x0) == 0:
            fd = np.array((value(slot, x0 + eps) - value(slot, x0 - eps)) / (2 * eps))
            indices = [()]
            picked = g.reshape(())
        else:
            x0 = np.asarray(x0)
            flat = np.arange(x0.size)
            if x0.size > max_elements:
                flat = np.sort(rng.choice(x0.size, max_elements, replace=False))
            indices = [np.unravel_index(i, x0.shape) for i in flat]
            fd = np.empty(len(indices))
            for k, index in enumerate(indices):
                plus, minus = x0.copy(), x0.copy()
                plus[index] += eps
                minus[index] -= eps
                fd[k] = (value(slot, plus) - value(slot, minus)) / (2 * eps)
            picked = np.array([g[index] for index in indices])
        diff = np.abs(picked - fd)
        abs_err = float(np.max(diff)) if diff.size else 0.0
        scale = float(max(np.max(np.abs(picked)), np.max(np.abs(fd)))) if diff.size else 0.0
        rel_err = abs_err / scale if scale > 0 else (0.0 if abs_err == 0 else float("inf"))
        finite = bool(np.all(np.isfinite(picked)) and np.all(np.isfinite(fd)))
        ok = finite and (rel_err <= rtol or abs_err <= atol)
        results.append(Comparison(name, np.shape(x0), len(indices), abs_err, rel_err, ok))
    return results


def _format_shape(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape)) if shape else "()"


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric options of `check`: a positive finite step, finite tolerances and
    bounds, a positive element count."""
    if not (math.isfinite(args.eps) and args.eps > 0):
        raise CliError(f"--eps {args.eps:g}: the finite-difference step must be a positive number")
    for option, value in (("--rtol", args.rtol), ("--atol", args.atol)):
        if not (math.isfinite(value) and value >= 0):
            raise CliError(f"{option} {value:g}: a tolerance must be a number >= 0")
    for option, value in (("--low", args.low), ("--high", args.high)):
        if not math.isfinite(value):
            raise CliError(f"{option} {value:g}: the bounds of the inputs must be finite")
    if not args.low < args.high:
        raise CliError(f"--low {args.low} must be below --high {args.high}")
    if args.max_elements < 1:
        raise CliError(f"--max-elements {args.max_elements}: check at least 1 element")


def cmd_check(args: argparse.Namespace) -> int:
    _check_numbers(args)
    shapes = parse_inputs(args.inputs)
    with load_target(args.target) as target:
        names, _ = parse_wrt(args.wrt, target.func, target.spec)
        rng = np.random.default_rng(args.seed)
        call_args, call_kwargs = _inputs(target.func, names, shapes, rng, args.low, args.high)
        _try_call(target, call_args, call_kwargs)
        checks = True if args.checks else None  # None: TANGENTLIKE_CHECKS decides
        forward = args.mode == "forward"
        if forward:  # the gradient of a scalar output is its Jacobian: one vector jvp
            df = jacobian(target.func, wrt=names, mode="forward")
        else:
            df = grad(
                target.func, wrt=names, checkpoint=parse_checkpoint(args.checkpoint), checks=checks
            )
        results = _compare(target.func, df, names, call_args, call_kwargs, args, rng)
    print(
        f"check: {'jvp (forward mode)' if forward else 'grad'} of {target.spec} "
        f"wrt {', '.join(names)} against central differences "
        f"(eps {args.eps:g}) at uniform random inputs in [{args.low:g}, {args.high:g}], "
        f"seed {args.seed}"
    )
    width = max(len(r.name) for r in results)
    for r in results:
        total = int(np.prod(r.shape))
        sampled = f"  ({r.checked} of {total} elements)" if r.checked < total else ""
        print(
            f"  {r.name:<{width}}  {_format_shape(r.shape):>8}  max abs err {r.abs_err:.3e}  "
            f"max rel err {r.rel_err:.3e}  {'ok' if r.ok else 'FAIL'}{sampled}"
        )
    abs_err = max(r.abs_err for r in results)
    rel_err = max(r.rel_err for r in results)
    passed = all(r.ok for r in results)
    verdict = "OK" if passed else "FAILED"
    print(
        f"max abs error {abs_err:.3e}, max rel error {rel_err:.3e}: {verdict} "
        f"(tolerance: rel err <= {args.rtol:g} or abs err <= {args.atol:g})"
    )
    if not passed and not all(np.isfinite([abs_err, rel_err])):
        print(
            "non-finite values: the function may be undefined at these inputs "
            "(try --low and --high)"
        )
    return 0 if passed else 1
