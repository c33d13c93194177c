"""The parameters of the generated functions, built in one place (by assemble.build).

Assumes: the original function's parameters (`original`, the parsed tree, whose
defaults hold the values the function was defined with). Guarantees:
- an entry function takes the original's positional parameters (with their
  defaults), then the seed: positional and last when the original has no *args
  and no keyword-only parameters, else keyword-only after the original's
  keyword-only ones; then *args, keyword-only parameters (with defaults) and
  **kwargs as the original has them; with stats, the measuring stack as the last
  keyword-only parameter (no default: the caller always passes it);
- a forward half takes the stack, then the original's parameters likewise (no seed);
- a backward half takes the stack and the seed.
"""

from __future__ import annotations

import gast

from ..syntax import nodes


def entry(
    original: gast.FunctionDef,
    positional: list[str],
    defaults: list[gast.expr],
    seed: str,
    seed_default: object,
    stats_stack: str | None,
) -> gast.arguments:
    a = original.args
    args = nodes.arguments(positional, [*defaults])
    seed_default_node = nodes.const(seed_default)
    keyword_seed = a.vararg is not None or bool(a.kwonlyargs)
    if not keyword_seed:
        args.args.append(nodes.name(seed))
        args.defaults.append(seed_default_node)
    _carry(args, a)
    if keyword_seed:
        args.kwonlyargs.append(nodes.name(seed))
        args.kw_defaults.append(seed_default_node)
    if stats_stack is not None:  # the caller passes a measuring stack (schedule.Tape)
        args.kwonlyargs.append(nodes.name(stats_stack))
        args.kw_defaults.append(None)
    return args


def forward_half(
    original: gast.FunctionDef, stack: str, positional: list[str], defaults: list[gast.expr]
) -> gast.arguments:
    args = nodes.arguments([stack, *positional], [*defaults])
    _carry(args, original.args)
    return args


def backward_half(stack: str, seed: str) -> gast.arguments:
    return nodes.arguments([stack, seed])


def _carry(target: gast.arguments, a: gast.arguments) -> None:
    """The original's *args, keyword-only parameters (with defaults) and **kwargs."""
    target.vararg = nodes.deepcopy(a.vararg)
    target.kwonlyargs = [*nodes.deepcopy(a.kwonlyargs), *target.kwonlyargs]
    target.kw_defaults = [*nodes.deepcopy(a.kw_defaults), *target.kw_defaults]
    target.kwarg = nodes.deepcopy(a.kwarg)
