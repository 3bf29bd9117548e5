"""Where ContextPull installs from, for the hints that tell a person how to get an extra.

Until this project is published on the package index, ``pip install contextpull`` resolves to
the older 0.2.1 of another implementation, so every install line (README.md, the ``serve`` and
PDF hints) names this repository at the release tag of this version instead. Each release also
carries the wheel and sdist (.github/workflows/release.yml). tests/test_readme.py keeps the
README's install lines equal to these.
"""

from __future__ import annotations

from .. import __version__

# This repository's GitHub owner/name. OWNER is a placeholder until the repository's public
# address is fixed; the README uses the same spelling.
REPOSITORY = "OWNER/contextpull"
SOURCE = f"git+https://github.com/{REPOSITORY}@v{__version__}"


def requirement(extra: str | None = None) -> str:
    """A pip/uv requirement for this version, with ``extra`` when given."""
    name = f"contextpull[{extra}]" if extra else "contextpull"
    return f"{name} @ {SOURCE}"
