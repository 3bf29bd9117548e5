"""``python -m contextpull.cli``: the ``contextpull`` command, as 0.2.1 documented it."""

import sys

from contextpull.cli import main

if __name__ == "__main__":
    sys.exit(main())
