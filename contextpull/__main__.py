"""``python -m contextpull``: the ``contextpull`` command."""

import sys

from contextpull.cli import main

if __name__ == "__main__":
    sys.exit(main())
