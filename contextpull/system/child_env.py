"""The environment a child process starts with: the caller's, copied, never consulted.

The library reads no setting from the environment (contextpull/settings/environment.py); what it
does with it is hand it on to a process it starts (``git``, the grep child), as ``subprocess``
would. This module is the one place that copies it, so the rule "the library reads no
environment" has one named exception, checked by tests/test_environment_reads.py.
"""

from __future__ import annotations

import os


def without_git_variables() -> dict[str, str]:
    """The environment without ``GIT_*``: ``git -C DOCS`` must ask the repository that holds
    DOCS, not one that ``GIT_DIR`` or ``GIT_WORK_TREE`` point at (a hook, a CI wrapper)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def with_python_path(folder: str) -> dict[str, str]:
    """The environment with ``folder`` first on ``PYTHONPATH``, so a child ``python -m`` imports
    this very package, wherever it was imported from."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [folder, os.environ.get("PYTHONPATH")]))}
