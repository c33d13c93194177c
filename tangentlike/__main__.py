"""`python -m tangentlike ...`: the same command line as the `tangentlike` script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
