"""The command-line tool: write, show and check derivative modules.

    tangentlike grad model.py:loss --wrt W,b -o build/dloss.py
    tangentlike show model.py:loss --wrt W,b
    tangentlike check model.py:loss --wrt W,b --inputs W=3x4,b=4,X=5x3

Guarantees: a written module is standalone (no external objects, no import of
tangentlike), deterministic (the same function and options give the same
bytes: no timestamps, no absolute temporary paths) and written atomically (a
failed run leaves no file and an existing one untouched). Every error is one
`tangentlike: error: ...` line on stderr (a tangentlike error adds its
location and hint below it) and exit status 2; `--debug` re-raises instead.

Modules: main (the parser, the grad and show commands, error reporting), options
(reading --wrt, --inputs, --checkpoint), targets (loading FILE:FUNC or pkg.mod:FUNC),
output (the module text, its standalone check, colour), check (the check command:
central differences at random inputs).
"""

from .main import main

__all__ = ["main"]
