"""The command line's parser and dispatch, the `grad` and `show` commands, and how an
error is reported (one line, exit status 2)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from .. import __version__
from ..compile.atomic import mode_to_keep, write_atomic
from ..errors import TangentlikeError
from . import output
from .check import cmd_check
from .options import MODES, PROG, CliError, parse_checkpoint, parse_wrt
from .targets import Target, display_path, exited, load_target


def _command(args: argparse.Namespace, target: Target, names: tuple[str, ...]) -> list[str]:
    words = [PROG, args.command, target.spec, "--wrt", ",".join(names), "--mode", args.mode]
    if args.checkpoint:
        words += ["--checkpoint", args.checkpoint]
    if args.checks:
        words += ["--checks"]
    if getattr(args, "jit", False):
        words += ["--jit"]
    if args.command == "grad":
        words += ["-o", display_path(args.output)]
    return words


def _derivative(args: argparse.Namespace, target: Target) -> tuple[Callable, tuple[str, ...], str]:
    """The gradient `args` ask for, the names it is with respect to, and its module text."""
    names, single = parse_wrt(args.wrt, target.func, target.spec)
    checkpoint = parse_checkpoint(args.checkpoint)
    jit = getattr(args, "jit", False)
    if jit and (args.checks or args.mode == "hvp"):
        raise CliError(
            "--jit compiles the plain module: leave out --checks and use --mode grad, vjp, "
            "value_and_grad or forward"
        )
    df = output.generate(target, names, single, args.mode, checkpoint, args.checks)
    command = _command(args, target, names)
    text = output.module_text(
        target, df, names, args.mode, command, args.checkpoint, args.checks, jit
    )
    return df, names, text


def cmd_grad(args: argparse.Namespace) -> int:
    path = Path(args.output)
    if path.is_dir():
        raise CliError(f"-o {args.output}: is a directory; give a file name like dloss.py")
    with load_target(args.target) as target:
        if target.source_file and path.exists() and path.samefile(target.source_file):
            raise CliError(f"-o {args.output} is the source file itself; choose another name")
        df, names, text = _derivative(args, target)
        output.check_standalone(text, df, target)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"), mode_to_keep(path))
    except OSError as err:
        raise CliError(f"cannot write {args.output}: {err.strerror or err}") from err
    print(
        f"wrote {display_path(args.output)} ({args.mode} of {target.spec} wrt {', '.join(names)})"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with load_target(args.target) as target:
        df, _, text = _derivative(args, target)
    external = sorted(getattr(df, "external", {}) or {})
    if external:
        print(
            f"{PROG}: warning: not standalone: uses {', '.join(external)}, which "
            f"{'exists' if len(external) == 1 else 'exist'} only in the running program; "
            "`tangentlike grad` would refuse to write it",
            file=sys.stderr,
        )
    colour = output.use_color(args.color, sys.stdout)
    sys.stdout.write(output.colorize(text) if colour else text)
    return 0


_GRAD_EPILOG = """\
examples:
  tangentlike grad model.py:loss -o dloss.py                 # wrt the first parameter
  tangentlike grad model.py:loss --wrt W,b -o build/dloss.py # a tuple of two gradients
  tangentlike grad mypkg.model:loss --wrt 0 --mode vjp -o dloss.py
  tangentlike grad samples/rnn.py:loss --wrt W,U --checkpoint snapshots=10 -o drnn.py
  tangentlike grad model.py:loss --jit -o dloss_jit.py        # compiled by numba

The module imports NumPy (and what the original imports), carries the helpers
it needs, and never imports tangentlike. Its header records the source file,
function, options, a hash of the source file and the command that regenerates it.
"""

_SHOW_EPILOG = """\
examples:
  tangentlike show model.py:loss --wrt W,b
  tangentlike show model.py:loss --color never | less
"""

_CHECK_EPILOG = """\
examples:
  tangentlike check model.py:loss                     # every parameter a float scalar
  tangentlike check model.py:loss --wrt W,b --inputs "W=3x4,b=4,X=5x3,reg=()"

