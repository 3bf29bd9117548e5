"""Compile our package's bytecode before timing its CLI.

pip compiles a package when it installs it, and the published implementation these scripts
compare with was installed that way. Our checkout is an editable install: under
``PYTHONDONTWRITEBYTECODE`` (set on the machines these figures come from) every start of our CLI
compiled each module whose source had changed since its ``.pyc`` was written, 0.1-0.3 s a run,
which is most of what a no-change ``build --cache`` takes (0.86-1.35 s before, 0.77-0.83 s
after, synthetic corpus, new OUT).
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "contextpull"


def compile_package(package: Path = PACKAGE) -> None:
    compileall.compile_dir(str(package), quiet=1)
