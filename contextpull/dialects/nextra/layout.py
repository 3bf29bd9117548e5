"""Whether a folder holding ``next.config.*`` is a Nextra site (issue 36): the file alone says
only "Next.js", which many applications are. Nextra's own layout decides, looked at by name
(files are read as data, nothing is run):

- the configuration names the ``nextra`` package (``from 'nextra'``, ``require("nextra")``);
- or a ``_meta.{js,jsx,ts,tsx,json}`` navigation file (``_meta.global.*`` and Nextra 2's
  translated ``_meta.en-US.json`` too) stands in one of
  the folders Nextra reads pages from (``pages/``, ``content/``, ``app/``, also under ``src/``);
- or an ``app/`` folder holds an MDX page (``app/**/page.mdx``): Next.js' own MDX, read the same way.

The walk is bounded (``MAX_ENTRIES`` entries looked at), so a large application folder costs a
constant amount, and it stays inside the repository (``SiteDoor.walk``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ...system.bounded_read import CONFIG_FILE_LIMIT
from ..door import SiteDoor

PAGE_FOLDERS = ("pages", "content", "app", "src/pages", "src/content", "src/app")
META_NAMES = re.compile(r"_meta(?:\.global|\.[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)?\.(?:js|jsx|ts|tsx|json)")
CONFIG_NAMES = ("next.config.js", "next.config.mjs", "next.config.ts", "next.config.cjs")
MAX_ENTRIES = 5000
_NEXTRA_IMPORT = re.compile(r"""(?:from\s*|require\s*\(\s*)['"]nextra['"]""")


def is_nextra(door: SiteDoor, folder: Path) -> bool:
    """``folder`` (absolute, inside the repository) is a Nextra site (module docstring)."""
    for name in CONFIG_NAMES:
        try:
            text = door.read(str(folder / name), CONFIG_FILE_LIMIT).decode("utf-8", "replace")
        except OSError:
            continue
        if _NEXTRA_IMPORT.search(text):
            return True
    budget = MAX_ENTRIES
    for sub in PAGE_FOLDERS:
        in_app = sub.endswith("app")
        for _top, dirs, files in door.walk(str(folder / sub)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "node_modules")))
            budget -= len(files) + len(dirs) + 1
            if any(META_NAMES.fullmatch(f) for f in files) or (in_app and "page.mdx" in files):
                return True
            if budget <= 0:
                return False
    return False