Exit status: 0 when every gradient agrees with central differences (rel err
<= --rtol, or abs err <= --atol), 1 when one does not, 2 on an error.
"""


def _common(parser: argparse.ArgumentParser, with_mode: bool) -> None:
    parser.add_argument("target", metavar="TARGET", help="path/to/file.py:func or pkg.mod:func")
    parser.add_argument(
        "--wrt",
        metavar="A,B",
        help="comma-separated parameter names or positions (default: the first parameter)",
    )
    if with_mode:
        parser.add_argument(
            "--mode",
            choices=MODES,
            default="grad",
            help="grad (scalar output), vjp (any output, takes a seed) or value_and_grad "
            "(default: grad); `reverse` names the differentiation mode and means grad; "
            "forward: the Jacobian-vector product (jvp), returning (value, J t), the "
            "tangent t taken last; hvp: the Hessian-vector product, the module ending "
            "with hvp_FUNC(*args, v)",
        )
    parser.add_argument(
        "--checkpoint",
        metavar="SPEC",
        help="checkpoint every outermost for loop of the function: snapshots=K (binomial "
        "schedule keeping at most K loop states) or every=N (a snapshot every N steps); "
        "loops marked with tl.checkpointed keep their own schedule",
    )
    parser.add_argument(
        "--checks",
        action="store_true",
        help="debug mode: the generated code checks itself as it runs (every push popped "
        "by its own pop, the stack empty at the end, every adjoint shaped like its value)",
    )
    if with_mode:
        parser.add_argument(
            "--jit",
            action="store_true",
            help="write the module compiled by numba in nopython mode (needs numba where it "
            "runs; the first call compiles, numba caches beside the module); with --mode "
            "grad, vjp, value_and_grad or forward; refuses, with the line, a function numba "
            "cannot compile",
        )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the full traceback of an error",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Source-to-source reverse-mode automatic differentiation for Python + NumPy.",
        epilog="Run `tangentlike COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    raw = argparse.RawDescriptionHelpFormatter

    grad_command = commands.add_parser(
        "grad",
        help="write a standalone derivative module",
        epilog=_GRAD_EPILOG,
        formatter_class=raw,
        description="Write the derivative of a function as a module.",
    )
    _common(grad_command, with_mode=True)
    grad_command.add_argument(
        "-o", "--output", required=True, metavar="OUT.py", help="file to write"
    )
    grad_command.set_defaults(run=cmd_grad)

    show_command = commands.add_parser(
        "show",
        help="print the generated source",
        epilog=_SHOW_EPILOG,
        formatter_class=raw,
        description="Print the derivative module `grad` would write.",
    )
    _common(show_command, with_mode=True)
    show_command.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the source (with pygments, when installed; default: auto, when stdout "
        "is a terminal)",
    )
    show_command.set_defaults(run=cmd_show)

    check_command = commands.add_parser(
        "check",
        help="compare the gradient with finite differences",
        epilog=_CHECK_EPILOG,
        formatter_class=raw,
        description="Check the gradient at random inputs against central finite differences.",
    )
    _common(check_command, with_mode=False)
    check_command.add_argument(
        "--mode",
        choices=("reverse", "forward"),
        default="reverse",
        help="check grad (reverse, the default) or forward mode (jvp along every input element)",
    )
    check_command.add_argument(
        "--inputs",
        metavar="SPEC",
        help="shapes of the parameters, e.g. W=3x4,b=4,c=() (default: every one a float)",
    )
    check_command.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    check_command.add_argument(
        "--low", type=float, default=-1.0, help="inputs >= LOW (default: -1)"
    )
    check_command.add_argument("--high", type=float, default=1.0, help="inputs < HIGH (default: 1)")
    check_command.add_argument(
        "--eps", type=float, default=1e-6, help="finite-difference step (default: 1e-6)"
    )
    check_command.add_argument(
        "--rtol", type=float, default=1e-5, help="relative tolerance (default: 1e-5)"
    )
    check_command.add_argument(
        "--atol", type=float, default=1e-8, help="absolute tolerance (default: 1e-8)"
    )
    check_command.add_argument(
        "--max-elements",
        type=int,
        default=1000,
        metavar="N",
        help="check at most N random elements of each array (default: 1000)",
    )
    check_command.set_defaults(run=cmd_check)
    return parser


def _report(err: BaseException) -> None:
    if isinstance(err, TangentlikeError):
        message = str(err)
    elif isinstance(err, OSError):
        message = f"{err.strerror or err}: {err.filename}" if err.filename else str(err)
    else:
        first = str(err).strip().splitlines()[0] if str(err).strip() else ""
        message = (
            f"internal error: {type(err).__name__}: {first} "
            "(a tangentlike bug; rerun with --debug for the traceback)"
        )
    print(f"{PROG}: error: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        if args.debug:
            raise
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exit_:  # user code exiting under us (the commands never do)
        if args.debug:
            raise
        _report(CliError(exited(f"running {args.target}", exit_)))
        return 2
    except Exception as err:
        if args.debug:
            raise
        _report(err)
        return 2
